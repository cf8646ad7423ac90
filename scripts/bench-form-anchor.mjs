/**
 * The form endpoint's anchor (decision 027): a bare Fastify route that stores what a contact
 * submission stores (its `submissions` row, its consent record and its owner e-mail's outbox
 * row) and answers once they are committed, with none of the server's code: no checks, no
 * validation, no handler, no e-mail composed, no outbox worker. It writes the way the database
 * takes rows fastest, as the server does (decision 014): the requests that arrive while a
 * statement runs go together into the next one, one statement inserting all their rows, two
 * statements in flight as the server's pool takes them. The bench loads it beside the form
 * endpoint, with the same tool, connections and duration, on a database of the same kind that
 * our server migrated.
 *
 * Environment: PORT, HOST; DATABASE_URL (a PostgreSQL server) or DATA_DIR (its embedded cluster,
 * started by this process with the server's code, as the server starts it: scripts/bench-database.mjs,
 * so it runs under tsx), either through a `pg` pool of its default size, 10, the server's too;
 * BENCH_ANCHOR_ROW, the JSON of the rows' constant parts (`consentId`, `wording`, `toAddress`,
 * `message`) as the contact handler makes them.
 */
import { createHash, randomUUID } from 'node:crypto';
import pg from 'pg';
import { openBenchDatabase } from './bench-database.mjs';

/** The rows travel as one JSON parameter: the same statement for any number of submissions. */
const INSERT = {
  name: 'anchor_insert',
  text: `
  with batch as (
    select * from jsonb_to_recordset($1::jsonb) as b(
      id uuid, fields jsonb, user_agent text, ip_hash text)
  ),
  s as (
    insert into submissions (id, form_type, fields, user_agent, ip_hash, lead_state)
    select id, 'contact', fields, user_agent, ip_hash, 'new' from batch
    returning id
  ),
  c as (
    insert into consent_records (submission_id, consent_id, wording)
    select id, $2, $3 from batch
  ),
  o as (
    insert into outbox (submission_id, kind, to_address, audience, message)
    select id, 'contact.owner', $4, 'owner', $5::jsonb from batch
  )
  select count(*) from s`,
};

/** At most this many submissions in one statement. */
const MAX_BATCH = 200;

await serve();

/**
 * Group commit: statements in flight (`maxInFlight`, the server's two) and the requests that
 * arrive meanwhile queued for the next; each answered once the statement holding its rows has
 * committed.
 */
function groupWriter(db, maxInFlight, row) {
  const params = [row.consentId, row.wording, row.toAddress, JSON.stringify(row.message)];
  const queue = [];
  let inFlight = 0;
  async function flush() {
    if (queue.length === 0 || inFlight >= maxInFlight) return;
    const batch = queue.splice(0, MAX_BATCH);
    inFlight += 1;
    try {
      await db.query(INSERT, [JSON.stringify(batch.map((b) => b.values)), ...params]);
      for (const b of batch) b.resolve();
    } catch (error) {
      for (const b of batch) b.reject(error);
    } finally {
      inFlight -= 1;
    }
    void flush();
  }
  return (values) =>
    new Promise((resolve, reject) => {
      queue.push({ values, resolve, reject });
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
  const write = groupWriter(db, 2, JSON.parse(process.env.BENCH_ANCHOR_ROW));

  const app = Fastify({ logger: false });
  app.get('/readyz', async () => {
    await db.query({ text: 'select 1' }, []);
    return { status: 'ready' };
  });
  app.post('/api/send-contact-email', async (request) => {
    const id = randomUUID();
    await write({
      id,
      fields: request.body,
      user_agent: request.headers['user-agent'] ?? null,
      ip_hash: createHash('sha256').update(request.ip).digest('base64url'),
    });
    return { id };
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
