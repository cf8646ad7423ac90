/**
 * The local PostgreSQL the server tests run on: its address and the statements run on its
 * maintenance database. Apart from database-setup.ts, which imports the server's code, so that
 * every test file's setup (database-cleanup.ts) loads no module of the server before the file's
 * own mocks are in place.
 */
import pg from 'pg';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** What the setup hands every test file (databases.ts): the template's name and the run's prefix. */
export type TestDatabases = { template: string; prefix: string };

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabases: TestDatabases | null;
  }
}

/** The URL of database `name` on the test server. */
export function databaseUrl(name: string): string {
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs `text` on the test server's maintenance database, in a connection of its own. */
export async function onServer(text: string): Promise<void> {
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(text);
  } finally {
    await admin.end();
  }
}

