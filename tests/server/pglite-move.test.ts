/**
 * A DATA_DIR written by release 09db5cd, the last on PGlite, is served by this release with every
 * row intact (decision 052): its `pglite` folder (tests/server/fixtures/pglite-release-09db5cd,
 * made by that release's own code, HOW.md there) is moved into the embedded PostgreSQL at the
 * first start, and the old folder is kept, untouched. A move killed halfway starts over.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR, openDatabase } from '../../src/server/kit/db/client';
import { startEmbeddedPostgres } from '../../src/server/kit/db/embedded-postgres';
import { until } from './forms-support';
import { makeTestApp } from './helpers';

const FIXTURE = join(import.meta.dirname, 'fixtures', 'pglite-release-09db5cd');
const ROW_COUNTS = JSON.parse(readFileSync(join(FIXTURE, 'row-counts.json'), 'utf8')) as Record<
  string,
  number
>;
const folders: string[] = [];

/** A new DATA_DIR holding the release's `pglite` folder. */
function releaseDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pglite-move-'));
  folders.push(dir);
  execFileSync('tar', ['-xJf', join(FIXTURE, 'pglite.tar.xz'), '-C', dir]);
  return dir;
}

/** Every file of a folder with its content's hash: equal only if nothing in it changed. */
function treeDigest(dir: string): string {
  const hash = createHash('sha256');
  const walk = (at: string) => {
    for (const name of readdirSync(at).sort()) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else hash.update(relative(dir, path)).update('\0').update(readFileSync(path)).update('\0');
    }
  };
  walk(dir);
  return hash.digest('hex');
}

type Query = (text: string) => Promise<{ rows: Record<string, unknown>[] }>;

/** Every row of every table (as PostgreSQL writes it as JSON, sorted), and each sequence's place. */
async function contents(query: Query) {
  const tables = (
    await query(`select n.nspname || '.' || c.relname as name
                 from pg_class c join pg_namespace n on n.oid = c.relnamespace
                 where c.relkind in ('r', 'p') and n.nspname in ('public', 'drizzle') order by 1`)
  ).rows.map((r) => String(r.name));
  const rows: Record<string, string[]> = {};
  for (const table of tables) {
    const [schema, name] = table.split('.');
    const result = await query(`select row_to_json(t)::text as row from "${schema}"."${name}" t`);
    rows[table] = result.rows.map((r) => String(r.row)).sort();
  }
  const sequences = Object.fromEntries(
    (
      await query(`select schemaname || '.' || sequencename as name, last_value::text as last
                   from pg_sequences where schemaname in ('public', 'drizzle')`)
    ).rows.map((r) => [String(r.name), r.last]),
  );
  return { rows, sequences };
}

/** What the release's folder holds, read from a copy of it brought to the current schema. */
async function releaseContents() {
  const copy = releaseDataDir();
  const db = await PGlite.create(join(copy, 'pglite'), { extensions: { pg_trgm, btree_gin } });
  try {
    await migrate(drizzle(db), { migrationsFolder: MIGRATIONS_DIR });
    return await contents((text) => db.query(text) as ReturnType<Query>);
  } finally {
    await db.close();
  }
}

/** What the embedded PostgreSQL of `dataDir` holds. */
async function movedContents(dataDir: string) {
  const database = await startEmbeddedPostgres(dataDir);
  const client = new pg.Client(database.connection());
  await client.connect();
  try {
    return await contents((text) => client.query(text));
  } finally {
    await client.end();
    await database.stop();
  }
}

let expected: Awaited<ReturnType<typeof releaseContents>>;

beforeAll(async () => {
  expected = await releaseContents();
}, 120_000);

afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

