/**
 * PGlite in a worker thread of its own (decision 014). PGlite runs each statement
 * synchronously in the thread that calls it; in the main thread, every insert stopped the
 * server from reading requests and writing answers. Here the main thread holds a small client
 * with the part of PGlite's interface that drizzle uses (`query`, `exec`, `transaction`,
 * `close`), and the worker (`./pglite-worker.ts`) runs the statements in order, as PGlite
 * always does: a transaction holds the database until it ends.
 */
import type { Results, Transaction } from '@electric-sql/pglite';
import { inBackgroundLane } from './lanes';
import {
  claimEarly,
  startPgliteWorker,
  toError,
  type StartedThread,
  type ThreadError,
  type ThreadSettings,
} from './pglite-early';
import { databaseStopped } from './unavailable';

export { ERROR_FIELDS, type ThreadError, type ThreadSettings } from './pglite-early';

export type ThreadRequest = { id: number } & (
  | {
      op: 'query';
      sql: string;
      params: unknown[];
      rowMode?: 'array' | 'object';
      /** Type ids read as text (drizzle's parsers, which all return the text unchanged). */
      textTypes?: number[];
      tx?: number;
    }
  | { op: 'exec'; sql: string; tx?: number }
  | { op: 'begin' }
  | { op: 'end'; tx: number; commit: boolean }
  | { op: 'close' }
);

export type ThreadReply = { id: number } & ({ ok: true; value: unknown } | { ok: false; error: ThreadError });

type QueryOptions = { rowMode?: 'array' | 'object'; parsers?: Record<number, unknown> };

/** What drizzle's PGlite driver calls on its client, and what `client.ts` needs to close it. */
export type PgliteThread = {
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(sql: string): Promise<Results[]>;
  transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T>;
  close(): Promise<void>;
};

/**
 * Opens the database on its thread: the one `npm start` started early for the same folder
 * (./pglite-early.ts, decision 051), or a new one.
 */
export async function openPgliteThread(settings: ThreadSettings): Promise<PgliteThread> {
  const started = (await claimEarly(settings)) ?? startPgliteWorker(settings);
  return pgliteClient(started);
}

/** The main thread's side of a started worker, once PGlite is open there. */
async function pgliteClient({ worker, startup }: StartedThread): Promise<PgliteThread> {
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let nextId = 1;
  let stopped: Error | undefined;
  // Statements of the background lane (lanes.ts) wait here until none other is in flight.
  let foreground = 0;
  let waiting: (() => void)[] = [];

  function stop(error: Error) {
    stopped ??= error;
    for (const call of pending.values()) call.reject(stopped);
    pending.clear();
    // Those waiting are sent, and refused at once.
    const ready = waiting;
    waiting = [];
    for (const go of ready) go();
  }

  await startup;

  worker.on('message', (reply: ThreadReply) => {
    const call = pending.get(reply.id);
    if (!call) return;
    pending.delete(reply.id);
    if (reply.ok) call.resolve(reply.value);
    else call.reject(toError(reply.error));
  });
  worker.on('error', (error) => stop(databaseStopped(`The database thread failed: ${error.message}`)));
  worker.on('exit', (code) => stop(databaseStopped(`The database thread exited (${code}).`)));

  const foregroundDone = () => {
    foreground -= 1;
    if (foreground > 0 || waiting.length === 0) return;
    const ready = waiting;
    waiting = [];
    for (const go of ready) go();
  };

  function send<T>(request: DistributiveOmit<ThreadRequest, 'id'>): Promise<T> {
    if (stopped) return Promise.reject(stopped);
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      worker.postMessage({ ...request, id });
    });
  }

  function call<T>(request: DistributiveOmit<ThreadRequest, 'id'>): Promise<T> {
    // A transaction's own statements never wait: it holds the database until it ends.
    const inTransaction = 'tx' in request && request.tx !== undefined;
    if (inBackgroundLane() && !inTransaction) {
      if (foreground === 0) return send(request);
      return new Promise<void>((resolve) => waiting.push(resolve)).then(() => send<T>(request));
    }
    foreground += 1;
    const sent = send<T>(request);
    sent.then(foregroundDone, foregroundDone);
    return sent;
  }

  function query<T>(sql: string, params: unknown[] = [], options: QueryOptions = {}, tx?: number) {
    const textTypes = options.parsers ? Object.keys(options.parsers).map(Number) : undefined;
    return call<Results<T>>({ op: 'query', sql, params, rowMode: options.rowMode, textTypes, tx });
  }

  return {
    query: (sql, params, options) => query(sql, params, options),
    exec: (sql) => call({ op: 'exec', sql }),
    async transaction(callback) {
      const tx = await call<number>({ op: 'begin' });
      let closed = false;
      const end = (commit: boolean) => {
        closed = true;
        return call<void>({ op: 'end', tx, commit });
      };
      const handle = {
        query: (sql: string, params?: unknown[], options?: QueryOptions) => query(sql, params, options, tx),
        exec: (sql: string) => call({ op: 'exec', sql, tx }),
        rollback: () => end(false),
        get closed() {
          return closed;
        },
      } as unknown as Transaction;
      let result;
      try {
        result = await callback(handle);
      } catch (error) {
        if (!closed) await end(false).catch(() => {});
        throw error;
      }
      if (!closed) await end(true);
      return result;
    },
    async close() {
      if (stopped) return;
      await call({ op: 'close' }).catch(() => {});
      stop(databaseStopped('The database is closed.'));
      await worker.terminate();
    },
  } satisfies PgliteThread;
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
