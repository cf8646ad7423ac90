/**
 * The database: PGlite (embedded Postgres compiled to WASM, files in DATA_DIR/pglite) by
 * default, a `pg` pool when DATABASE_URL is set. Both speak one SQL dialect, so the schema,
 * the migrations and every query are shared; only opening and closing differ.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { ensurePrivateDir, isDataDirEntry } from '../data-dir-files';
import { embeddedSettings, PGLITE_FOLDER } from './pglite-early';
import { openPgliteThread } from './pglite-thread';
import { rowsOf } from './rows';
import { databaseOutage } from './unavailable';

export type Db = PgDatabase<PgQueryResultHKT, Record<string, never>>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** A database or a transaction: whatever a query can run on. */
export type Queryable = Db | Tx;

/** A statement run often with different values: Postgres keeps it parsed and planned by name. */
export type NamedStatement = { name: string; text: string };

export type Database = {
  db: Db;
  driver: 'pglite' | 'postgres';
  /**
   * Runs a statement of the server's own, outside any transaction. On Postgres each pooled
   * connection prepares it once, under its name, and then only binds values to it.
   */
  run(statement: NamedStatement, params: unknown[]): Promise<void>;
  /** Throws when the database does not answer (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
};

/**
 * The migrations folder (`drizzle/` at the project root), found by walking up from this module:
 * the same code runs from `src/server/kit/db/` under tsx and from the server bundle in the build.
 */
export const MIGRATIONS_DIR = findMigrations(dirname(fileURLToPath(import.meta.url)));

function findMigrations(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'drizzle');
    if (existsSync(join(candidate, 'meta', '_journal.json'))) return candidate;
    if (dirname(dir) === dir) throw new Error(`No drizzle/ migrations folder above ${from}`);
  }
}

// Any fixed number: every instance takes the same lock while it migrates.
const MIGRATION_LOCK = 727_001;

export type DatabaseOptions = { databaseUrl?: string; dataDir: string; poolSize?: number };

/** Opens the database and applies every pending migration before returning. */
export async function openDatabase({
  databaseUrl,
  dataDir,
  poolSize = 10,
}: DatabaseOptions): Promise<Database> {
  // Each driver is loaded only when it is used: a server on PGlite never holds the Postgres client.
  if (databaseUrl) {
    const [{ default: pg }, { drizzle: drizzlePg }, { migrate: migratePg }] = await Promise.all([
      import('pg'),
      import('drizzle-orm/node-postgres'),
      import('drizzle-orm/node-postgres/migrator'),
    ]);
    // A connection that cannot be had within 5 s (the server unreachable, every client busy) is
    // an outage answered 503 (./unavailable.ts), not a request left waiting for the OS's timeout.
    const pool = new pg.Pool({
      connectionString: databaseUrl,
      max: poolSize,
      idleTimeoutMillis: 30_000,
      connectionTimeoutMillis: 5_000,
    });
    // An idle client losing its connection must not crash the process; the pool replaces it.
    pool.on('error', () => {});
    // A new connection after an outage says the database is back (logged once, ./unavailable.ts).
    pool.on('connect', () => databaseOutage.reachable());
    const db = drizzlePg(pool) as unknown as Db;
    // Several instances may start together: one migrates while the others wait on the lock.
    const lockClient = await pool.connect();
    try {
      await lockClient.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
      await migratePg(db as never, { migrationsFolder: MIGRATIONS_DIR });
    } finally {
      await lockClient.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
      lockClient.release();
    }
    return {
      db,
      driver: 'postgres',
      run: async ({ name, text }, values) => {
        await pool.query({ name, text, values });
      },
      ping: async () => {
        await pool.query('select 1');
      },
      close: () => pool.end(),
    };
  }

  const dir = join(dataDir, PGLITE_FOLDER);
  // Submissions are personal data: DATA_DIR and the database folder are the owner's alone (0700).
  ensurePrivateDir(dataDir, isDataDirEntry);
  ensurePrivateDir(dir);
  // Its own thread: a statement no longer stops the server reading requests (decision 014); under
  // `npm start`, the thread started while the code loaded (decision 051).
  const client = await openPgliteThread(embeddedSettings(dir));
  const [{ drizzle: drizzlePglite }, { migrate: migratePglite }] = await Promise.all([
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
  ]);
  const db = drizzlePglite(client as never) as unknown as Db;
  await migratePglite(db as never, { migrationsFolder: MIGRATIONS_DIR });
  const database: Database = {
    db,
    driver: 'pglite',
    run: async ({ text }, params) => {
      await client.query(text, params);
    },
    // Once closed, the thread's client refuses every call, and closing again does nothing.
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: () => client.close(),
  };
  // A database that never had planner statistics (PGlite runs no autovacuum) gets them before
  // it serves: a few seconds once for a million rows, nothing for a small or analysed one.
  await analyzeStaleTables(database);
  return database;
}

/**
 * PGlite runs no autovacuum: without this its tables would never get planner statistics, and
 * at a million rows the console's queries pick plans a hundred times slower. Analyses every
 * table that was never analysed (and is not tiny), grew by a tenth, or changed by a tenth since;
 * Postgres does the same by itself. Runs at open and in the hourly retention sweep. Returns the
 * tables analysed.
 */
export async function analyzeStaleTables(database: Database): Promise<string[]> {
  if (database.driver !== 'pglite') return [];
  const result = await database.db.execute(sql`
    select c.relname as name
    from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
    left join pg_stat_user_tables s on s.relid = c.oid
    where n.nspname = 'public' and c.relkind = 'r'
      and ((not exists (select 1 from pg_statistic st where st.starelid = c.oid) and pg_relation_size(c.oid) > 65536)
        or pg_relation_size(c.oid) / 8192 > c.relpages * 1.1 + 8
        or coalesce(s.n_mod_since_analyze, 0) > greatest(1000, c.reltuples * 0.1))`);
  const names = rowsOf<{ name: string }>(result)
    .map((r) => r.name)
    .filter((name) => /^[a-z_][a-z0-9_]*$/.test(name));
  for (const name of names) await database.db.execute(sql.raw(`analyze "${name}"`));
  return names;
}
