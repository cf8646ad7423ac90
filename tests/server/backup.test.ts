/**
 * Backups and restores (decision 057), on PostgreSQL:
 * - a backup holds every table's rows in one snapshot, with a manifest of checksums and counts,
 *   and a restore into a new database gives every table back with the same content;
 * - a damaged backup is refused with a sentence naming the part, and nothing is made;
 * - an encrypted backup cannot be restored without its key, and is restored with it;
 * - a restore never writes over an existing database; a backup of a newer release is refused.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../../src/server/kit/db/client';
import { BackupDamaged, readManifest, verifyBackup } from '../../src/server/kit/backup/manifest';
import { listBackups, takeBackup } from '../../src/server/kit/backup/take';
import { dropDatabase, restoreBackup, RestoreRefused } from '../../src/server/kit/backup/restore';
import { databaseUrl, TEST_DATABASE_URL } from './database-server';
import { bodies, createTestDatabase, makeFormsApp, type FormsTestApp } from './forms-support';

const folders: string[] = [];
const tempDir = (label: string) => {
  const dir = mkdtempSync(join(tmpdir(), `${label}-`));
  folders.push(dir);
  return dir;
};
const restored: string[] = [];
const restoredName = () => {
  const name = `restored_${process.pid}_${restored.length}_${Date.now()}`;
  restored.push(name);
  return name;
};
const admin = { connectionString: TEST_DATABASE_URL };

/** Every table of a database with its row count and a digest of its content. */
async function contents(url: string): Promise<Record<string, string>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ t: string }>(
      `select format('%I.%I', n.nspname, c.relname) as t from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where c.relkind = 'r' and n.nspname in ('public', 'drizzle') order by 1`,
    );
    const out: Record<string, string> = {};
    for (const { t } of rows) {
      const r = await client.query<{ n: string; d: string | null }>(
        `select count(*)::text as n, md5(string_agg(x::text, '|' order by x::text)) as d from ${t} x`,
      );
      out[t] = `${r.rows[0]!.n}:${r.rows[0]!.d ?? ''}`;
    }
    return out;
  } finally {
    await client.end();
  }
}

/** Every index of the site's schemas, as PostgreSQL would create it. */
async function indexes(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ d: string }>(
      `select indexdef as d from pg_indexes where schemaname in ('public', 'drizzle') order by 1`,
    );
    return rows.map((r) => r.d);
  } finally {
    await client.end();
  }
}

