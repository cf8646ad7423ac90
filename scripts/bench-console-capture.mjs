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
 * Where statements are caught, at the database client's door and nothing of ours: `pg`'s
 * `Client.prototype.query` (the pool's clients are `pg.Client`s), on the embedded PostgreSQL and
 * on an external one alike (decision 052: one pool for both); each statement records which
 * connection ran it, so a transaction replays on one.
 *
 * Each statement records `after`: the last statement such that it and every one before it had
 * ended when this one was sent. A replay waits for those before sending it, so statements sent
 * together (Promise.all) are replayed together, and the others one after another.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import http from 'node:http';
import pg from 'pg';

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
