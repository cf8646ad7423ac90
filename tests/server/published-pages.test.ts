/**
 * The published pages (issue #25, decision 047), on PostgreSQL: the repository's
 * articles are imported once and served as the build served them; an article published in the
 * database becomes its page, a line of the list, a card of Resources, an entry of the feed and of
 * the sitemap, without a restart, with the headers of a prerendered page (CSP hashes of its
 * inline scripts, ETag, brotli); the owner's raw HTML runs nothing; an unpublished one is not
 * found; a changed slug answers 301; a scheduled one goes live on time and after a restart; and
 * a second instance serves what the first published.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtPublicUrl } from '../../src/server/root/site/publisher';
import { ukLocalInput } from '../../src/lib/uk-dates';
import { logCapture, makeFormsApp, testDrivers, until, type FormsTestApp } from './forms-support';
import { asOwner, signInOwner } from './owner-session';

const drivers = await testDrivers('published_pages');
const TAX_ARTICLE = '/resources/articles/bitcoin-and-uk-tax-for-higher-rate-taxpayers';
/** The address the build was made for, which its pages' canonical links carry: the feed's and the sitemap's too. */
const BUILD = process.env.BUILD_DIR ?? 'build';
const SITE = builtPublicUrl(BUILD)!;

async function get(t: FormsTestApp, url: string, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'GET', url, headers });
}

/** Writes an article row as the console would leave it, and raises the publication counter. */
async function putArticle(
  t: FormsTestApp,
  fields: { slug: string; title: string; body: string; status: string; publishAt?: string; date?: string },
): Promise<string> {
  const id = randomUUID();
  const publishAt = fields.publishAt ? `'${fields.publishAt}'` : 'null';
  await t.query(
    `insert into articles (id, slug, title, summary, body, date, status, publish_at, published_at)
     values ('${id}', '${fields.slug}', '${fields.title}', 'A summary of ${fields.slug}.', '${fields.body.replace(/'/g, "''")}',
             '${fields.date ?? '2026-11-20'}', '${fields.status}', ${publishAt},
             ${fields.status === 'published' ? 'now()' : 'null'})`,
  );
  await t.query(`update site_publication set version = version + 1, changed_at = now() where id = 1`);
  return id;
}

async function raise(t: FormsTestApp) {
  await t.query(`update site_publication set version = version + 1, changed_at = now() where id = 1`);
}

