/**
 * The inbox search reads the newest rows, then asks the trigram index for the rows since a recent
 * day, before it asks the whole index (SearchWindows in src/server/console/inbox.ts). Whichever way
 * a page is found, it must be the same rows as the whole index alone gives: here with a small
 * first window over rows an hour apart, so that each way is taken on a few hundred rows spread over
 * 50 days, on PostgreSQL.
 */
import { tmpdir } from 'node:os';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inboxPage, PAGE_SIZE, type InboxQuery, type SearchWindows } from '../../src/server/console/inbox';
import { openDatabase, type Database } from '../../src/server/kit/db/client';
import { createTestDatabase, postgresUnavailableReason } from './forms-support';

const WINDOWS: SearchWindows = { first: 40 };
const ROWS = 1_200;

/**
 * Row n (1 = newest) holds: "Common" in every 4th row (10 in the first window: the index is asked
 * for the rows of the last 17 days, which hold a page); "Middling" in every 12th (3 in the first
 * window: the rows since a day before the oldest); "Burst" in the newest 20 rows and then only in
 * every 5th row past the 1,000th (20 in the first window, none in the days asked for after it:
 * the whole index); "Sparse" in every 40th from the 500th (none in the first window: the whole
 * index at once); "Once" in row 30 and in rows past the 450th (one in the first window: the whole
 * index); "Tied" in rows 31 to 100, of which rows 38 to 43, across the end of the first window, share
 * one time. Addresses j.taylor and jtaylor tell the punctuation apart.
 */
function words(n: number): string {
  const out: string[] = [];
  if (n % 4 === 0) out.push('Common');
  if (n % 12 === 0) out.push('Middling');
  if (n <= 20 || (n > 1000 && n % 5 === 0)) out.push('Burst');
  if (n >= 500 && n % 40 === 0) out.push('Sparse');
  if (n === 30 || (n > 450 && n % 7 === 0)) out.push('Once');
  if (n > 30 && n <= 100) out.push('Tied');
  return out.join(' ');
}

/** Hours before now that row n was received: rows 38 to 43 at the same moment. */
const age = (n: number) => (n >= 38 && n <= 43 ? 38 : n);

const pgUnavailable = await postgresUnavailableReason();
if (pgUnavailable) console.warn(`Skipping console-search: ${pgUnavailable}`);

describe.skipIf(Boolean(pgUnavailable))('the inbox search on PostgreSQL', () => {
  let database: Database;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const test = await createTestDatabase('search');
    database = await openDatabase({ dataDir: tmpdir(), databaseUrl: test.url });
    cleanup = async () => {
      await database.close();
      await test.drop();
    };
    const values = Array.from({ length: ROWS }, (_, i) => {
      const n = i + 1;
      const email =
        n % 50 === 0 ? 'j.taylor@example.org' : n % 50 === 1 ? 'jtaylor@example.org' : `r${n}@example.org`;
      return sql`(gen_random_uuid(), 'contact', ${JSON.stringify({
        firstName: `Reader${n}`,
        lastName: 'Test',
        email,
        message: `${words(n)} note ${n}`,
      })}::jsonb, now() - make_interval(hours => ${age(n)}), ${n % 25 === 3})`;
    });
    await database.db.execute(
      sql`insert into submissions (id, form_type, fields, received_at, spam) values ${sql.join(values, sql`, `)}`,
    );
  });

  afterAll(async () => {
    await cleanup?.();
  });

  const query = (q: string, extra: Partial<InboxQuery> = {}): InboxQuery => ({
    status: 'received',
    q,
    ...extra,
  });

  /** Every page of a search, followed by its cursors. */
  async function allPages(q: string, windows: SearchWindows, extra: Partial<InboxQuery> = {}) {
    const ids: string[] = [];
    let after: InboxQuery['after'];
    for (let pages = 0; pages < 50; pages += 1) {
      const page = await inboxPage(database.db, { ...query(q, extra), after }, windows);
      ids.push(...page.items.map((item) => item.id));
      if (!page.next) return ids;
      const [at, id] = Buffer.from(page.next, 'base64url').toString('utf8').split('|');
      after = { at: at!, id: id! };
    }
    throw new Error('too many pages');
  }

  it.each(['common', 'middling', 'burst', 'sparse', 'once', 'tied', 'note', 'j.taylor', 'reader1'])(
    'finds the same pages for "%s" newest first as the index alone does',
    async (term) => {
      const quick = await allPages(term, WINDOWS);
      const indexed = await allPages(term, false);
      expect(quick).toEqual(indexed);
      expect(quick.length).toBeGreaterThan(0);
      // And with another view's filters: every status.
      expect(await allPages(term, WINDOWS, { status: 'all' })).toEqual(
        await allPages(term, false, { status: 'all' }),
      );
    },
  );

  it('gives a full first page from the newest rows, and the rows a rare term has from the index', async () => {
    const common = await inboxPage(database.db, query('common'), WINDOWS);
    expect(common.items).toHaveLength(PAGE_SIZE);
    expect(common.items.every((item) => item.excerpt?.includes('Common'))).toBe(true);
    const sparse = await inboxPage(database.db, query('sparse'), WINDOWS);
    // Every 40th row from the 500th to the 1,200th, less those held as spam.
    const expected = Array.from({ length: ROWS }, (_, i) => i + 1).filter(
      (n) => n >= 500 && n % 40 === 0 && n % 25 !== 3,
    );
    expect(sparse.items.map((item) => item.name)).toEqual(expected.map((n) => `Reader${n} Test`));
  });

  it('matches the text typed, punctuation included, and takes % and _ literally', async () => {
    const dotted = await allPages('j.taylor', WINDOWS);
    const plain = await allPages('jtaylor', WINDOWS);
    expect(dotted.length).toBeGreaterThan(0);
    expect(plain.length).toBeGreaterThan(0);
    expect(dotted.filter((id) => plain.includes(id))).toEqual([]);
    for (const q of ['%', '_', '@example', '.']) {
      expect(await allPages(q, WINDOWS)).toEqual(await allPages(q, false));
    }
    expect(await allPages('%', WINDOWS)).toEqual([]);
  });
});
