/**
 * The database: PostgreSQL. With DATABASE_URL, the server at that address; without it, the
 * embedded cluster in DATA_DIR (./embedded-postgres.ts), started with the server and stopped with
 * it. Both are reached through one `pg` pool, so the schema, the migrations and every query are
 * shared; only how the connection is made differs (decision 052).
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import { ConfigError, ensurePrivateDir, isDataDirEntry } from '../data-dir-files';
import { startEmbeddedPostgres, type EmbeddedLog, type EmbeddedPostgres } from './embedded-postgres';
import {
  firstFailing,
  migrationFailure,
  migrationState,
  newestApplied,
  newerDatabase,
  releaseMigrations,
  type MigrationState,
} from './migrations';
import { movePgliteIn, pgliteFolderToMove } from './pglite-import';
import { databaseOutage } from './unavailable';

export type Db = PgDatabase<PgQueryResultHKT, Record<string, never>>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** A database or a transaction: whatever a query can run on. */
export type Queryable = Db | Tx;

/** A statement run often with different values: Postgres keeps it parsed and planned by name. */
export type NamedStatement = { name: string; text: string };

export type Database = {
  db: Db;
  /** The embedded cluster in DATA_DIR, or a PostgreSQL server at DATABASE_URL. */
  driver: 'embedded' | 'postgres';
  /** The embedded cluster, when it is the one in use. */
  embedded?: EmbeddedPostgres;
  /**
   * Runs a statement of the server's own, outside any transaction. On Postgres each pooled
   * connection prepares it once, under its name, and then only binds values to it.
   */
  run(statement: NamedStatement, params: unknown[]): Promise<void>;
  /**
   * Where the database stands against this release's migrations (readiness, ./migrations.ts);
   * throws when the database does not answer.
   */
  migrations(): Promise<MigrationState>;
  /** How to reach this database in a connection of one's own (a backup's snapshot). */
  connection: pg.ClientConfig;
  /** How to reach the server's maintenance database (`postgres`): to make or drop a database. */
  admin: pg.ClientConfig;
  close(): Promise<void>;
};

/** The maintenance database of the server at `url`. */
export function adminConnection(url: string): pg.ClientConfig {
  const admin = new URL(url);
  admin.pathname = '/postgres';
  return { connectionString: admin.toString() };
}

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

export type DatabaseOptions = {
  databaseUrl?: string;
  dataDir: string;
  poolSize?: number;
  /** What the embedded database says of its start (where it is, a move from PGlite). */
  log?: EmbeddedLog;
  /** What the embedded database says of an unexpected stop (it is started again). */
  warn?: EmbeddedLog;
  /** The migrations to apply: the project's `drizzle/` (tests give a folder of their own). */
  migrationsFolder?: string;
  /**
   * Takes and verifies a backup of a database with data before its pending migrations run
   * (decision 057); returns the backup's folder. A backup that fails stops the start.
   */
  backupBeforeMigrating?: (connection: pg.ClientConfig) => Promise<string>;
};

/** Opens the database and applies every pending migration before returning. */
export async function openDatabase({
  databaseUrl,
  dataDir,
  poolSize = 10,
  log = () => {},
  warn = log,
  migrationsFolder = MIGRATIONS_DIR,
  backupBeforeMigrating,
}: DatabaseOptions): Promise<Database> {
  const [{ default: pgModule }, { drizzle: drizzlePg }, { migrate: migratePg }] = await Promise.all([
    import('pg'),
    import('drizzle-orm/node-postgres'),
    import('drizzle-orm/node-postgres/migrator'),
  ]);
  let embedded: EmbeddedPostgres | undefined;
  let connection: pg.PoolConfig;
  if (databaseUrl) {
    connection = { connectionString: databaseUrl };
  } else {
    // Submissions are personal data: DATA_DIR is the owner's alone (0700).
    ensurePrivateDir(dataDir, isDataDirEntry);
    embedded = await startEmbeddedPostgres(dataDir, { log, warn });
    connection = embedded.connection();
  }
  const started = embedded;
  const release = releaseMigrations(migrationsFolder);
  const migrateWith = async (pool: pg.Pool) => {
    const db = drizzlePg(pool) as unknown as Db;
    // Several instances may start together: one migrates while the others wait on the lock.
    const lockClient = await pool.connect();
    try {
      await lockClient.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
      // A newer release's database is refused before anything runs (decision 056).
      const before = await migrationState(lockClient, release);
      if (before.state === 'newer') throw newerDatabase(before.newest, release);
      // An upgrade of a database with data: a verified backup first (decision 057).
      let backup: string | undefined;
      if (
        before.state === 'behind' &&
        backupBeforeMigrating &&
        (await newestApplied(lockClient)) !== undefined
      ) {
        try {
          backup = await backupBeforeMigrating(connection);
        } catch (error) {
          throw new ConfigError(
            `The backup taken before this release's migrations failed (${(error as Error).message}): nothing was migrated. Make room or correct BACKUP_DIR and start again, or start the previous release.`,
          );
        }
        log('backed up before migrating', { backup });
      }
      try {
        await migratePg(db as never, { migrationsFolder });
      } catch (error) {
        // Nothing was kept (one transaction): say which migration failed, and how to go back.
        const pending = before.state === 'behind' ? before.pending : release;
        throw migrationFailure(await firstFailing(lockClient, pending).catch(() => undefined), error, backup);
      }
    } finally {
      await lockClient.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
      lockClient.release();
    }
  };
  try {
    if (started && pgliteFolderToMove(dataDir)) {
      await movePgliteIn({
        dataDir,
        admin: started.connection('postgres'),
        target: { ...started.connection(), database: started.database },
        migrationsFolder,
        migrateTarget: async () => {
          const pool = new pgModule.Pool({ ...connection, max: 2 });
          try {
            await migrateWith(pool);
          } finally {
            await pool.end();
          }
        },
        log,
      });
    }
  } catch (error) {
    await started?.stop();
    throw error;
  }
  // A connection that cannot be had within 5 s (the server unreachable, every client busy) is
  // an outage answered 503 (./unavailable.ts), not a request left waiting for the OS's timeout.
  const pool = new pgModule.Pool({
    ...connection,
    max: poolSize,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 5_000,
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  // A new connection after an outage says the database is back (logged once, ./unavailable.ts).
  pool.on('connect', () => databaseOutage.reachable());
  const db = drizzlePg(pool) as unknown as Db;
  try {
    await migrateWith(pool);
  } catch (error) {
    await pool.end().catch(() => {});
    await started?.stop();
    throw error;
  }
  let closing: Promise<void> | undefined;
  return {
    db,
    driver: started ? 'embedded' : 'postgres',
    embedded: started,
    run: async ({ name, text }, values) => {
      await pool.query({ name, text, values });
    },
    migrations: () => migrationState(pool, release),
    connection,
    admin: started ? started.connection('postgres') : adminConnection(databaseUrl!),
    close: () =>
      (closing ??= (async () => {
        await pool.end().catch(() => {});
        await started?.stop();
      })()),
  };
}
