/**
 * The embedded database's own thread. PGlite runs Postgres as WebAssembly, synchronously, in
 * the thread that calls it: here it has a worker thread to itself, so the main thread goes on
 * reading requests and writing answers while a statement runs. The main thread's side, and the
 * messages both sides speak, are in `./pglite-thread.ts`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import {
  ERROR_FIELDS,
  type ThreadError,
  type ThreadReply,
  type ThreadRequest,
  type ThreadSettings,
} from './pglite-thread';

const port = parentPort!;
const { dir, postgresqlconf } = workerData as ThreadSettings;

function describeError(error: unknown): ThreadError {
  if (!(error instanceof Error)) return { message: String(error) };
  const out: ThreadError = { message: error.message };
  const fields = error as unknown as Record<string, unknown>;
  for (const key of ERROR_FIELDS) {
    if (typeof fields[key] === 'string') out[key] = fields[key];
  }
  return out;
}

/** Type ids whose values stay as Postgres wrote them (drizzle reads dates and intervals itself). */
function parsersFor(textTypes: readonly number[] | undefined) {
  if (!textTypes || textTypes.length === 0) return undefined;
  return Object.fromEntries(textTypes.map((id) => [id, (value: string) => value]));
}

/** Thrown inside PGlite's transaction callback so that PGlite rolls the transaction back. */
const ROLLBACK = Symbol('rollback');

type OpenTransaction = { tx: Transaction; finish(commit: boolean): Promise<void> };

async function main() {
  let pglite: PGlite;
  try {
    // pg_trgm and btree_gin: the console's search index (drizzle/0003 and 0009).
    pglite = await PGlite.create(dir, { postgresqlconf, extensions: { pg_trgm, btree_gin } });
  } catch (error) {
    port.postMessage({ ready: false, error: describeError(error) });
    return;
  }
  const transactions = new Map<number, OpenTransaction>();
  let nextTransaction = 1;

  function target(id: number | undefined) {
    if (id === undefined) return pglite;
    const open = transactions.get(id);
    if (!open) throw new Error('Transaction is closed');
    return open.tx;
  }

  /**
   * Opens a transaction inside PGlite's own `transaction`, which holds the database (every
   * other statement waits) until the main thread sends `end`: then it commits, or rolls back.
   */
  function begin(): Promise<number> {
    const id = nextTransaction++;
    return new Promise((opened, failed) => {
      let decide!: (commit: boolean) => void;
      const decided = new Promise<boolean>((resolve) => (decide = resolve));
      const done = pglite.transaction(async (tx) => {
        transactions.set(id, { tx, finish });
        opened(id);
        if (!(await decided)) throw ROLLBACK;
      });
      function finish(commit: boolean): Promise<void> {
        decide(commit);
        return done.then(
          () => undefined,
          (error: unknown) => {
            if (error !== ROLLBACK) throw error;
          },
        );
      }
      done.then(
        () => transactions.delete(id),
        (error: unknown) => {
          transactions.delete(id);
          failed(error); // BEGIN itself failed; once opened, this does nothing
        },
      );
    });
  }

  function end(id: number, commit: boolean): Promise<void> {
    const open = transactions.get(id);
    if (!open) return Promise.reject(new Error('Transaction is closed'));
    return open.finish(commit);
  }

  async function handle(request: ThreadRequest): Promise<unknown> {
    switch (request.op) {
      case 'query': {
        const parsers = parsersFor(request.textTypes);
        return target(request.tx).query(request.sql, request.params, {
          rowMode: request.rowMode,
          ...(parsers ? { parsers } : {}),
        });
      }
      case 'exec':
        return target(request.tx).exec(request.sql);
      case 'begin':
        return begin();
      case 'end':
        return end(request.tx, request.commit);
      case 'close':
        await pglite.close();
        return undefined;
    }
  }

  port.on('message', (request: ThreadRequest) => {
    handle(request)
      .then(
        (value) => port.postMessage({ id: request.id, ok: true, value } satisfies ThreadReply),
        (error: unknown) =>
          port.postMessage({ id: request.id, ok: false, error: describeError(error) } satisfies ThreadReply),
      )
      // Closed: the answer above is the last message, and the thread ends with nothing left to do.
      .finally(() => {
        if (request.op === 'close') port.close();
      });
  });
  port.postMessage({ ready: true });
}

void main();
