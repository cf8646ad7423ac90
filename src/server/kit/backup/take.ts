/**
 * Taking a backup (decision 057). One folder per backup, in BACKUP_DIR:
 *
 * - every table of the site's schema and the migrations' record, read with PostgreSQL's own COPY
 *   in one read-only REPEATABLE READ transaction: one snapshot, taken while the site keeps
 *   answering (readers and writers do not wait on it), on the embedded cluster and on an external
 *   server alike, with no `pg_dump` (the embedded binaries have none);
 * - each table gzip-compressed, then, when BACKUP_AGE_RECIPIENT is set, encrypted to that age
 *   public key: the server can write backups it cannot read, and the owner's key (kept off the
 *   server) or the `age` tool opens them anywhere;
 * - the secret and DKIM key the server generated in DATA_DIR, treated the same way;
 * - the manifest (./manifest.ts): the release, the migrations, every part's size and checksum,
 *   every table's row count.
 *
 * It is written as `.partial-<name>`, every file fsynced, then read back against its manifest,
 * and only then renamed to its name: a process killed on the way (SIGKILL, power cut, full disk)
 * leaves a `.partial-` folder that no listing calls a backup, removed by the next backup.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  createReadStream,
  createWriteStream,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { Readable, Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { ReadableStream as WebReadable } from 'node:stream/web';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { DKIM_KEY_FILE, ensurePrivateDir, fsyncDir, SECRET_FILE } from '../data-dir-files';
import { releaseMigrations } from '../db/migrations';
import type { Release } from '../release';
import { BACKUP_NAME, MANIFEST_FILE, verifyBackup, type Manifest } from './manifest';

export const PARTIAL_PREFIX = '.partial-';

export type BackupReason = Manifest['reason'];

export type TakeOptions = {
  /** The database to back up. */
  connection: pg.ClientConfig;
  driver: 'embedded' | 'postgres';
  backupsDir: string;
  /** Where the server keeps its generated secret and DKIM key. */
  dataDir: string;
  reason: BackupReason;
  release: Release;
  migrationsFolder: string;
  /** An age recipient (`age1…`): every part is encrypted to it. */
  recipient?: string;
  now?: Date;
};

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The name of a backup taken at `at`. */
export function backupName(at: Date): string {
  return `backup-${at.toISOString().replace(/[:.]/g, '-')}`;
}

/** The backups in `dir` that are whole (named, with a manifest), newest first. */
export function listBackups(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((name) => BACKUP_NAME.test(name))
    .filter((name) => {
      try {
        return statSync(join(dir, name, MANIFEST_FILE)).isFile();
      } catch {
        return false;
      }
    })
    .sort()
    .reverse();
}

/** Removes what backups stopped on the way left behind (no listing names them). */
export function removePartials(dir: string): void {
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (name.startsWith(PARTIAL_PREFIX)) rmSync(join(dir, name), { recursive: true, force: true });
  }
}

/** A pass-through that hashes and counts what goes through it. */
function tap() {
  const hash = createHash('sha256');
  let bytes = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  return { stream, result: () => ({ bytes, sha256: hash.digest('hex') }) };
}

/** Encrypts a stream to an age recipient (age-encryption, decision 057). */
async function encryptTo(recipient: string, source: Readable): Promise<Readable> {
  const { Encrypter } = await import('age-encryption');
  const encrypter = new Encrypter();
  encrypter.addRecipient(recipient);
  const web = await encrypter.encrypt(Readable.toWeb(source) as ReadableStream<Uint8Array>);
  return Readable.fromWeb(web as unknown as WebReadable<Uint8Array>);
}

