/**
 * Upgrades that cannot half-migrate (decision 056), on PostgreSQL:
 * - a migration made to fail leaves the database exactly as it was (the one before it, which
 *   would have succeeded, is not kept either), and the start is refused with a sentence naming
 *   the migration, its error and the way back;
 * - a database migrated by a newer release is refused, and nothing is run on it;
 * - two instances starting together on a new database migrate it once;
 * - /readyz says not ready when the database is not at this release's migrations.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR, openDatabase } from '../../src/server/kit/db/client';
import { ConfigError } from '../../src/server/kit/data-dir-files';
import { createTestDatabase } from './databases';
import { listBackups, takeBackup } from '../../src/server/kit/backup/take';
import { verifyBackup } from '../../src/server/kit/backup/manifest';
import { makeFormsApp } from './forms-support';

type Journal = {
  entries: { idx: number; version: string; when: number; tag: string; breakpoints: boolean }[];
};

const folders: string[] = [];
/** A copy of the project's migrations, changed by `change` (its journal and files). */
function migrationsCopy(change: (journal: Journal, dir: string) => void): string {
  const dir = mkdtempSync(join(tmpdir(), 'migrations-'));
  folders.push(dir);
  cpSync(MIGRATIONS_DIR, dir, { recursive: true });
  const journalFile = join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as Journal;
  change(journal, dir);
  writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
}

/** Adds a migration after the last: its tag and its SQL. */
function withMigration(journal: Journal, dir: string, tag: string, sql: string) {
  const last = journal.entries.at(-1)!;
  journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 1000, tag });
  writeFileSync(join(dir, `${tag}.sql`), sql);
}

async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

const applied = (url: string) =>
  withClient(url, async (c) =>
    Number((await c.query('select count(*) from drizzle.__drizzle_migrations')).rows[0].count),
  );
const tableExists = (url: string, name: string) =>
  withClient(
    url,
    async (c) => (await c.query('select to_regclass($1) is not null as e', [name])).rows[0].e as boolean,
  );