describe('backups and restores on PostgreSQL', () => {
  let t: FormsTestApp;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let backupsDir: string;
  const take = (over: Partial<Parameters<typeof takeBackup>[0]> = {}) =>
    takeBackup({
      connection: { connectionString: db.url },
      driver: 'postgres',
      backupsDir,
      dataDir: t.dataDir,
      reason: 'on demand',
      release: { version: '1.0.0' },
      migrationsFolder: MIGRATIONS_DIR,
      ...over,
    });

  beforeAll(async () => {
    db = await createTestDatabase('backup');
    t = await makeFormsApp({ DATABASE_URL: db.url });
    for (let i = 0; i < 3; i++) {
      const res = await t.post(
        bodies.contact({ email: `person${i}@example.org`, message: `Line one\tand a tab\\ backslash ${i}` }),
      );
      expect(res.statusCode).toBe(200);
    }
    backupsDir = tempDir('backups');
    // The database stays as the forms left it: no e-mail is sent while its copies are compared.
    await t.app.close();
  });
  afterAll(async () => {
    await db?.drop();
    for (const name of restored) await dropDatabase(admin, name);
    for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  });

  it('backs up every table in one snapshot and restores every row into a new database', async () => {
    const { dir, manifest } = await take();
    expect(listBackups(backupsDir)).toEqual([manifest.name]);
    expect(readdirSync(backupsDir)).toEqual([manifest.name]);
    const submissions = manifest.tables.find((table) => table.name === 'submissions')!;
    expect(submissions.rows).toBe(3);
    expect(manifest.migrations.length).toBeGreaterThan(20);
    expect(manifest.tables.some((table) => table.schema === 'drizzle')).toBe(true);
    expect(await verifyBackup(dir)).toEqual(manifest);

    const name = restoredName();
    const result = await restoreBackup({
      backupDir: dir,
      admin,
      target: { connectionString: databaseUrl(name), database: name },
      migrationsFolder: MIGRATIONS_DIR,
    });
    expect(result.counts.every((c) => c.expected === c.found)).toBe(true);
    expect(await contents(databaseUrl(name))).toEqual(await contents(db.url));
    // Every index is there again (those the restore made after the rows included).
    expect(await indexes(databaseUrl(name))).toEqual(await indexes(db.url));
    // The restored database takes new rows after the restored ones.
    const client = new pg.Client({ connectionString: databaseUrl(name) });
    await client.connect();
    try {
      const before = await client.query<{ max: string }>('select max(id)::text as max from audit_log');
      await client.query(`insert into audit_log (actor, action) values ('system', 'test.after-restore')`);
      const after = await client.query<{ max: string }>('select max(id)::text as max from audit_log');
      expect(Number(after.rows[0]!.max)).toBeGreaterThan(Number(before.rows[0]!.max ?? 0));
    } finally {
      await client.end();
    }
  });

  it('refuses a damaged backup, naming the part, and makes no database', async () => {
    const { dir } = await take({ now: new Date(Date.now() + 1000) });
    const copy = join(tempDir('damaged'), 'copy');
    cpSync(dir, copy, { recursive: true });
    const part = join(copy, 'tables', 'public.submissions.copy.gz');
    const bytes = readFileSync(part);
    const middle = bytes.length >> 1;
    bytes[middle] = (bytes[middle] ?? 0) ^ 0xff;
    writeFileSync(part, bytes);
    await expect(verifyBackup(copy)).rejects.toThrow(
      /damaged: tables\/public\.submissions\.copy\.gz \(the table public\.submissions\) does not match its checksum/,
    );
    const name = restoredName();
    await expect(
      restoreBackup({
        backupDir: copy,
        admin,
        target: { connectionString: databaseUrl(name), database: name },
        migrationsFolder: MIGRATIONS_DIR,
      }),
    ).rejects.toBeInstanceOf(BackupDamaged);
    const client = new pg.Client(admin);
    await client.connect();
    try {
      expect((await client.query('select 1 from pg_database where datname = $1', [name])).rowCount).toBe(0);
    } finally {
      await client.end();
    }
    // A missing part, and a manifest that is not one.
    rmSync(join(copy, 'tables', 'public.audit_log.copy.gz'));
    await expect(verifyBackup(copy)).rejects.toThrow(
      /public\.audit_log\.copy\.gz \(the table public\.audit_log\) is missing/,
    );
    // A manifest naming a table outside the site's schemas is no manifest of ours.
    const manifest = readManifest(dir);
    manifest.tables[0]!.schema = 'pg_catalog' as 'public';
    writeFileSync(join(copy, 'manifest.json'), JSON.stringify(manifest));
    await expect(verifyBackup(copy)).rejects.toThrow(/manifest of the backup copy is damaged/);
    writeFileSync(join(copy, 'manifest.json'), '{"format":1,"tables":[{"file":"../../etc/passwd"}]}');
    await expect(verifyBackup(copy)).rejects.toThrow(/manifest of the backup copy is damaged/);
  });

  it('encrypts to the owner key: refused without the key, restored with it', async () => {
    const { generateIdentity, identityToRecipient } = await import('age-encryption');
    const identity = await generateIdentity();
    const recipient = await identityToRecipient(identity);
    const { dir, manifest } = await take({ recipient, now: new Date(Date.now() + 2000) });
    expect(manifest.encryptedTo).toBe(recipient);
    // The stored part is not gzip (it starts with age's header).
    expect(readFileSync(join(dir, manifest.tables[0]!.file)).subarray(0, 21).toString()).toBe(
      'age-encryption.org/v1',
    );
    const name = restoredName();
    const target = { connectionString: databaseUrl(name), database: name };
    await expect(
      restoreBackup({ backupDir: dir, admin, target, migrationsFolder: MIGRATIONS_DIR }),
    ).rejects.toThrow(RestoreRefused);
    const result = await restoreBackup({
      backupDir: dir,
      admin,
      target,
      migrationsFolder: MIGRATIONS_DIR,
      identity,
    });
    expect(result.counts.find((c) => c.table === 'public.submissions')).toEqual({
      table: 'public.submissions',
      expected: 3,
      found: 3,
    });
  });

  it('never restores over a database, nor a backup of a newer release', async () => {
    const { dir } = await take({ now: new Date(Date.now() + 3000) });
    const existing = db.url.split('/').pop()!;
    await expect(
      restoreBackup({
        backupDir: dir,
        admin,
        target: { connectionString: db.url, database: existing },
        migrationsFolder: MIGRATIONS_DIR,
      }),
    ).rejects.toThrow(/exists already: a restore never writes over a database/);
    expect((await contents(db.url))['public.submissions']).toMatch(/^3:/);

    const newer = join(tempDir('newer'), 'copy');
    cpSync(dir, newer, { recursive: true });
    const manifest = readManifest(newer);
    manifest.migrations.push({ tag: '9999_from_the_future', when: Date.now() + 1e9 });
    writeFileSync(join(newer, 'manifest.json'), JSON.stringify(manifest));
    const name = restoredName();
    await expect(
      restoreBackup({
        backupDir: newer,
        admin,
        target: { connectionString: databaseUrl(name), database: name },
        migrationsFolder: MIGRATIONS_DIR,
      }),
    ).rejects.toThrow(/taken by a newer release .* no migration 9999_from_the_future/);
  });
});
