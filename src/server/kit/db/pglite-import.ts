/**
 * A DATA_DIR of an earlier release keeps its database in DATA_DIR/pglite (PGlite, PostgreSQL
 * compiled to WebAssembly). The first start on the embedded PostgreSQL moves every row of it
 * into the new database, once (decision 052):
 *
 * 1. PGlite opens a copy of the folder (the original is never opened, so it stays exactly as the
 *    last release left it) and applies any migration that release had not, so both databases
 *    have the same tables and columns;
 * 2. the new database is made afresh (dropped first: an earlier move may have stopped halfway)
 *    and migrated;
 * 3. in one transaction every table of both schemas (the site's and the migrations' record) is
 *    copied in batches of rows, every sequence set where PGlite's was, and the rows counted
 *    table by table on both sides; any difference rolls the whole move back;
 * 4. only then is the old folder renamed to pglite-moved-<date>, kept untouched beside the new
 *    database until the owner removes it. The rename is what marks the move done: a move stopped
 *    before it (power cut, kill -9, full disk) finds DATA_DIR/pglite again at the next start and
 *    starts over, and the server never serves a half-moved database.
 *
 * PGlite is loaded here only, and only when such a folder is found.
 */
import { cpSync, existsSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import type { EmbeddedLog } from './embedded-postgres';
import { fsyncDir } from '../data-dir-files';

/** The folder an earlier release kept its PGlite database in. */
export const PGLITE_FOLDER = 'pglite';
/** The old folder's name once moved: `pglite-moved-2026-12-06`. */
export const MOVED_PREFIX = 'pglite-moved-';
/** The copy PGlite reads while a move runs. */
export const IMPORT_COPY = '.pglite-import';
/** Rows read and written at a time. */
const BATCH_ROWS = 1000;

/** The PGlite folder of `dataDir` still to move, if any. */
export function pgliteFolderToMove(dataDir: string): string | undefined {
  const dir = join(dataDir, PGLITE_FOLDER);
  return existsSync(join(dir, 'PG_VERSION')) ? dir : undefined;
}

type Source = { query<T>(text: string, params?: unknown[]): Promise<{ rows: T[] }>; close(): Promise<void> };
type Table = { schema: string; name: string };

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
const qualified = (t: Table) => `${ident(t.schema)}.${ident(t.name)}`;

/** Opens PGlite on `dir` with the extensions the schema uses, and brings it to the current schema. */
async function openSource(dir: string, migrationsFolder: string): Promise<Source> {
  const [{ PGlite }, { btree_gin }, { pg_trgm }, { drizzle }, { migrate }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/btree_gin'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
  ]);
  const pglite = await PGlite.create(dir, { extensions: { pg_trgm, btree_gin } });
  await migrate(drizzle(pglite), { migrationsFolder });
  return {
    query: async <T>(text: string, params?: unknown[]) => ({
      rows: (await pglite.query<T>(text, params)).rows,
    }),
    close: () => pglite.close(),
  };
}

/** The tables to move: the site's (public) and the migrations' record (drizzle). */
async function tablesOf(source: Source): Promise<Table[]> {
  const { rows } = await source.query<Table>(`
    select n.nspname as schema, c.relname as name
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relkind in ('r', 'p') and n.nspname in ('public', 'drizzle')
    order by n.nspname, c.relname`);
  return rows;
}

/** A table's columns that hold values (not generated from the others), in order. */
async function columnsOf(
  query: (text: string, params: unknown[]) => Promise<{ rows: { name: string }[] }>,
  t: Table,
) {
  const { rows } = await query(
    `select a.attname as name from pg_attribute a
     where a.attrelid = $1::regclass and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
     order by a.attnum`,
    [qualified(t)],
  );
  return rows.map((r) => r.name);
}

export type MoveResult = { tables: number; rows: number; movedTo: string };

/**
 * Moves the PGlite folder of `dataDir` into the database `target` names (on a cluster where the
 * server's role may drop and make it). `migrateTarget` applies the migrations to the new database.
 */
