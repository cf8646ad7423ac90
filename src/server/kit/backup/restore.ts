/**
 * Restoring a backup (decision 057), always into a database of its own, never over the live one:
 *
 * 1. every part is read against the manifest first (./manifest.ts): a damaged backup is refused
 *    with a sentence naming the part, before anything is made;
 * 2. the new database gets the schema the backup had: this release's migrations up to the
 *    backup's newest, by tag (a backup from a newer release is refused), so a backup of an older
 *    release is restored as it was and migrated by the next start like any older database;
 * 3. in one transaction every table's rows go in with COPY, parents before the tables that refer
 *    to them, the indexes that back no constraint are made after the rows (as pg_restore makes
 *    them), every identity sequence is set past the highest id, and every table's rows are
 *    counted against the manifest; any difference, or any error, drops the new database whole.
 */
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import type { ReadableStream as WebReadable } from 'node:stream/web';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { releaseMigrations } from '../db/migrations';
import { BackupDamaged, verifyBackup, type Manifest, type TablePart } from './manifest';

/** A restore that cannot go on for a reason other than damage: the message says what to do. */
export class RestoreRefused extends Error {}

export type RestoreOptions = {
  backupDir: string;
  /** A connection to the server's maintenance database (`postgres`), to make the new one. */
  admin: pg.ClientConfig;
  /** The new database: made here, refused if it exists. */
  target: pg.ClientConfig & { database: string };
  migrationsFolder: string;
  /** The age identity (`AGE-SECRET-KEY-1…`) of an encrypted backup. */
  identity?: string;
};

export type TableCount = { table: string; expected: number; found: number };
export type RestoreResult = { manifest: Manifest; counts: TableCount[]; seconds: number };

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
const qualified = (t: { schema: string; name: string }) => `${ident(t.schema)}.${ident(t.name)}`;

/** A stored part as the rows COPY reads: decrypted when it was encrypted, then gunzipped. */
async function partReader(file: string, identity: string | undefined): Promise<Readable> {
  let source: Readable = createReadStream(file);
  if (identity) {
    const { Decrypter } = await import('age-encryption');
    const decrypter = new Decrypter();
    decrypter.addIdentity(identity);
    const web = await decrypter.decrypt(Readable.toWeb(source) as ReadableStream<Uint8Array>);
    source = Readable.fromWeb(web as unknown as WebReadable<Uint8Array>);
  }
  const gunzip = createGunzip();
  source.on('error', (error) => gunzip.destroy(error));
  return source.pipe(gunzip);
}

