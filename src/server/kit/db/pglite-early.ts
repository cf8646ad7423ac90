/**
 * The embedded database's thread, started while the server's code loads (decision 051).
 *
 * Opening PGlite (compiling Postgres' WebAssembly, unpacking its files, recovering the folder)
 * takes its thread some 0.7 s; loading the server's code takes the main thread about as long.
 * One after the other they made most of the time to ready. `npm start` (scripts/start.mjs)
 * calls `startEarly` before it imports the server, so the two run side by side on two cores;
 * `openDatabase` (./client.ts) then adopts the thread with `claimEarly` instead of starting one.
 *
 * The trick is held to this module, and it never decides anything but when the thread starts:
 * - it starts only for a database that already exists (its `PG_VERSION`): a first start's
 *   initdb is never raced with a process that may still stop on a setting;
 * - the folder and PGlite's settings are those `openDatabase` computes from the same environment
 *   (`embeddedDatabaseDir`, `embeddedSettings`), the folder made private first as `openDatabase`
 *   makes it; a thread for another folder or other settings is ended, after its start has
 *   settled, before another opens, and the ordinary start follows;
 * - a start that failed is adopted and fails as the ordinary start would, with the same error;
 * - until adopted the thread does not keep the process alive, and `endEarly` closes it when the
 *   server stops before adopting it (a setting refused at start);
 * - `DATABASE_EARLY_START=false` switches it off: the server then starts as before.
 *
 * The hand-over goes through a global slot: `scripts/start.mjs` loads this module as its own
 * bundle entry, before the server's bundle, which has its own copy of it.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { DEFAULT_DATA_DIR, ensurePrivateDir, isDataDirEntry } from '../data-dir-files';
import { databaseStopped } from './unavailable';

export type ThreadSettings = { dir: string; postgresqlconf: string[] };

/**
 * PGlite's settings. Its defaults size Postgres for a database server (128 MB of shared buffers,
 * all in this process's memory). The site's working set is small and the files sit in the OS
 * page cache anyway, so a smaller pool keeps the whole server well under 300 MB. ANALYZE holds its
 * sample of rows in that memory too, which PGlite's WebAssembly heap keeps for good once grown: 10
 * instead of 100 samples 3,000 rows instead of 30,000 (at 30, a restart that analysed the tables a
 * day of forms had changed was idle 15 MB higher), enough for the plans the site's queries need,
 * which lean on keys and ranges (decision 024, addendum).
 */
export const PGLITE_SETTINGS: readonly string[] = [
  'default_statistics_target = 10',
  'shared_buffers = 8MB',
  // The search index's pending list is merged into the index at 512 kB instead of 4 MB: a
  // smaller merge, in the same heap, whenever a form's insert crosses the limit.
  'gin_pending_list_limit = 512kB',
  'temp_buffers = 1MB',
  'wal_buffers = 512kB',
  'work_mem = 2MB',
  'maintenance_work_mem = 16MB',
];

/** The embedded database's folder in DATA_DIR. */
export const PGLITE_FOLDER = 'pglite';

/** A worker started, whose first message (ready, or why not) is awaited by `startup`. */
export type StartedThread = { settings: ThreadSettings; worker: Worker; startup: Promise<void> };

/** The fields of Postgres' errors that cross the thread: never the statement or its values. */
export const ERROR_FIELDS = [
  'code',
  'severity',
  'detail',
  'hint',
  'schema',
  'table',
  'column',
  'constraint',
  'routine',
] as const;

/** An error as it crosses the thread. */
export type ThreadError = { message: string } & Partial<Record<(typeof ERROR_FIELDS)[number], string>>;

/** A thread error as an Error, with Postgres' fields (`code`, `constraint`...) on it. */
export function toError(error: ThreadError): Error {
  return Object.assign(new Error(error.message), error);
}

type Startup = { ready: true } | { ready: false; error: ThreadError };

/**
 * The worker next to this module: `pglite-worker.mjs` in the server bundle; when the server runs
 * from its TypeScript source (the tests), `pglite-worker.ts` through tsx's loader.
 */
function newWorker(settings: ThreadSettings): Worker {
  if (!import.meta.url.endsWith('.ts')) {
    return new Worker(new URL('./pglite-worker.mjs', import.meta.url), { workerData: settings });
  }
  const source = JSON.stringify(new URL('./pglite-worker.ts', import.meta.url).href);
  return new Worker(
    `import('tsx/esm/api').then(({ register }) => { register(); return import(${source}); });`,
    { eval: true, workerData: settings },
  );
}

