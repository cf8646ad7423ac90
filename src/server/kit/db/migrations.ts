/**
 * Where the database stands against this release's migrations (decision 056), and the sentences
 * a start says when it cannot serve it:
 * - drizzle's migrator applies every pending migration in one transaction, so a failed one leaves
 *   the database as it was; `migrationFailure` names the migration that failed (found by running
 *   the pending ones again in a transaction that is always rolled back) and says how to go back;
 * - a database migrated by a newer release is refused (`migrationState` 'newer'): this code would
 *   read tables it does not know, and its own older migrations would never run again;
 * - /readyz asks `migrationState` too, so an instance left behind by another's upgrade says it is
 *   not ready instead of serving.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import type pg from 'pg';
import { ConfigError } from '../data-dir-files';

export type Migration = { tag: string; when: number; statements: string[] };

/** This release's migrations, oldest first, as drizzle's migrator reads them. */
export function releaseMigrations(folder: string): Migration[] {
  const journal = JSON.parse(readFileSync(join(folder, 'meta', '_journal.json'), 'utf8')) as {
    entries: { tag: string; when: number }[];
  };
  const files = readMigrationFiles({ migrationsFolder: folder });
  return journal.entries.map((entry, i) => ({
    tag: entry.tag,
    when: entry.when,
    statements: files[i]!.sql.filter((statement) => statement.trim() !== ''),
  }));
}

type Query = Pick<pg.Pool | pg.PoolClient, 'query'>;

/** The moment (the journal's `when`) of the newest migration the database holds; none: a new database. */
export async function newestApplied(q: Query): Promise<number | undefined> {
  const table = await q.query<{ exists: boolean }>(
    `select to_regclass('drizzle.__drizzle_migrations') is not null as exists`,
  );
  if (!table.rows[0]?.exists) return undefined;
  const { rows } = await q.query<{ newest: string | null }>(
    'select max(created_at)::text as newest from drizzle.__drizzle_migrations',
  );
  return rows[0]?.newest ? Number(rows[0].newest) : undefined;
}

export type MigrationState =
  { state: 'current' } | { state: 'behind'; pending: Migration[] } | { state: 'newer'; newest: number };

/** The database against this release: as new, behind (pending migrations) or newer. */
export function stateOf(newest: number | undefined, release: readonly Migration[]): MigrationState {
  const last = release.at(-1)?.when ?? 0;
  if (newest !== undefined && newest > last) return { state: 'newer', newest };
  const pending = release.filter((m) => newest === undefined || m.when > newest);
  return pending.length === 0 ? { state: 'current' } : { state: 'behind', pending };
}

export async function migrationState(q: Query, release: readonly Migration[]): Promise<MigrationState> {
  return stateOf(await newestApplied(q), release);
}

/** A start refused for a database newer than this release. */
export function newerDatabase(newest: number, release: readonly Migration[]): ConfigError {
  return new ConfigError(
    `The database was migrated by a newer release than this one (its newest migration is of ${new Date(newest).toISOString()}; this release's newest is ${release.at(-1)?.tag ?? 'none'}). Nothing was changed. Start the newer release again, or to go back to this one, restore the copy of the database taken before the upgrade (README, "Going live").`,
  );
}

/**
 * Runs the pending migrations one by one in a transaction that is always rolled back, and names
 * the first that fails with its error. Only called after the migrator failed: nothing is kept.
 */
export async function firstFailing(
  client: pg.PoolClient,
  pending: readonly Migration[],
): Promise<{ tag: string; message: string } | undefined> {
  await client.query('begin');
  try {
    for (const migration of pending) {
      try {
        for (const statement of migration.statements) await client.query(statement);
      } catch (error) {
        return { tag: migration.tag, message: (error as Error).message };
      }
    }
    return undefined;
  } finally {
    await client.query('rollback').catch(() => {});
  }
}

/** The start refused for a migration that failed: which, why, and that nothing was changed. */
export function migrationFailure(
  failed: { tag: string; message: string } | undefined,
  cause: unknown,
  backup?: string,
): ConfigError {
  const which = failed
    ? `Migration ${failed.tag} failed: ${failed.message}.`
    : `A migration failed: ${(cause as Error).message}.`;
  return new ConfigError(
    `${which} The database is as it was before this start: the migrations of a start run in one transaction, and none of them was kept.${backup ? ` A backup taken just before is in ${backup}.` : ''} Start the previous release again (README, "Going live": "And back"), or correct the cause and start this one again.`,
  );
}
