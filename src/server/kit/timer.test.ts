import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runEvery } from './timer';

/** A job whose runs end when the test says so. */
function heldJob() {
  const ends: ((value: number) => void)[] = [];
  const job = vi.fn(() => new Promise<number>((resolve) => ends.push(resolve)));
  return { job, end: (value = 0) => ends.shift()!(value) };
}

describe('runEvery', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('runs first after firstAfterMs, then every everyMs', async () => {
    const job = vi.fn(async () => 1);
    const timer = runEvery(job, { firstAfterMs: 1_000, everyMs: 100 });
    await vi.advanceTimersByTimeAsync(999);
    expect(job).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(job).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(300);
    expect(job).toHaveBeenCalledTimes(4);
    await timer.stop();
  });

  it('never overlaps runs: ticks and run() while one is under way join it', async () => {
    const { job, end } = heldJob();
    const timer = runEvery(job, { firstAfterMs: 10, everyMs: 10 });
    await vi.advanceTimersByTimeAsync(10);
    expect(job).toHaveBeenCalledTimes(1);
    const joined = timer.run();
    await vi.advanceTimersByTimeAsync(50);
    expect(job).toHaveBeenCalledTimes(1);
    end(7);
    expect(await joined).toBe(7);
    // The next tick starts a new run.
    await vi.advanceTimersByTimeAsync(10);
    expect(job).toHaveBeenCalledTimes(2);
    end();
    await timer.stop();
  });

  it('stop ends the ticks and waits for the run under way', async () => {
    const { job, end } = heldJob();
    const timer = runEvery(job, { firstAfterMs: 10, everyMs: 10 });
    await vi.advanceTimersByTimeAsync(10);
    let stopped = false;
    const stopping = timer.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(100);
    expect(stopped).toBe(false);
    end();
    await stopping;
    expect(stopped).toBe(true);
    await vi.advanceTimersByTimeAsync(100);
    expect(job).toHaveBeenCalledTimes(1);
  });

  it('stop before the first run: the job never runs', async () => {
    const job = vi.fn(async () => 1);
    const timer = runEvery(job, { firstAfterMs: 10, everyMs: 10 });
    await timer.stop();
    await vi.advanceTimersByTimeAsync(100);
    expect(job).not.toHaveBeenCalled();
  });

  it('a run that rejects leaves the ticks going, and stop still resolves', async () => {
    const job = vi.fn(async () => {
      throw new Error('database away');
    });
    const timer = runEvery(job, { firstAfterMs: 10, everyMs: 10 });
    await vi.advanceTimersByTimeAsync(30);
    expect(job).toHaveBeenCalledTimes(3);
    const run = timer.run();
    await expect(run).rejects.toThrow('database away');
    await expect(timer.stop()).resolves.toBeUndefined();
  });

  it('never keeps the process alive: both timers are unref’d', async () => {
    const timeouts = vi.spyOn(globalThis, 'setTimeout');
    const intervals = vi.spyOn(globalThis, 'setInterval');
    const timer = runEvery(async () => 1, { firstAfterMs: 10, everyMs: 10 });
    await vi.advanceTimersByTimeAsync(10);
    const first = timeouts.mock.results[0]!.value as NodeJS.Timeout;
    const interval = intervals.mock.results[0]!.value as NodeJS.Timeout;
    expect(first.hasRef()).toBe(false);
    expect(interval.hasRef()).toBe(false);
    await timer.stop();
  });
});