/**
 * Starts the database's worker. Its first message is listened for at once, since a worker's
 * message with no listener is lost: `startup` resolves when PGlite is open, and rejects with
 * Postgres' error (its fields on it) or when the thread fails or exits first.
 */
export function startPgliteWorker(settings: ThreadSettings): StartedThread {
  const worker = newWorker(settings);
  const startup = new Promise<void>((resolve, reject) => {
    const settle = () => {
      worker.off('error', fail);
      worker.off('exit', exited);
    };
    function fail(error: Error) {
      settle();
      reject(error);
    }
    const exited = (code: number) =>
      fail(databaseStopped(`The database thread exited (${code}) while starting.`));
    worker.once('message', (first: Startup) => {
      if (first.ready) {
        settle();
        resolve();
      } else {
        void worker.terminate();
        fail(toError(first.error));
      }
    });
    worker.once('error', fail);
    worker.once('exit', exited);
  });
  // Whoever adopts the thread reads the failure; until then it is nobody's unhandled rejection.
  startup.catch(() => {});
  return { settings, worker, startup };
}

/** The embedded database's folder as `openDatabase` opens it, or undefined when DATABASE_URL is set. */
export function embeddedDatabaseDir(env: NodeJS.ProcessEnv): string | undefined {
  if (env.DATABASE_URL?.trim()) return undefined;
  const dataDir = env.DATA_DIR?.trim() ? env.DATA_DIR : DEFAULT_DATA_DIR;
  return join(resolve(dataDir), PGLITE_FOLDER);
}

/** The settings `openDatabase` opens the embedded database in `dir` with. */
export const embeddedSettings = (dir: string): ThreadSettings => ({
  dir,
  postgresqlconf: [...PGLITE_SETTINGS],
});

const sameSettings = (a: ThreadSettings, b: ThreadSettings) =>
  a.dir === b.dir && a.postgresqlconf.join('\n') === b.postgresqlconf.join('\n');

const SLOT = Symbol.for('sterling-sats.early-database');
type Slot = { [SLOT]?: StartedThread };
const slot = globalThis as Slot;

/** Whether `DATABASE_EARLY_START` switches the early start off. */
const switchedOff = (value: string | undefined) =>
  ['false', '0', 'no', 'off'].includes(value?.trim().toLowerCase() ?? '');

/**
 * Starts the embedded database's thread now, for `openDatabase` to adopt (see above). Returns the
 * folder it was started for, or undefined when it was not: switched off, DATABASE_URL set, no
 * database there yet, or a folder that cannot be made private (the ordinary start says why).
 */
export function startEarly(env: NodeJS.ProcessEnv): string | undefined {
  if (switchedOff(env.DATABASE_EARLY_START) || slot[SLOT]) return undefined;
  const dir = embeddedDatabaseDir(env);
  if (!dir || !existsSync(join(dir, 'PG_VERSION'))) return undefined;
  try {
    ensurePrivateDir(resolve(dir, '..'), isDataDirEntry);
    ensurePrivateDir(dir);
  } catch {
    return undefined;
  }
  const started = startPgliteWorker(embeddedSettings(dir));
  // Not adopted yet: a process that stops before adopting it is not held open by it.
  started.worker.unref();
  slot[SLOT] = started;
  return dir;
}

/**
 * The thread started early with these settings, now the caller's (it holds the process open
 * again), or undefined: none was started, or it was for another folder or other settings, in which
 * case it is ended first.
 */
export async function claimEarly(settings: ThreadSettings): Promise<StartedThread | undefined> {
  const early = slot[SLOT];
  if (!early) return undefined;
  delete slot[SLOT];
  if (sameSettings(early.settings, settings)) {
    early.worker.ref();
    return early;
  }
  await endThread(early);
  return undefined;
}

/** Closes a thread started early and never adopted (the server stopping at start); else nothing. */
export async function endEarly(): Promise<void> {
  const early = slot[SLOT];
  if (!early) return;
  delete slot[SLOT];
  await endThread(early);
}

/** Lets the thread's start settle (it is opening the folder), then ends it. */
async function endThread(thread: StartedThread): Promise<void> {
  await thread.startup.catch(() => {});
  await thread.worker.terminate();
}
