/**
 * The console bench's statement log (decision 027, addendum): loaded into the console server
 * with `--import` (NODE_OPTIONS) by scripts/bench-console.ts, it writes down the SQL statements,
 * with their values, that one request makes the database run, so that the bench can have a bare
 * client run the very same statements (scripts/bench-console-anchor.mjs).
 *
 * Only requests that carry an `x-bench-statements: <tag>` header are followed: the request runs
 * in an AsyncLocalStorage context holding its record, and each statement sent while that context
 * is current (the request's, and whatever it started) is added to it. Statements of the
 * background jobs (outbox, chores) run outside any request and are never recorded. The bench
 * tags untimed requests made before its timed ones, and the erasures, which can be made once
 * only; `GET /__bench/statements` answers every record kept so far as JSON and forgets them, and
 * turns the context tracking off until the next tagged request (on Node 20 an AsyncLocalStorage
 * in use adds a hook to every promise), so the timed requests run with none of this.
 *
 * Where statements are caught, at the database client's door and nothing of ours:
 *  - Postgres: `pg`'s `Client.prototype.query` (the pool's clients are `pg.Client`s); each
 *    statement records which connection ran it, so a transaction replays on one connection;
 *  - PGlite: the server runs PGlite in a worker thread (decision 014); the messages posted to a
 *    worker that carry an `op` and an `id` are the statements (`query`, `exec`) and the
 *    transactions' `begin` and `end`, and the worker's answers with the same `id` end them.
 * Each statement records `after`: the last statement such that it and every one before it had
 * ended when this one was sent. A replay waits for those before sending it, so statements sent
 * together (Promise.all) are replayed together, and the others one after another.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import http from 'node:http';
import { Worker } from 'node:worker_threads';

const HEADER = 'x-bench-statements';
const PATH = '/__bench/statements';
const storage = new AsyncLocalStorage();
/** Records by tag, in the order their requests arrived. */
let records = new Map();

/** A value as JSON can carry it: dates as ISO text, 64-bit integers as text, bytes as base64. */
function portable(value) {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Uint8Array) return { $bytes: Buffer.from(value).toString('base64') };
  if (Array.isArray(value)) return value.map(portable);
  return value;
}

/** Adds a statement to the current request's record; answers its `end` callback, or nothing. */
function note(statement) {
  const record = storage.getStore();
  if (!record) return undefined;
  const index = record.statements.length;
  record.statements.push({ ...statement, after: record.settled - 1 });
  record.ended.push(false);
  return () => {
    record.ended[index] = true;
    while (record.settled < record.ended.length && record.ended[record.settled]) record.settled += 1;
  };
}

const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function (event, request, response) {
  if (event !== 'request') return emit.apply(this, arguments);
  if (request.url === PATH) {
    const body = JSON.stringify(Object.fromEntries([...records].map(([tag, r]) => [tag, r.statements])));
    records = new Map();
    storage.disable();
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(body);
    return true;
  }
  const tag = request.headers[HEADER];
  if (typeof tag !== 'string') return emit.apply(this, arguments);
  const record = { statements: [], ended: [], settled: 0 };
  records.set(tag, record);
  return storage.run(record, () => emit.call(this, event, request, response));
};

if (process.env.DATABASE_URL) {
  const { default: pg } = await import('pg');
  const query = pg.Client.prototype.query;
  const connections = new WeakMap();
  let nextConnection = 0;
  pg.Client.prototype.query = function (config, values) {
    if (!storage.getStore()) return query.apply(this, arguments);
    if (!connections.has(this)) connections.set(this, (nextConnection += 1));
    const text = typeof config === 'string' ? config : config?.text;
    const params = typeof config === 'object' && config?.values ? config.values : values;
    const end = note({
      conn: connections.get(this),
      op: 'query',
      sql: text,
      params: Array.isArray(params) ? portable(params) : [],
    });
    const args = [...arguments];
    const last = args.length - 1;
    if (end && typeof args[last] === 'function') {
      const done = args[last];
      args[last] = function () {
        end();
        return done.apply(this, arguments);
      };
      return query.apply(this, args);
    }
    const result = query.apply(this, args);
    if (end && typeof result?.then === 'function') result.then(end, end);
    return result;
  };
} else {
  const post = Worker.prototype.postMessage;
  /** By worker: the statements sent and not yet answered, by message id. */
  const pending = new WeakMap();
  Worker.prototype.postMessage = function (message) {
    if (
      storage.getStore() &&
      message &&
      typeof message === 'object' &&
      typeof message.op === 'string' &&
      typeof message.id === 'number'
    ) {
      if (!pending.has(this)) {
        const waiting = new Map();
        pending.set(this, waiting);
        this.on('message', (reply) => {
          const end = waiting.get(reply?.id);
          if (end) {
            waiting.delete(reply.id);
            end();
          }
        });
      }
      const end = note({
        op: message.op,
        sql: message.sql,
        params: Array.isArray(message.params) ? portable(message.params) : [],
        ...(message.op === 'end' ? { commit: message.commit !== false } : {}),
      });
      if (end) pending.get(this).set(message.id, end);
    }
    return post.apply(this, arguments);
  };
}