/** Writes `source` (gzipped, maybe encrypted) to `file`, fsynced; its size and checksum. */
async function writePart(
  source: Readable,
  file: string,
  recipient: string | undefined,
): Promise<{ bytes: number; sha256: string }> {
  const gzip = createGzip({ level: 1 });
  const compressed = source.pipe(gzip);
  source.on('error', (error) => gzip.destroy(error));
  const stored = recipient ? await encryptTo(recipient, compressed) : compressed;
  const counted = tap();
  const out = createWriteStream(file, { mode: 0o600, flags: 'wx' });
  await pipeline(stored, counted.stream, out as Writable);
  const fd = openSync(file, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return counted.result();
}

type Table = { schema: 'public' | 'drizzle'; name: string; columns: string[] };

/** The tables to back up: the site's (public) and the migrations' record, with their stored columns. */
async function tablesOf(client: pg.Client): Promise<Table[]> {
  const { rows } = await client.query<Table>(`
    select n.nspname as schema, c.relname as name,
      array(select a.attname::text from pg_attribute a
            where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
            order by a.attnum) as columns
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relkind in ('r', 'p') and n.nspname in ('public', 'drizzle')
    order by n.nspname, c.relname`);
  return rows;
}

/** Takes a backup; returns its folder and manifest once it is written, read back and named. */
export async function takeBackup(options: TakeOptions): Promise<{ dir: string; manifest: Manifest }> {
  const now = options.now ?? new Date();
  const started = Date.now();
  ensurePrivateDir(options.backupsDir);
  removePartials(options.backupsDir);
  const name = backupName(now);
  const partial = join(options.backupsDir, `${PARTIAL_PREFIX}${name}.${randomBytes(4).toString('hex')}`);
  mkdirSync(join(partial, 'tables'), { recursive: true, mode: 0o700 });
  mkdirSync(join(partial, 'files'), { mode: 0o700 });
  try {
    const release = releaseMigrations(options.migrationsFolder);
    const client = new pg.Client(options.connection);
    await client.connect();
    const tables: Manifest['tables'] = [];
    let serverVersion = '';
    let migrations: Manifest['migrations'] = [];
    try {
      await client.query('begin isolation level repeatable read read only');
      serverVersion = (
        await client.query<{ v: string }>("select current_setting('server_version') as v")
      ).rows[0]!.v.split(' ')[0]!;
      const recorded = await client.query<{ exists: boolean }>(
        `select to_regclass('drizzle.__drizzle_migrations') is not null as exists`,
      );
      const applied = recorded.rows[0]?.exists
        ? new Set(
            (
              await client.query<{ when: string }>(
                'select created_at::text as when from drizzle.__drizzle_migrations',
              )
            ).rows.map((row) => Number(row.when)),
          )
        : new Set<number>();
      migrations = release.filter((m) => applied.has(m.when)).map(({ tag, when }) => ({ tag, when }));
      if (migrations.length !== applied.size) {
        throw new Error(
          'The database holds migrations this release does not know: take the backup with the release that migrated it.',
        );
      }
      for (const table of await tablesOf(client)) {
        const file = `tables/${table.schema}.${table.name}.copy.gz`;
        const copy = client.query(
          copyTo(
            `copy ${ident(table.schema)}.${ident(table.name)} (${table.columns.map(ident).join(', ')}) to stdout`,
          ),
        );
        const written = await writePart(copy, join(partial, file), options.recipient);
        tables.push({ ...table, file, rows: copy.rowCount, ...written });
      }
      await client.query('commit');
    } finally {
      await client.end().catch(() => {});
    }
    const files: Manifest['files'] = [];
    for (const kept of [SECRET_FILE, DKIM_KEY_FILE]) {
      const from = join(options.dataDir, kept);
      let exists = false;
      try {
        exists = statSync(from).isFile();
      } catch {
        exists = false;
      }
      if (!exists) continue;
      const file = `files/${kept.replace(/^\./, '')}.gz`;
      files.push({
        name: kept,
        file,
        ...(await writePart(createReadStream(from), join(partial, file), options.recipient)),
      });
    }
    const manifest: Manifest = {
      format: 1,
      name,
      takenAt: now.toISOString(),
      reason: options.reason,
      release: options.release,
      database: { driver: options.driver, serverVersion },
      migrations,
      tables,
      files,
      encryptedTo: options.recipient ?? null,
      seconds: (Date.now() - started) / 1000,
    };
    const manifestFile = join(partial, MANIFEST_FILE);
    writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
    const fd = openSync(manifestFile, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    fsyncDir(join(partial, 'tables'));
    fsyncDir(join(partial, 'files'));
    fsyncDir(partial);
    // Read back before it is named: a backup that is listed is one that was verified.
    await verifyBackup(partial);
    const dir = join(options.backupsDir, name);
    renameSync(partial, dir);
    fsyncDir(options.backupsDir);
    return { dir, manifest };
  } catch (error) {
    rmSync(partial, { recursive: true, force: true });
    throw error;
  }
}
