/**
 * The server tests' databases: each is a copy of the run's template (database-setup.ts), a
 * database migrated once by the server's own code, so an app starting on a copy finds no
 * migration pending. A copy takes milliseconds; its name starts with the run's prefix, so the
 * run's teardown finds whatever a test left behind, and two runs on one machine never meet.
 */
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { databaseUrl, onServer, type TestDatabases } from './database-server';

export { TEST_DATABASE_URL } from './database-server';

/** The run's template, or none (the local Postgres is missing and SKIP_SERVICE_TESTS=1 says so). */
function run(): TestDatabases | null {
  try {
    return inject('testDatabases');
  } catch {
    // Outside the server suite (no global setup): plain databases, migrated by each app.
    return null;
  }
}

/** The databases this test file made and has not dropped yet (dropped after its last test). */
const made = new Set<string>();

/** A fresh database on the test server, a copy of the run's template; `drop()` removes it. */
export async function createTestDatabase(label: string) {
  const databases = run();
  const safeLabel = label
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '_')
    .slice(0, 24);
  const unique = `${process.pid}_${randomBytes(4).toString('hex')}`;
  const name = databases
    ? `${databases.prefix}_${safeLabel}_${unique}`
    : `forms_${safeLabel}_${Date.now()}_${unique}`;
  await onServer(`create database ${name}${databases ? ` template ${databases.template}` : ''}`);
  made.add(name);
  return {
    url: databaseUrl(name),
    async drop() {
      made.delete(name);
      await onServer(`drop database if exists ${name} with (force)`);
    },
  };
}

/**
 * The database of an app built on `dataDir` without a DATABASE_URL of its own: a fresh copy the
 * first time, then the same one, so an app restarted on the same folder finds its data again.
 * None when the run has no PostgreSQL (SKIP_SERVICE_TESTS=1): the app then uses the embedded one.
 */
const byDataDir = new Map<string, Promise<string>>();

export function databaseFor(dataDir: string): Promise<string | undefined> {
  if (!run()) return Promise.resolve(undefined);
  let url = byDataDir.get(dataDir);
  if (!url) {
    url = createTestDatabase('app').then((db) => db.url);
    byDataDir.set(dataDir, url);
  }
  return url;
}

/** `env` with the database of `dataDir` unless it names one (an empty DATABASE_URL: the embedded one). */
export async function withDatabase(
  env: Record<string, string>,
  dataDir: string,
): Promise<Record<string, string>> {
  if ('DATABASE_URL' in env) return env;
  const url = await databaseFor(dataDir);
  return url ? { ...env, DATABASE_URL: url } : env;
}

/**
 * Drops every database this test file made (database-cleanup.ts runs it after the file's last
 * test): the server keeps only the databases of the files running now.
 */
export async function dropTestDatabases(): Promise<void> {
  const names = [...made];
  made.clear();
  byDataDir.clear();
  for (const name of names) await onServer(`drop database if exists ${name} with (force)`);
}
