/**
 * PGlite on a worker thread of its own, as the server runs it (decision 014), for the bench's
 * anchors: the database's work is off the main thread in the anchor as in the server, so the two
 * are compared on the same footing. `startPgliteThread(dir)` opens the database in `dir` with the
 * extensions the schema's indexes need and answers `{ query(sql, params) -> rows, exec(sql) ->
 * each statement's rows, close() }`; one statement runs at a time, in the order they were sent.
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

if (!isMainThread && workerData?.pgliteThread) await runThread(workerData.dir);

async function runThread(dir) {
  const [{ PGlite }, { pg_trgm }, { btree_gin }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
    import('@electric-sql/pglite/contrib/btree_gin'),
  ]);
  // The search index's operator classes: the schema's indexes need them to take a row.
  const db = await PGlite.create(dir, { extensions: { pg_trgm, btree_gin } });
  parentPort.on('message', ({ id, sql, params, exec }) => {
    const run = exec ? db.exec(sql).then((results) => results.map((r) => r.rows)) : db.query(sql, params);
    run.then(
      (result) => parentPort.postMessage({ id, rows: exec ? result : result.rows }),
      (error) => parentPort.postMessage({ id, error: String(error?.message ?? error) }),
    );
  });
  parentPort.postMessage({ ready: true });
}

/** Opens the PGlite database in `dir` on a thread of its own. */
export async function startPgliteThread(dir) {
  const worker = new Worker(new URL(import.meta.url), { workerData: { pgliteThread: true, dir } });
  const pending = new Map();
  let next = 0;
  await new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  worker.on('message', ({ id, rows, error }) => {
    const call = pending.get(id);
    pending.delete(id);
    if (error) call.reject(new Error(error));
    else call.resolve(rows);
  });
  const send = (message) =>
    new Promise((resolve, reject) => {
      next += 1;
      pending.set(next, { resolve, reject });
      worker.postMessage({ id: next, ...message });
    });
  return {
    query: (sql, params = []) => send({ sql, params }),
    exec: (sql) => send({ exec: true, sql }),
    close: () => worker.terminate(),
  };
}
