/**
 * The beacon's anchor (decision 027): a bare Fastify route that stores a page view as
 * `POST /api/views` stores one, an `analytics_views` row, and answers 204 once it is committed,
 * with none of the server's code: its JSON read from the text/plain body, no origin check, no
 * bot or privacy test, no per-address cap, no schema, no day's salt (the visitor is a plain hash
 * of the address and the user agent), no referrer or tag cleaning (they are stored as sent), no
 * device class. Fastify trusts the same proxy as the server (TRUST_PROXY) to read the client's
 * address from X-Forwarded-For. It writes the way the server writes views
 * (src/features/analytics/analytics.server.ts): the views that arrive while a statement runs go
 * together into the next one, one statement of at most 2,000 views with one JSON parameter, one
 * statement in flight, named. The bench loads it beside the beacon, with the same
 * load, on the same database after our server has stopped.
 *
 * Environment: PORT, HOST, TRUST_PROXY; DATABASE_URL (a PostgreSQL server) or DATA_DIR (its
 * embedded cluster, started by this process with the server's code, as the server starts it:
 * scripts/bench-database.mjs, so it runs under tsx), either through a `pg` pool of its default size.
 */
import { createHash } from 'node:crypto';
import pg from 'pg';
import { openBenchDatabase } from './bench-database.mjs';

const INSERT = {
  name: 'anchor_insert_views',
  text: `
  insert into analytics_views (day, hour, visitor, path, referrer, utm_source, utm_medium, utm_campaign, device)
  select day, hour, visitor, path, referrer, utm_source, utm_medium, utm_campaign, device
  from jsonb_to_recordset($1::jsonb) as b(day date, hour smallint, visitor bigint, path text,
    referrer text, utm_source text, utm_medium text, utm_campaign text, device text)`,
};

/** At most this many views in one statement (the server's figure). */
const MAX_BATCH = 2000;

await serve();

function groupWriter(db) {
  const queue = [];
  let busy = false;
  async function flush() {
    if (busy || queue.length === 0) return;
    busy = true;
    const batch = queue.splice(0, MAX_BATCH);
    try {
      await db.query(INSERT, [JSON.stringify(batch.map((b) => b.row))]);
      for (const b of batch) b.resolve();
    } catch (error) {
      for (const b of batch) b.reject(error);
    } finally {
      busy = false;
    }
    void flush();
  }
  return (row) =>
    new Promise((resolve, reject) => {
      queue.push({ row, resolve, reject });
      // The check phase: every request read in this turn of the event loop joins the statement.
      setImmediate(flush);
    });
}

async function serve() {
  const { default: Fastify } = await import('fastify');
  const database = await openBenchDatabase({
    dataDir: process.env.DATA_DIR,
    databaseUrl: process.env.DATABASE_URL || undefined,
  });
  const pool = new pg.Pool(database.config);
  const db = {
    query: (query, values) => pool.query({ ...query, values }),
    close: async () => {
      await pool.end();
      await database.close();
    },
  };
  const write = groupWriter(db);
  const day = new Date().toISOString().slice(0, 10);

  const trustProxy = process.env.TRUST_PROXY ? process.env.TRUST_PROXY.split(',') : false;
  const app = Fastify({ logger: false, trustProxy });
  app.get('/readyz', async () => {
    await db.query({ text: 'select 1' }, []);
    return { status: 'ready' };
  });
  app.post('/api/views', async (request, reply) => {
    // The beacon's JSON comes as text/plain (sendBeacon), read by Fastify as a string.
    const body = (typeof request.body === 'string' ? JSON.parse(request.body) : request.body) ?? {};
    const ua = request.headers['user-agent'] ?? '';
    const visitor = createHash('sha256').update(`${request.ip}\n${ua}`).digest().readBigInt64BE(0);
    await write({
      day,
      hour: new Date().getUTCHours(),
      visitor: visitor.toString(),
      path: String(body.p ?? '/'),
      referrer: String(body.r ?? ''),
      utm_source: String(body.s ?? ''),
      utm_medium: String(body.m ?? ''),
      utm_campaign: String(body.c ?? ''),
      device: 'desktop',
    });
    return reply.code(204).send();
  });
  const close = async () => {
    await app.close();
    await db.close();
    process.exit(0);
  };
  process.once('SIGTERM', close);
  process.once('SIGINT', close);
  await app.listen({ port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1' });
}