describe('a DATA_DIR of the PGlite release', () => {
  it('holds every kind of row the console shows (the fixture is what it says)', () => {
    const counts = Object.fromEntries(Object.entries(expected.rows).map(([t, rows]) => [t, rows.length]));
    // Brought to the current schema: the release's migrations and every one since.
    const migrations = (
      JSON.parse(readFileSync(join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')) as {
        entries: unknown[];
      }
    ).entries.length;
    // Tables made by migrations since the fixture's release are there, empty.
    const since = Object.keys(counts).filter((table) => !(table in ROW_COUNTS));
    expect(Object.fromEntries(since.map((table) => [table, counts[table]]))).toEqual(
      Object.fromEntries(since.map((table) => [table, 0])),
    );
    const fixtureTables = Object.fromEntries(Object.keys(ROW_COUNTS).map((table) => [table, counts[table]]));
    expect(fixtureTables).toEqual({ ...ROW_COUNTS, 'drizzle.__drizzle_migrations': migrations });
    expect(migrations).toBeGreaterThanOrEqual(ROW_COUNTS['drizzle.__drizzle_migrations']!);
    // Leads, bookings, subscribers, articles, business details, masterclasses, visits, audit rows.
    for (const table of [
      'public.submissions',
      'public.bookings',
      'public.booking_status_events',
      'public.newsletter_subscribers',
      'public.newsletter_issues',
      'public.articles',
      'public.article_cover_files',
      'public.business_details',
      'public.events',
      'public.event_registrations',
      'public.analytics_daily',
      'public.audit_log',
      'public.outbox',
      'public.lead_notes',
    ]) {
      expect(counts[table], table).toBeGreaterThan(0);
    }
  });

  it('is moved into PostgreSQL at the first start, every row intact, the old folder kept untouched', async () => {
    const dataDir = releaseDataDir();
    const before = treeDigest(join(dataDir, 'pglite'));
    const logged: string[] = [];
    const database = await openDatabase({ dataDir, log: (message) => logged.push(message) });
    await database.close();
    expect(logged).toContain('moving the PGlite database of an earlier release into PostgreSQL');
    const day = new Date().toISOString().slice(0, 10);
    expect(existsSync(join(dataDir, 'pglite'))).toBe(false);
    expect(existsSync(join(dataDir, '.pglite-import'))).toBe(false);
    const kept = join(dataDir, `pglite-moved-${day}`);
    expect(treeDigest(kept)).toBe(before);

    const moved = await movedContents(dataDir);
    for (const [table, rows] of Object.entries(expected.rows)) expect(moved.rows[table], table).toEqual(rows);
    expect(Object.keys(moved.rows).sort()).toEqual(Object.keys(expected.rows).sort());
    expect(moved.sequences).toEqual(expected.sequences);

    // Served by this release: its console reads the moved rows, and new rows take new numbers.
    const { app } = await makeTestApp({ DATA_DIR: dataDir, DATABASE_URL: '' });
    try {
      const ready = await app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.json()).toEqual({ status: 'ready', database: 'embedded' });
    } finally {
      await app.close();
    }
    // A second start finds nothing to move.
    const again = await openDatabase({ dataDir, log: (message) => logged.push(message) });
    await again.close();
    expect(logged.filter((m) => m.startsWith('moving the PGlite')).length).toBe(1);
  }, 300_000);

  it('moves again from the start after a move killed halfway, and never serves half of it', async () => {
    const dataDir = releaseDataDir();
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `const { openDatabase } = await import(${JSON.stringify(join(process.cwd(), 'src/server/kit/db/client.ts'))});
         await openDatabase({ dataDir: process.argv[1], log: (m) => console.log(m) });
         console.log('opened');`,
        dataDir,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => (out += String(chunk)));
    await until(() => out.includes('moving the PGlite database'), 60_000);
    // Halfway: the copy is made, the new database being filled.
    await until(() => existsSync(join(dataDir, '.pglite-import')), 60_000);
    await new Promise((r) => setTimeout(r, 1500));
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    expect(out).not.toContain('opened');
    // Not marked done: the release's folder is still where it was.
    expect(existsSync(join(dataDir, 'pglite', 'PG_VERSION'))).toBe(true);

    const database = await openDatabase({ dataDir });
    await database.close();
    expect(existsSync(join(dataDir, 'pglite'))).toBe(false);
    const moved = await movedContents(dataDir);
    for (const [table, rows] of Object.entries(expected.rows)) expect(moved.rows[table], table).toEqual(rows);
  }, 300_000);
});