describe.each(drivers)('published pages on $name', (driver) => {
  let t: FormsTestApp;
  let drop: () => Promise<void>;
  let env: Record<string, string>;
  let logs: ReturnType<typeof logCapture>;

  beforeAll(async () => {
    const made = await driver.env();
    drop = made.drop;
    env = { ...made.env, PUBLISH_POLL_MS: '100' };
    logs = logCapture();
    t = await makeFormsApp(env, { logger: logs.logger });
  });

  afterAll(async () => {
    await t?.app.close();
    await drop?.();
  });

  it('imports the repository articles once and serves them, with their tax year', async () => {
    const rows = await t.query<{ slug: string; status: string; tax_year: string | null }>(
      `select slug, status, tax_year from articles order by slug`,
    );
    expect(rows.map((r) => r.slug)).toContain('bitcoin-and-uk-tax-for-higher-rate-taxpayers');
    expect(rows.every((r) => r.status === 'published')).toBe(true);
    expect(rows.find((r) => r.slug.startsWith('bitcoin-and-uk-tax'))?.tax_year).toBe('2025-26');
    const revisions = await t.query<{ n: number }>(`select count(*)::int as n from article_revisions`);
    expect(revisions[0]?.n).toBe(rows.length);
    const res = await get(t, TAX_ARTICLE);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Figures for the 2025-26 tax year');
    expect(t.app.services.publisher.servedVersion()).toBeGreaterThan(0);
    // Nothing was rendered at start (decision 049): the page served is the build's own file.
    const built = readFileSync(join(BUILD, 'client', TAX_ARTICLE.slice(1), 'index.html'), 'utf8');
    expect(res.body).toBe(built);
    expect(logs.lines.some((line) => line.includes('nothing rendered'))).toBe(true);
    expect(logs.lines.some((line) => line.includes('published pages served'))).toBe(false);
  });

  it('serves a newly published article on its page, the list, Resources, the feed and the sitemap', async () => {
    await putArticle(t, {
      slug: 'pensions-and-bitcoin',
      title: 'Pensions and Bitcoin',
      body: 'Some **bold** words about pensions.\n\n<script>alert(1)</script>\n\n<img src=x onerror="alert(2)">\n\n[bad](javascript:alert(3))',
      status: 'published',
      date: '2026-11-25',
    });
    await t.app.services.publisher.republish();

    const page = await get(t, '/resources/articles/pensions-and-bitcoin');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('<strong>bold</strong>');
    // The owner's raw HTML is text, never markup: no script of theirs, no handler, no javascript: link.
    expect(page.body).not.toContain('<script>alert(1)</script>');
    expect(page.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page.body).not.toMatch(/<img[^>]*onerror/);
    expect(page.body).not.toContain('href="javascript:');
    // Headers as a prerendered page's: the CSP names exactly its own inline scripts.
    const csp = String(page.headers['content-security-policy']);
    const inline = [...page.body.matchAll(/<script(?![^>]*\bsrc=)(?![^>]*application\/ld\+json)[^>]*>/g)];
    expect(inline.length).toBeGreaterThan(0);
    expect(csp.match(/'sha256-/g)?.length).toBe(inline.length);
    expect(page.headers.etag).toMatch(/^"[\w-]+"$/);
    expect(page.headers['cache-control']).toBe('no-cache');
    const again = await get(t, '/resources/articles/pensions-and-bitcoin', { 'if-none-match': String(page.headers.etag) });
    expect(again.statusCode).toBe(304);
    const br = await get(t, '/resources/articles/pensions-and-bitcoin', { 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    // Its client-side data, for a link followed inside the app.
    const data = await get(t, '/resources/articles/pensions-and-bitcoin.data');
    expect(data.statusCode).toBe(200);
    expect(data.body).toContain('Pensions and Bitcoin');

    expect((await get(t, '/resources/articles')).body).toContain('Pensions and Bitcoin');
    // The newest article leads the Resources page's three.
    expect((await get(t, '/resources')).body).toContain('Pensions and Bitcoin');
    const feed = await get(t, '/feed.xml');
    expect(feed.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
    expect(SITE).toMatch(/^https?:\/\//);
    expect(feed.body).toContain(`<id>${SITE}/resources/articles/pensions-and-bitcoin</id>`);
    expect((await get(t, '/sitemap.xml')).body).toContain(
      `<loc>${SITE}/resources/articles/pensions-and-bitcoin</loc>`,
    );
  });

  it('answers an unpublished article as not found, and a changed slug with a permanent redirect', async () => {
    const id = await putArticle(t, { slug: 'soon-gone', title: 'Soon Gone', body: 'Text.', status: 'published' });
    await t.app.services.publisher.republish();
    expect((await get(t, '/resources/articles/soon-gone')).statusCode).toBe(200);

    await t.query(`update articles set slug = 'still-here' where id = '${id}'`);
    await t.query(`insert into article_redirects (from_slug, article_id) values ('soon-gone', '${id}')`);
    await raise(t);
    await t.app.services.publisher.republish();
    const moved = await get(t, '/resources/articles/soon-gone');
    expect(moved.statusCode).toBe(301);
    expect(moved.headers.location).toBe('/resources/articles/still-here');
    expect((await get(t, '/resources/articles/still-here')).statusCode).toBe(200);

    await t.query(`update articles set status = 'unpublished' where id = '${id}'`);
    await raise(t);
    await t.app.services.publisher.republish();
    expect((await get(t, '/resources/articles/still-here')).statusCode).toBe(404);
    expect((await get(t, '/resources/articles/soon-gone')).statusCode).toBe(404);
    expect((await get(t, '/resources/articles')).body).not.toContain('Still Here');

    // A repository article the owner unpublished hides the build's prerendered page too.
    await t.query(`update articles set status = 'unpublished' where slug = 'sizing-a-bitcoin-allocation'`);
    await raise(t);
    await t.app.services.publisher.republish();
    expect((await get(t, '/resources/articles/sizing-a-bitcoin-allocation')).statusCode).toBe(404);
    expect((await get(t, '/resources/articles/sizing-a-bitcoin-allocation.data')).statusCode).toBe(404);
    // (Other articles still link to it in their text; its own entry is gone.)
    expect((await get(t, '/feed.xml')).body).not.toContain(
      `<id>${SITE}/resources/articles/sizing-a-bitcoin-allocation</id>`,
    );
  });

  it('publishes a scheduled article on time, and one that fell due while stopped at the next start', async () => {
    await putArticle(t, {
      slug: 'on-time',
      title: 'On Time',
      body: 'Text.',
      status: 'scheduled',
      publishAt: new Date(Date.now() + 60 * 60_000).toISOString(),
    });
    await t.app.services.publishingChores.run();
    expect((await get(t, '/resources/articles/on-time')).statusCode).toBe(404);
    await t.query(`update articles set publish_at = now() - interval '1 second' where slug = 'on-time'`);
    await t.app.services.publishingChores.run();
    expect((await get(t, '/resources/articles/on-time')).statusCode).toBe(200);

    // Due while the server was down: live as soon as it starts again.
    await putArticle(t, {
      slug: 'after-restart',
      title: 'After Restart',
      body: 'Text.',
      status: 'scheduled',
      publishAt: new Date(Date.now() + 60 * 60_000).toISOString(),
    });
    await t.app.close();
    await t.query(`update articles set publish_at = now() - interval '1 minute' where slug = 'after-restart'`).catch(
      () => undefined,
    );
    t = await makeFormsApp(env, { dataDir: t.dataDir });
    await t.query(`update articles set publish_at = now() - interval '1 minute' where slug = 'after-restart'`);
    await t.app.services.publishingChores.run();
    expect((await get(t, '/resources/articles/after-restart')).statusCode).toBe(200);
    const status = await t.query<{ status: string }>(`select status from articles where slug = 'after-restart'`);
    expect(status[0]?.status).toBe('published');
    // Imported once only: a second start imports nothing again.
    const imported = await t.query<{ n: number }>(`select count(*)::int as n from article_revisions where saved_by = 'import'`);
    expect(imported[0]?.n).toBe(3);
  });

  it('answers the published pages and redirects over a real connection, by the fast path', async () => {
    expect(t.config.staticFastPath).toBe(true);
    const id = await putArticle(t, { slug: 'over-the-wire', title: 'Over The Wire', body: 'Text.', status: 'published' });
    await t.query(`insert into article_redirects (from_slug, article_id) values ('old-wire', '${id}')`);
    await raise(t);
    await t.app.services.publisher.republish();
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const page = await fetch(`${address}/resources/articles/over-the-wire`, { headers: { 'accept-encoding': 'gzip' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-encoding')).toBe('gzip');
    expect(await page.text()).toContain('Over The Wire');
    const moved = await fetch(`${address}/resources/articles/old-wire`, { redirect: 'manual' });
    expect(moved.status).toBe(301);
    expect(moved.headers.get('location')).toBe('/resources/articles/over-the-wire');
    const gone = await fetch(`${address}/resources/articles/never-was`);
    expect(gone.status).toBe(404);
    expect(gone.headers.get('content-type')).toBe('text/html; charset=utf-8');
  });

  it('lists every published masterclass and gives each its own page; a draft has none', async () => {
    const event = async (slug: string, title: string, status: string, startsInDays: number) => {
      const id = randomUUID();
      await t.query(
        `insert into events (id, slug, title, summary, starts_at, ends_at, mode, capacity, status, published_at)
         values ('${id}', '${slug}', '${title}', 'An evening on ${title}.', now() + interval '${startsInDays} days',
                 now() + interval '${startsInDays} days 2 hours', 'online', 20, '${status}', now())`,
      );
      return id;
    };
    const first = await event('first-class-aaaaaaaa', 'First Class', 'published', 10);
    await event('second-class-bbbbbbbb', 'Second Class', 'published', 20);
    await event('draft-class-cccccccc', 'Draft Class', 'draft', 30);
    await event('old-class-dddddddd', 'Old Class', 'published', -30);
    await raise(t);
    await t.app.services.publisher.republish();

    const list = await get(t, '/masterclasses');
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain('href="/masterclasses/first-class-aaaaaaaa"');
    expect(list.body).toContain('href="/masterclasses/second-class-bbbbbbbb"');
    expect(list.body).not.toContain('Draft Class');
    // The past one is listed below, without a link to register.
    expect(list.body).toContain('Past masterclasses');
    expect(list.body).toContain('Old Class');
    expect(list.body).not.toContain('href="/masterclasses/old-class-dddddddd"');

    const page = await get(t, '/masterclasses/second-class-bbbbbbbb');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Second Class');
    const jsonLd = [...page.body.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
      (m) => JSON.parse(m[1]!) as Record<string, unknown>,
    );
    expect(jsonLd).toContainEqual(expect.objectContaining({ '@type': 'Event', name: 'Second Class' }));
    expect((await get(t, '/masterclasses/draft-class-cccccccc')).statusCode).toBe(404);
    expect((await get(t, '/masterclasses/no-such-class')).statusCode).toBe(404);

    // Its live state, asked after hydration: places left, registration open; never a draft.
    const live = await get(t, `/api/events/${first}`);
    expect(live.statusCode).toBe(200);
    expect(live.json()).toMatchObject({ event: { id: first, registration: { open: true, placesLeft: 20 } } });
    expect(JSON.stringify(live.json())).not.toContain('join');
    const draftId = (await t.query<{ id: string }>(`select id from events where slug = 'draft-class-cccccccc'`))[0]!.id;
    expect((await get(t, `/api/events/${draftId}`)).statusCode).toBe(404);
    expect((await get(t, '/api/events/not-an-id')).statusCode).toBe(404);
    // The calendar file leads to the masterclass's own page.
    const ics = (await get(t, `/api/events/${first}/calendar.ics`)).body.replace(/\r\n[ \t]/g, '');
    expect(ics).toContain('/masterclasses/first-class-aaaaaaaa');

    // Resources keeps the next one's card and links to them all; the sitemap names each.
    expect((await get(t, '/resources')).body).toContain('See all 2 upcoming masterclasses');
    const sitemap = (await get(t, '/sitemap.xml')).body;
    expect(sitemap).toContain(`<loc>${SITE}/masterclasses/first-class-aaaaaaaa</loc>`);
    expect(sitemap).not.toContain('draft-class');
  });

  it('moves a masterclass to the past once it ends, with nothing else changed', async () => {
    await t.query(
      `insert into events (id, slug, title, summary, starts_at, ends_at, mode, capacity, status, published_at)
       values ('${randomUUID()}', 'ending-class-eeeeeeee', 'Ending Class', 'An evening that ends.', now() - interval '1 hour',
               now() + interval '3 seconds', 'online', 20, 'published', now())`,
    );
    await raise(t);
    await t.app.services.publisher.republish();
    expect((await get(t, '/masterclasses')).body).toContain('href="/masterclasses/ending-class-eeeeeeee"');
    expect(t.app.services.publisher.stale(Date.now())).toBe(false);
    // Once it has ended the chores (every 5 s) render the pages again: listed below, as past.
    await until(
      async () => !(await get(t, '/masterclasses')).body.includes('href="/masterclasses/ending-class-eeeeeeee"'),
      60_000,
    );
    expect((await get(t, '/masterclasses')).body).toContain('Ending Class');
    expect(t.app.services.publisher.stale(Date.now())).toBe(false);
  });

  it('renders a masterclass the owner publishes in the console, and its change, without a restart', async () => {
    const owner = asOwner(t.app, await signInOwner(t.app));
    const start = new Date(Date.now() + 40 * 24 * 3_600_000);
    const created = await owner('POST', '/api/owner/events', {
      body: {
        title: 'Console Class',
        summary: 'Published from the console.',
        startsAt: ukLocalInput(start),
        endsAt: ukLocalInput(new Date(start.getTime() + 90 * 60_000)),
        mode: 'online',
        place: '',
        joinUrl: 'https://meet.example.net/console-class',
        capacity: 12,
        registrationOpensAt: '',
        registrationClosesAt: '',
      },
    });
    expect(created.statusCode).toBe(200);
    const { id } = created.json<{ id: string }>();
    const [row] = await t.query<{ slug: string }>(`select slug from events where id = '${id}'`);
    expect(row!.slug).toBe(`console-class-${id.slice(0, 8)}`);
    const path = `/masterclasses/${row!.slug}`;
    // A draft is on no page.
    expect((await get(t, path)).statusCode).toBe(404);
    expect((await owner('POST', `/api/owner/events/${id}/publish`, { body: {} })).statusCode).toBe(200);
    await until(async () => (await get(t, path)).statusCode === 200);
    expect((await get(t, path)).body).not.toContain('meet.example.net');
    expect((await owner('POST', `/api/owner/events/${id}/cancel`, { body: {} })).statusCode).toBe(200);
    await until(async () => (await get(t, '/masterclasses')).body.includes('Cancelled'));
  });

  it.runIf(driver.name === 'PostgreSQL')('serves on a second instance what the first published', async () => {
    const second = await makeFormsApp(env);
    try {
      expect((await get(second, '/resources/articles/second-instance')).statusCode).toBe(404);
      await putArticle(t, { slug: 'second-instance', title: 'Second Instance', body: 'Text.', status: 'published' });
      await t.app.services.publisher.republish();
      const started = Date.now();
      await until(async () => (await get(second, '/resources/articles/second-instance')).statusCode === 200, 10_000);
      // The counter is looked at every 100 ms here; the render itself takes the rest.
      expect(Date.now() - started).toBeLessThan(10_000);
      expect((await get(second, '/resources/articles')).body).toContain('Second Instance');
    } finally {
      await second.app.close();
    }
  });
});
