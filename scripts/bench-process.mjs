/**
 * A bench server process's life, shared by the bench's parts: ready (its /readyz answers), stopped
 * (SIGTERM, then SIGKILL after 20 s), and its peak memory.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

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
