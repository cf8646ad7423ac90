/**
 * A child process for heavy, seldom work (decision 049): started by its first job, kept
 * `idleMs` after its last for the next one to find it warm, then ended, so that all its memory
 * goes back to the system (a thread's is not all given back). Jobs and answers cross the IPC
 * channel by structured clone (Buffers as they are). The program answers each `{ id, job }` with
 * `{ id, result }` or `{ id, error: { name, message } }` (`serveJobs`); an error comes back as an
 * Error of the same name and message, which the caller may turn into its own kind.
 * The process never keeps the server alive, and ends itself when the server is gone.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export type WorkerProcess<Job, Result> = {
  run(job: Job): Promise<Result>;
  stop(): Promise<void>;
};

/** A job's failure as it crosses back. */
export type JobError = { name: string; message: string };

/**
 * A job that ran past `jobTimeoutMs`: its process is killed (a job may be stuck in a loop that
 * never yields), and the next job starts a fresh one.
 */
export class JobTimeout extends Error {
  override name = 'JobTimeout';
}

/** The process died while a job ran (killed, or out of its memory): `signal` or `code` says how. */
export class JobCrashed extends Error {
  override name = 'JobCrashed';
  constructor(
    message: string,
    readonly code: number | null,
    readonly signal: NodeJS.Signals | null,
  ) {
    super(message);
  }
}

export type WorkerProcessOptions = {
  /** Node's flags for the program, after the defaults (a memory limit: `--max-old-space-size=N`). */
  execArgv?: string[];
  /** How long a job may take before its process is killed and the job fails with JobTimeout. */
  jobTimeoutMs?: number;
};

type Answer<Result> = { id: number; result?: Result; error?: JobError };

/**
 * The program at `programUrl`: a `.mjs` beside the server bundle, or, when the server runs from
 * its TypeScript source (the tests), the `.ts` beside the caller, through tsx.
 */
function startProcess(programUrl: URL, extraArgv: string[]): ChildProcess {
  const typescript = programUrl.pathname.endsWith('.ts');
  return fork(fileURLToPath(programUrl), [], {
    // V8 set for size, as the server is (decisions 009, 015): the work is short and seldom.
    execArgv: [
      '--max-semi-space-size=4',
      '--optimize-for-size',
      ...extraArgv,
      ...(typescript ? ['--import', 'tsx'] : []),
    ],
    serialization: 'advanced',
    // Its errors reach the server's own error stream; it writes nothing else.
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
}

/** The program next to `moduleUrl` named `name` (`render-worker`): `.mjs` when bundled, `.ts` from source. */
export function programBeside(moduleUrl: string, name: string): URL {
  return new URL(`./${name}.${moduleUrl.endsWith('.ts') ? 'ts' : 'mjs'}`, moduleUrl);
}

export function workerProcess<Job, Result>(
  programUrl: URL,
  label: string,
  idleMs: number,
  { execArgv = [], jobTimeoutMs }: WorkerProcessOptions = {},
): WorkerProcess<Job, Result> {
  let child: ChildProcess | undefined;
  let idle: ReturnType<typeof setTimeout> | undefined;
  let nextId = 1;
  const pending = new Map<number, { resolve(result: Result): void; reject(error: Error): void }>();

  function fail(error: Error) {
    for (const call of pending.values()) call.reject(error);
    pending.clear();
    child = undefined;
  }

  function start(): ChildProcess {
    const started = startProcess(programUrl, execArgv);
    started.on('message', ({ id, result, error }: Answer<Result>) => {
      const call = pending.get(id);
      if (!call) return;
      pending.delete(id);
      if (error) call.reject(Object.assign(new Error(error.message), { name: error.name }));
      else call.resolve(result as Result);
    });
    started.once('error', (error) => {
      if (child === started) fail(error);
    });
    started.once('exit', (code, signal) => {
      if (child === started)
        fail(
          new JobCrashed(
            `The ${label} process stopped (${signal ?? code}) before it answered.`,
            code,
            signal,
          ),
        );
    });
    started.unref();
    started.channel?.unref();
    return started;
  }

  function end(process: ChildProcess): Promise<void> {
    if (process.exitCode !== null || process.signalCode !== null) return Promise.resolve();
    const exited = new Promise<void>((resolve) => process.once('exit', () => resolve()));
    process.kill('SIGTERM');
    return exited;
  }

  return {
    run(job) {
      clearTimeout(idle);
      child ??= start();
      const process = child;
      const id = nextId++;
      let timer: ReturnType<typeof setTimeout> | undefined;
      return new Promise<Result>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        if (jobTimeoutMs !== undefined)
          timer = setTimeout(() => {
            if (!pending.has(id)) return;
            // Every job of this process fails with it: it is killed, whatever it was doing.
            if (child === process) child = undefined;
            for (const call of pending.values())
              call.reject(new JobTimeout(`The ${label} process took longer than ${jobTimeoutMs} ms.`));
            pending.clear();
            process.kill('SIGKILL');
          }, jobTimeoutMs);
        // A job is held while it waits: the channel keeps the server's loop until the answer.
        process.channel?.ref();
        process.send({ id, job }, (error) => {
          if (error && pending.delete(id)) reject(error);
        });
      }).finally(() => {
        clearTimeout(timer);
        if (pending.size > 0 || child !== process) return;
        process.channel?.unref();
        idle = setTimeout(() => {
          if (child === process && pending.size === 0) {
            child = undefined;
            void end(process);
          }
        }, idleMs);
        idle.unref();
      });
    },
    async stop() {
      clearTimeout(idle);
      const process = child;
      fail(new Error(`The ${label} process was stopped.`));
      if (process) await end(process);
    },
  };
}

/** In the program: answers each job with `work`, in turn as they come; ends once the server is gone. */
export function serveJobs<Job, Result>(work: (job: Job) => Promise<Result>): void {
  if (!process.send) return;
  process.on('message', (message: { id: number; job: Job }) => {
    // A synchronous throw is answered as a rejection is.
    Promise.resolve(message.job)
      .then(work)
      .then(
        (result) => process.send?.({ id: message.id, result }),
        (error: unknown) =>
          process.send?.({
            id: message.id,
            error:
              error instanceof Error
                ? { name: error.name, message: error.message }
                : { name: 'Error', message: String(error) },
          }),
      );
  });
  process.once('disconnect', () => process.exit(0));
}
