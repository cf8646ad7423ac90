/**
 * The database of a bench server or anchor, reached with `pg` the way the server reaches it
 * (decision 052): a PostgreSQL server at a URL, or the embedded cluster of a DATA_DIR, started
 * here with the server's own code (src/server/kit/db/embedded-postgres.ts: the same binaries,
 * settings and Unix socket) and stopped on close. The embedded cluster of a DATA_DIR runs for one
 * process at a time: the bench opens it only while no server or anchor of that DATA_DIR runs.
 *
 * It imports the server's TypeScript: whatever runs it runs under tsx (`node --import tsx`).
 */
import pg from 'pg';
import { startEmbeddedPostgres } from '../src/server/kit/db/embedded-postgres.ts';

/**
 * `{ config, embedded, close() }`: a `pg` client config for `databaseUrl`, or for the embedded
 * cluster of `dataDir`, started (and made, when there is none) for the while; `close` stops it.
 */
export async function openBenchDatabase({ dataDir, databaseUrl }) {
  if (databaseUrl)
    return { config: { connectionString: databaseUrl }, embedded: undefined, close: async () => {} };
  if (!dataDir) throw new Error('a bench database needs DATABASE_URL or DATA_DIR');
  const embedded = await startEmbeddedPostgres(dataDir);
  return { config: embedded.connection(), embedded, close: () => embedded.stop() };
}

/** `fn(client)` with one connected `pg` client on the database of `{ dataDir, databaseUrl }`. */
export async function withBenchClient(store, fn) {
  const database = await openBenchDatabase(store);
  try {
    const client = new pg.Client(database.config);
    await client.connect();
    try {
      return await fn(client);
    } finally {
      await client.end();
    }
  } finally {
    await database.close();
  }
}
