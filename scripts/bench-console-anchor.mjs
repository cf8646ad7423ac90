/**
 * The console's anchor (decision 027, addendum): a bare Fastify server that runs, with none of
 * the server's code, the SQL statements a console request ran, and streams the whole inbox as
 * CSV from a bare cursor. The bench (scripts/bench-console.ts) times it beside the console, with
 * the same HTTP client, on a copy of the same seeded database made before either opened it.
 *
 *  - POST /captures {tag: statements}: keeps the statements the console ran for a request, as
 *    scripts/bench-console-capture.mjs wrote them down (text, values, which were sent together,
 *    and which connection ran each).
 *  - GET /replay/:tag: sends those statements as they were sent (the ones sent together at
 *    once, each after those it followed; one pooled connection for each connection the console
 *    used, so a transaction stays on one), and answers every statement's rows as
 *    JSON: the database's work, HTTP and JSON, and nothing of the console's own.
 *  - GET /export.csv?status=all|received|spam: the inbox's export columns, newest first, read by
 *    a cursor (DECLARE ... CURSOR, FETCH 2000 at a time) in a transaction, and written by
 *    csv-stringify's stream (the library the console writes its CSV with) to the response, with
 *    back pressure.
 *
 * Environment: PORT, HOST; DATABASE_URL (a PostgreSQL server) or DATA_DIR (the embedded
 * cluster of that folder, a copy of the console's, started by this process with the server's
 * code as the server starts it: scripts/bench-database.mjs, so it runs under tsx), either through
 * a `pg` pool of its default size, 10, the server's too.
 */
import { once } from 'node:events';
import pg from 'pg';
import { openBenchDatabase } from './bench-database.mjs';

/** Rows a FETCH reads: the console's export reads its keyset batches 2,000 rows at a time. */
const FETCH = 2000;

/** The export's columns (src/server/console/exports.ts), read as a bare client reads them. */
const FIELDS = [
  'firstName',
  'lastName',
  'email',
  'phone',
  'company',
  'role',
  'subject',
  'message',
  'notes',
  'sessionType',
  'firstChoiceDate',
  'firstChoiceTime',
  'secondChoiceDate',
  'secondChoiceTime',
];
const EXPORT_COLUMNS = ['id', 'form_type', 'received_at', 'status', 'spam_reason', ...FIELDS];
const EXPORT_SELECT = `select id, form_type, received_at,
    case when spam then 'spam' else 'received' end as status, spam_reason,
    ${FIELDS.map((f) => `fields->>'${f}' as "${f}"`).join(', ')}
  from submissions`;
const EXPORT_WHERE = { all: '', received: ' where not spam', spam: ' where spam' };

await serve();

/** A `pg` pool: each connection `query(sql, params)` and `exec(sql)` answering rows. */
async function postgresClient(store) {
  const database = await openBenchDatabase(store);
  const pool = new pg.Pool(database.config);
  pool.on('error', () => {});
  return {
    connect: async () => {
      const client = await pool.connect();
      return {
        query: async (sql, params = []) => (await client.query(sql, params)).rows,
        exec: async (sql) => {
          const result = await client.query(sql);
          return (Array.isArray(result) ? result : [result]).map((r) => r.rows);
        },
        release: () => client.release(),
      };
    },
    close: async () => {
      await pool.end();
      await database.close();
    },
  };
}

/** A value as the console sent it (bytes travel as base64). */
function restore(value) {
  if (Array.isArray(value)) return value.map(restore);
  if (value && typeof value === 'object' && typeof value.$bytes === 'string') {
    return Buffer.from(value.$bytes, 'base64');
  }
  return value;
}

/** The captured statements, run as the console sent them; answers each one's rows. */
async function replay(db, statements) {
  const connections = new Map();
  const connection = (key) => {
    if (!connections.has(key)) connections.set(key, db.connect());
    return connections.get(key);
  };
  const runs = [];
  try {
    for (const statement of statements) {
      // Those that had ended when the console sent this one.
      if (statement.after >= 0) await Promise.all(runs.slice(0, statement.after + 1));
      runs.push(
        connection(statement.conn ?? 0).then((c) => {
          switch (statement.op) {
            case 'query':
              return c.query(statement.sql, restore(statement.params));
            case 'exec':
              return c.exec(statement.sql);
            case 'begin':
              return c.exec('begin');
            case 'end':
              return c.exec(statement.commit === false ? 'rollback' : 'commit');
            default:
              throw new Error(`unknown statement op ${statement.op}`);
          }
        }),
      );
    }
    return await Promise.all(runs);
  } finally {
    await Promise.allSettled(runs);
    for (const c of connections.values()) (await c).release();
  }
}

/** JSON as Fastify writes it, with any 64-bit integer answered as a BigInt written as text. */
const json = (value) => JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? v.toString() : v));

async function serve() {
  const [{ default: Fastify }, { stringify }] = await Promise.all([
    import('fastify'),
    import('csv-stringify'),
  ]);
  const db = await postgresClient({
    dataDir: process.env.DATA_DIR,
    databaseUrl: process.env.DATABASE_URL || undefined,
  });
  const captures = new Map();

  const app = Fastify({ logger: false, bodyLimit: 256 * 1024 * 1024 });
  app.get('/readyz', async () => {
    const c = await db.connect();
    try {
      await c.query('select 1');
    } finally {
      c.release();
    }
    return { status: 'ready' };
  });
  app.post('/captures', async (request) => {
    for (const [tag, statements] of Object.entries(request.body)) captures.set(tag, statements);
    return { captures: captures.size };
  });
  app.get('/replay/:tag', async (request, reply) => {
    const statements = captures.get(request.params.tag);
    if (!statements) return reply.code(404).send({ error: 'no such capture' });
    const results = await replay(db, statements);
    return reply.type('application/json; charset=utf-8').send(json({ results }));
  });
  app.get('/export.csv', async (request, reply) => {
    const where = EXPORT_WHERE[request.query.status ?? 'received'];
    if (where === undefined) return reply.code(400).send({ error: 'status' });
    const csv = stringify({
      bom: true,
      header: true,
      columns: EXPORT_COLUMNS,
      record_delimiter: 'windows',
      cast: { date: (value) => value.toISOString() },
    });
    const c = await db.connect();
    // Fed in the background; the response reads the CSV as it is written.
    void (async () => {
      try {
        await c.exec('begin');
        await c.exec(`declare bench_export no scroll cursor for ${EXPORT_SELECT}${where}
                      order by received_at desc, id desc`);
        for (;;) {
          const rows = await c.query(`fetch forward ${FETCH} from bench_export`);
          for (const row of rows) if (!csv.write(row)) await once(csv, 'drain');
          if (rows.length < FETCH) break;
        }
        await c.exec('close bench_export; commit');
        csv.end();
      } catch (error) {
        await c.exec('rollback').catch(() => {});
        csv.destroy(error);
      } finally {
        c.release();
      }
    })();
    return reply.type('text/csv; charset=utf-8').send(csv);
  });

  const port = Number(process.env.PORT ?? 3010);
  await app.listen({ port, host: process.env.HOST ?? '127.0.0.1' });
  const shutdown = async () => {
    await app.close();
    await db.close();
    process.exit(0);
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}