/** The stored part of a file the server kept (the secret, the DKIM key), as its text. */
export async function readKeptFile(backupDir: string, part: Manifest['files'][number], identity?: string) {
  const chunks: Buffer[] = [];
  for await (const chunk of await partReader(join(backupDir, part.file), identity))
    chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The tables in an order where every table comes after the tables its foreign keys name. */
async function loadOrder(client: pg.Client, tables: readonly TablePart[]): Promise<TablePart[]> {
  const { rows } = await client.query<{ child: string; parent: string }>(`
    select cn.nspname || '.' || c.relname as child, pn.nspname || '.' || p.relname as parent
    from pg_constraint k
    join pg_class c on c.oid = k.conrelid join pg_namespace cn on cn.oid = c.relnamespace
    join pg_class p on p.oid = k.confrelid join pg_namespace pn on pn.oid = p.relnamespace
    where k.contype = 'f' and k.conrelid <> k.confrelid`);
  const parents = new Map<string, string[]>();
  for (const { child, parent } of rows) parents.set(child, [...(parents.get(child) ?? []), parent]);
  const byName = new Map(tables.map((t) => [`${t.schema}.${t.name}`, t]));
  const out: TablePart[] = [];
  const placed = new Set<string>();
  const place = (name: string, path: Set<string>) => {
    if (placed.has(name) || path.has(name)) return;
    path.add(name);
    for (const parent of parents.get(name) ?? []) place(parent, path);
    placed.add(name);
    const table = byName.get(name);
    if (table) out.push(table);
  };
  for (const name of byName.keys()) place(name, new Set());
  return out;
}

/** The migrations of this release that make the backup's schema; refuses a newer release's backup. */
function schemaOf(manifest: Manifest, migrationsFolder: string) {
  const release = releaseMigrations(migrationsFolder);
  return manifest.migrations.map((wanted) => {
    const found = release.find((m) => m.tag === wanted.tag && m.when === wanted.when);
    if (!found) {
      throw new RestoreRefused(
        `The backup ${manifest.name} was taken by a newer release (${manifest.release.version}${manifest.release.commit ? `, ${manifest.release.commit.slice(0, 7)}` : ''}): this one has no migration ${wanted.tag}. Restore it with that release.`,
      );
    }
    return found;
  });
}

/** Restores the backup in `backupDir` into a new database; returns the table-by-table counts. */
export async function restoreBackup(options: RestoreOptions): Promise<RestoreResult> {
  const started = Date.now();
  const manifest = await verifyBackup(options.backupDir);
  if (manifest.encryptedTo && !options.identity) {
    throw new RestoreRefused(
      `The backup ${manifest.name} is encrypted to ${manifest.encryptedTo}: give the file holding its key with --identity <file> (or BACKUP_AGE_IDENTITY_FILE).`,
    );
  }
  const migrations = schemaOf(manifest, options.migrationsFolder);
  const database = options.target.database;
  const admin = new pg.Client(options.admin);
  await admin.connect();
  try {
    const exists = await admin.query('select 1 from pg_database where datname = $1', [database]);
    if (exists.rowCount) {
      throw new RestoreRefused(
        `A database named ${database} exists already: a restore never writes over a database.`,
      );
    }
    await admin.query(`create database ${ident(database)}`);
  } finally {
    await admin.end();
  }
  const client = new pg.Client(options.target);
  try {
    await client.connect();
    await client.query('begin');
    await client.query('create schema if not exists drizzle');
    await client.query(
      'create table if not exists drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)',
    );
    for (const migration of migrations) {
      for (const statement of migration.statements) await client.query(statement);
    }
    // Indexes that back no constraint are made once the rows are in, as pg_restore does: kept
    // up row by row (the search's trigram index above all) they cost most of a restore's time.
    const deferred = await client.query<{ schema: string; name: string; def: string }>(`
      select n.nspname as schema, c.relname as name, pg_get_indexdef(i.indexrelid) as def
      from pg_index i join pg_class c on c.oid = i.indexrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname in ('public', 'drizzle')
        and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)`);
    for (const index of deferred.rows) await client.query(`drop index ${qualified(index)}`);
    const order = await loadOrder(client, manifest.tables);
    // A migration may seed a row (the publication counter): the backup's rows replace it.
    for (const table of [...order].reverse()) await client.query(`delete from ${qualified(table)}`);
    for (const table of order) {
      const copy = client.query(
        copyFrom(`copy ${qualified(table)} (${table.columns.map(ident).join(', ')}) from stdin`),
      );
      try {
        await pipeline(
          await partReader(join(options.backupDir, table.file), options.identity),
          copy as Writable,
        );
      } catch (error) {
        throw new BackupDamaged(
          `The backup ${manifest.name}'s table ${table.schema}.${table.name} could not be read into the new database (${(error as Error).message}). The new database was removed.`,
        );
      }
    }
    for (const index of deferred.rows) await client.query(index.def);
    // Identity and serial columns continue after the highest id restored.
    const sequences = await client.query<{ tbl: string; col: string; seq: string }>(`
      select format('%I.%I', n.nspname, c.relname) as tbl, a.attname as col,
        pg_get_serial_sequence(format('%I.%I', n.nspname, c.relname), a.attname) as seq
      from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'p') and n.nspname in ('public', 'drizzle') and a.attnum > 0 and not a.attisdropped
        and pg_get_serial_sequence(format('%I.%I', n.nspname, c.relname), a.attname) is not null`);
    for (const { tbl, col, seq } of sequences.rows) {
      await client.query(
        `select setval($1::regclass, coalesce((select max(${ident(col)}) from ${tbl}), 0) + 1, false)`,
        [seq],
      );
    }
    const counts: TableCount[] = [];
    for (const table of manifest.tables) {
      const { rows } = await client.query<{ n: string }>(
        `select count(*)::text as n from ${qualified(table)}`,
      );
      counts.push({
        table: `${table.schema}.${table.name}`,
        expected: table.rows,
        found: Number(rows[0]!.n),
      });
    }
    const differing = counts.filter((c) => c.expected !== c.found);
    if (differing.length > 0) {
      throw new BackupDamaged(
        `The restored database's row counts differ from the backup's: ${differing.map((c) => `${c.table} has ${c.found} where ${c.expected} were backed up`).join('; ')}. The new database was removed.`,
      );
    }
    await client.query('commit');
    return { manifest, counts, seconds: (Date.now() - started) / 1000 };
  } catch (error) {
    await client.end().catch(() => {});
    await dropDatabase(options.admin, database);
    throw error;
  } finally {
    await client.end().catch(() => {});
  }
}

/** Drops a database, whoever is connected to it. */
export async function dropDatabase(admin: pg.ClientConfig, database: string): Promise<void> {
  const client = new pg.Client(admin);
  await client.connect();
  try {
    await client.query(`drop database if exists ${ident(database)} with (force)`);
  } finally {
    await client.end();
  }
}