export async function movePgliteIn(options: {
  dataDir: string;
  admin: pg.ClientConfig;
  target: pg.ClientConfig & { database: string };
  migrationsFolder: string;
  migrateTarget: () => Promise<void>;
  log: EmbeddedLog;
  now?: Date;
}): Promise<MoveResult> {
  const { dataDir, admin, target, migrationsFolder, log } = options;
  const original = join(dataDir, PGLITE_FOLDER);
  const copy = join(dataDir, IMPORT_COPY);
  const started = Date.now();
  log('moving the PGlite database of an earlier release into PostgreSQL', { from: original });
  rmSync(copy, { recursive: true, force: true });
  cpSync(original, copy, { recursive: true });

  const adminClient = new pg.Client(admin);
  await adminClient.connect();
  try {
    await adminClient.query(`drop database if exists ${ident(target.database)} with (force)`);
    await adminClient.query(`create database ${ident(target.database)}`);
  } finally {
    await adminClient.end();
  }
  await options.migrateTarget();

  const source = await openSource(copy, migrationsFolder);
  const client = new pg.Client(target);
  await client.connect();
  let tables = 0;
  let total = 0;
  try {
    const list = await tablesOf(source);
    await client.query('begin');
    // Rows go in table by table, not in the order their foreign keys would ask: the checks and
    // triggers of the copy are off for this transaction (the rows were checked when written).
    await client.query('set local session_replication_role = replica');
    for (const table of list) {
      const sourceColumns = await columnsOf((text, params) => source.query(text, params), table);
      const targetColumns = await columnsOf((text, params) => client.query(text, params), table).catch(() => {
        throw new Error(`The new database has no table ${qualified(table)}: the two schemas differ.`);
      });
      const missing = sourceColumns.filter((c) => !targetColumns.includes(c));
      if (missing.length > 0) {
        throw new Error(
          `The new database's ${qualified(table)} has no column ${missing.join(', ')}: the two schemas differ.`,
        );
      }
      const list = sourceColumns.map(ident).join(', ');
      await client.query(`delete from ${qualified(table)}`);
      let after = '(0,0)';
      for (;;) {
        const { rows } = await source.query<{ at: string; row: string }>(
          `select ctid::text as at, row_to_json(t)::text as row from ${qualified(table)} t
           where ctid > $1::tid order by ctid limit ${BATCH_ROWS}`,
          [after],
        );
        if (rows.length === 0) break;
        after = rows[rows.length - 1]!.at;
        await client.query(
          `insert into ${qualified(table)} (${list}) overriding system value
           select ${list} from json_populate_recordset(null::${qualified(table)}, $1::json)`,
          // As PostgreSQL wrote them: parsed here, a bigint would lose its last digits.
          [`[${rows.map((r) => r.row).join(',')}]`],
        );
      }
      const [{ n: inSource }] = (
        await source.query<{ n: string }>(`select count(*)::text as n from ${qualified(table)}`)
      ).rows as [{ n: string }];
      const [{ n: inTarget }] = (
        await client.query<{ n: string }>(`select count(*)::text as n from ${qualified(table)}`)
      ).rows as [{ n: string }];
      if (inSource !== inTarget) {
        throw new Error(
          `${qualified(table)} has ${inSource} rows in PGlite and ${inTarget} after the move: nothing was moved.`,
        );
      }
      tables += 1;
      total += Number(inTarget);
    }
    const { rows: sequences } = await source.query<{
      schema: string;
      name: string;
      last: string | null;
      start: string;
    }>(
      `select schemaname as schema, sequencename as name, last_value::text as last, start_value::text as start
       from pg_sequences where schemaname in ('public', 'drizzle')`,
    );
    for (const s of sequences) {
      const name = `${ident(s.schema)}.${ident(s.name)}`;
      await client.query(`select setval($1::regclass, $2::bigint, $3)`, [
        name,
        s.last ?? s.start,
        s.last !== null,
      ]);
    }
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    await client.end().catch(() => {});
    await source.close().catch(() => {});
  }
  // The copy has no planner statistics yet: the console's million-row pages need them now.
  const analyse = new pg.Client(target);
  await analyse.connect();
  await analyse.query('analyze').finally(() => analyse.end());

  const day = (options.now ?? new Date()).toISOString().slice(0, 10);
  let movedTo = join(dataDir, `${MOVED_PREFIX}${day}`);
  for (let n = 2; existsSync(movedTo); n += 1) movedTo = join(dataDir, `${MOVED_PREFIX}${day}-${n}`);
  renameSync(original, movedTo);
  fsyncDir(dataDir);
  rmSync(copy, { recursive: true, force: true });
  log(
    'moved the PGlite database into PostgreSQL; the old folder is kept, untouched: remove it once the site is known to be well',
    { tables, rows: total, keptAt: movedTo, ms: Date.now() - started },
  );
  return { tables, rows: total, movedTo };
}
