/**
 * A bench server process's life, shared by the bench's parts: ready (its /readyz answers), stopped
 * (SIGTERM, then SIGKILL after 20 s), its peak memory, and the memory of its embedded database.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

/** Resolves once `base`/readyz answers; fails if the process ends first or after `timeoutMs`. */
export async function waitReady(base, child, timeoutMs = 120_000) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${base} exited before it was ready`);
    try {
      if ((await fetch(`${base}/readyz`)).ok) return;
    } catch {
      /* not listening yet */
    }
    await sleep(20);
  }
  throw new Error(`${base} did not become ready`);
}

export async function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(20_000).then(() => child.kill('SIGKILL'))]);
}

/** Peak resident set size of a process so far (the kernel's high-water mark), in MB. */
export function peakRssMb(pid) {
  const kb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  return Math.round((kb / 1024) * 10) / 10;
}

/**
 * The highest peak resident set size among a process's children now alive, in MB (the published
 * pages' render process, decision 049), or 0 when it has none.
 */
export function childrenPeakRssMb(pid) {
  let peak = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    let children = '';
    try {
      children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8');
    } catch {
      continue;
    }
    for (const child of children.split(/\s+/).filter(Boolean)) {
      try {
        peak = Math.max(peak, peakRssMb(Number(child)));
      } catch {
        // Ended since it was listed.
      }
    }
  }
  return peak;
}

// ---------------------------------------------------------------------------------------------
// The embedded database's memory (decision 052): PostgreSQL's own processes, not the server's.

/** The embedded cluster's folder in a DATA_DIR (src/server/kit/db/embedded-cluster.ts). */
const CLUSTER_FOLDER = 'postgres';

/** The postmaster's pid of `dataDir`'s embedded cluster (the first line of its postmaster.pid), if it runs. */
export function postmasterPid(dataDir) {
  let text;
  try {
    text = readFileSync(join(dataDir, CLUSTER_FOLDER, 'postmaster.pid'), 'utf8');
  } catch {
    return undefined;
  }
  const pid = Number(text.split('\n')[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/** A process and all its descendants, by /proc/<pid>/task/<tid>/children. */
function tree(pid) {
  const pids = [pid];
  for (let i = 0; i < pids.length; i += 1) {
    let tasks = [];
    try {
      tasks = readdirSync(`/proc/${pids[i]}/task`);
    } catch {
      continue;
    }
    for (const task of tasks) {
      try {
        const children = readFileSync(`/proc/${pids[i]}/task/${task}/children`, 'utf8');
        for (const child of children.split(/\s+/).filter(Boolean)) pids.push(Number(child));
      } catch {
        // Ended since it was listed.
      }
    }
  }
  return pids;
}

/**
 * The proportional set size of a process and all its descendants, summed, in MB (0 when `pid` is
 * gone). PSS, not RSS: each of PostgreSQL's processes maps the same shared buffers, which RSS would
 * count once per process; PSS shares every page among the processes that map it.
 */
export function treePssMb(pid) {
  let kb = 0;
  for (const member of tree(pid)) {
    try {
      kb += Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${member}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
    } catch {
      // Ended since it was listed.
    }
  }
  return Math.round((kb / 1024) * 10) / 10;
}

/** The memory of `dataDir`'s embedded database now: its postmaster's and its children's PSS, in MB. */
export function databasePssMb(dataDir) {
  const pid = postmasterPid(dataDir);
  return pid === undefined ? 0 : treePssMb(pid);
}

/**
 * Samples `dataDir`'s embedded database's PSS (databasePssMb) every `everyMs` until stopped: the
 * kernel keeps no high-water mark of PSS, so its peak is the highest sample. The postmaster is
 * looked up at every sample, so a server started again on the same folder is followed too. The
 * samples are read on a thread of their own (a few ms of the kernel's time each, walking every
 * process's page tables), so a load generator in this process is not held up by them.
 * `peakMb` the highest sample so far, `nowMb` the last, `reset()` starts the peak again from the
 * last sample, `stop()` ends the sampling (after one last sample) and answers the peak.
 */
export function sampleDatabasePss(dataDir, everyMs = 500) {
  let peak = 0;
  let last = 0;
  const take = (mb) => {
    if (mb > 0) {
      last = mb;
      peak = Math.max(peak, mb);
    }
  };
  const worker = new Worker(new URL(import.meta.url), { workerData: { databasePss: { dataDir, everyMs } } });
  worker.unref();
  let ended;
  const done = new Promise((resolve) => {
    worker.on('message', (message) => {
      if (typeof message === 'number') take(message);
      else if (message?.last !== undefined) {
        take(message.last);
        resolve();
      }
    });
    worker.once('error', () => resolve());
    worker.once('exit', () => resolve());
  });
  return {
    get peakMb() {
      return peak;
    },
    get nowMb() {
      return last;
    },
    reset() {
      peak = last;
    },
    async stop() {
      ended ??= (async () => {
        worker.postMessage('stop');
        await done;
        await worker.terminate();
      })();
      await ended;
      return peak;
    },
  };
}

/** The sampling thread of sampleDatabasePss: a sample every `everyMs`, and a last one when asked to stop. */
function runDatabasePssSampler({ dataDir, everyMs }) {
  const timer = setInterval(() => parentPort.postMessage(databasePssMb(dataDir)), everyMs);
  parentPort.postMessage(databasePssMb(dataDir));
  parentPort.on('message', (message) => {
    if (message !== 'stop') return;
    clearInterval(timer);
    parentPort.postMessage({ last: databasePssMb(dataDir) });
    parentPort.close();
  });
}

/** MB figures added and rounded as the tables show them. */
export const sumMb = (...figures) => Math.round(figures.reduce((a, b) => a + (b ?? 0), 0) * 10) / 10;

if (!isMainThread && workerData?.databasePss) runDatabasePssSampler(workerData.databasePss);
