/**
 * A background job on a timer (the retention sweep, the console's chores): its first run a while
 * after start, so it never competes with start-up, then one every period. Runs never overlap: a
 * tick, or a `run()` call, while one is under way joins it. The timers never keep the process
 * alive, and `stop` ends them and waits for a run under way, so what the job uses (the database)
 * is not closed under it.
 */

export type PeriodicJob<T> = {
  /** Runs the job now, or joins the run under way. */
  run(): Promise<T>;
  /** No further ticks; resolves once a run under way has ended (however it ended). */
  stop(): Promise<void>;
};

export type Schedule = {
  /** The first run, this long after start. */
  firstAfterMs: number;
  /** Then one run every this long. */
  everyMs: number;
};

/**
 * Runs `job` on the schedule. The job reports its own failures: one that rejects anyway is left
 * for the next tick.
 */
export function runEvery<T>(job: () => Promise<T>, { firstAfterMs, everyMs }: Schedule): PeriodicJob<T> {
  let running: Promise<T> | undefined;
  const run = (): Promise<T> => {
    running ??= job().finally(() => (running = undefined));
    return running;
  };
  const tick = () => void run().catch(() => {});
  let interval: ReturnType<typeof setInterval> | undefined;
  const first = setTimeout(() => {
    tick();
    interval = setInterval(tick, everyMs);
    interval.unref();
  }, firstAfterMs);
  first.unref();
  return {
    run,
    async stop() {
      clearTimeout(first);
      if (interval) clearInterval(interval);
      await running?.catch(() => {});
    },
  };
}