/** The sentence a start on `url` with the migrations of `folder` is refused with. */
async function refusal(url: string, folder: string): Promise<string> {
  const error = await openDatabase({
    databaseUrl: url,
    dataDir: tmpdir(),
    migrationsFolder: folder,
    poolSize: 2,
  }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return (error as Error).message;
}

afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

describe('a start whose migrations cannot all run', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    db = await createTestDatabase('migrations');
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('leaves the database as it was when a migration fails, and names it and the way back', async () => {
    const before = await applied(db.url);
    const folder = migrationsCopy((journal, dir) => {
      withMigration(journal, dir, '9998_would_pass', 'CREATE TABLE "upgrade_probe" ("id" integer);');
      withMigration(
        journal,
        dir,
        '9999_fails',
        'ALTER TABLE "submissions" ADD COLUMN "probe" integer;--> statement-breakpoint\nSELECT 1 / 0;',
      );
    });
    const message = await refusal(db.url, folder);
    expect(message).toContain('Migration 9999_fails failed: division by zero.');
    expect(message).toContain('The database is as it was before this start');
    expect(message).toContain('Start the previous release again');
    // Nothing kept: not the failing migration's column, not the one before it.
    expect(await applied(db.url)).toBe(before);
    expect(await tableExists(db.url, 'upgrade_probe')).toBe(false);
    const columns = await withClient(db.url, async (c) =>
      (
        await c.query(`select column_name from information_schema.columns where table_name = 'submissions'`)
      ).rows.map((r: { column_name: string }) => r.column_name),
    );
    expect(columns).not.toContain('probe');

    // The release's own migrations still open it.
    const database = await openDatabase({ databaseUrl: db.url, dataDir: tmpdir(), poolSize: 2 });
    expect(await database.migrations()).toEqual({ state: 'current' });
    await database.close();
  });

  it('backs up a database with data before an upgrade migrates it, and names the backup when a migration fails', async () => {
    const backupsDir = mkdtempSync(join(tmpdir(), 'pre-upgrade-'));
    folders.push(backupsDir);
    const folder = migrationsCopy((journal, dir) => {
      withMigration(journal, dir, '9999_fails', 'SELECT 1 / 0;');
    });
    const error = await openDatabase({
      databaseUrl: db.url,
      dataDir: tmpdir(),
      migrationsFolder: folder,
      poolSize: 2,
      backupBeforeMigrating: async (connection) =>
        (
          await takeBackup({
            connection,
            driver: 'postgres',
            backupsDir,
            dataDir: backupsDir,
            reason: 'before upgrade',
            release: { version: 'test' },
            migrationsFolder: folder,
          })
        ).dir,
    }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    const [name] = listBackups(backupsDir);
    expect(name).toBeDefined();
    expect(error?.message).toContain(`A backup taken just before is in ${join(backupsDir, name!)}.`);
    const manifest = await verifyBackup(join(backupsDir, name!));
    expect(manifest.reason).toBe('before upgrade');
    expect(manifest.migrations.map((m) => m.tag)).not.toContain('9999_fails');

    // A backup that cannot be taken stops the start before anything is migrated.
    const refused = await openDatabase({
      databaseUrl: db.url,
      dataDir: tmpdir(),
      migrationsFolder: migrationsCopy((journal, dir) => {
        withMigration(journal, dir, '9999_would_pass', 'CREATE TABLE "upgrade_probe_2" ("id" integer);');
      }),
      poolSize: 2,
      backupBeforeMigrating: () => Promise.reject(new Error('no space left on device')),
    }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(refused).toBeInstanceOf(ConfigError);
    expect(refused?.message).toMatch(
      /^The backup taken before this release's migrations failed \(no space left on device\): nothing was migrated/,
    );
    expect(await tableExists(db.url, 'upgrade_probe_2')).toBe(false);
  });

  it('refuses a database migrated by a newer release, and runs nothing on it', async () => {
    const before = await applied(db.url);
    const older = migrationsCopy((journal) => {
      journal.entries.pop();
    });
    expect(await refusal(db.url, older)).toMatch(
      /^The database was migrated by a newer release than this one .*Nothing was changed\./,
    );
    expect(await applied(db.url)).toBe(before);
  });
});

describe('two instances starting together on a new database', () => {
  it('migrate it once', async () => {
    const fresh = await createTestDatabase('migrations_new');
    try {
      await withClient(fresh.url, async (c) => {
        await c.query(
          'drop schema public cascade; create schema public; drop schema if exists drizzle cascade',
        );
      });
      const [a, b] = await Promise.all([
        openDatabase({ databaseUrl: fresh.url, dataDir: tmpdir(), poolSize: 2 }),
        openDatabase({ databaseUrl: fresh.url, dataDir: tmpdir(), poolSize: 2 }),
      ]);
      const journal = JSON.parse(
        readFileSync(join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8'),
      ) as Journal;
      expect(await applied(fresh.url)).toBe(journal.entries.length);
      expect(await a.migrations()).toEqual({ state: 'current' });
      await Promise.all([a.close(), b.close()]);
    } finally {
      await fresh.drop();
    }
  });
});

describe('/readyz', () => {
  it('says not ready while the database is not at this release’s migrations', async () => {
    const t = await makeFormsApp();
    try {
      const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(200);
      // Another instance, of a newer release, migrated the database further.
      await t.query(
        `insert into drizzle.__drizzle_migrations (hash, created_at) values ('newer', 9999999999999)`,
      );
      const newer = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(newer.statusCode).toBe(503);
      expect(newer.json()).toEqual({ error: 'Not ready: the database was migrated by a newer release.' });
      await t.query(`delete from drizzle.__drizzle_migrations where hash = 'newer'`);
      expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    } finally {
      await t.app.close();
    }
  });
});
