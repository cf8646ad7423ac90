/**
 * The database's background lane (decision 033). PGlite runs every statement on its one thread,
 * in the order asked; a long job that always has its next statement waiting there (an export
 * reads ahead) makes every visitor's statement wait behind it. A statement asked for inside
 * `inBackground` is sent to the thread only when no other statement is in flight there, so a
 * visitor's waits for at most the one background statement already running. On Postgres the lane
 * changes nothing: a job holds one connection of the pool, and the others stay free.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const lane = new AsyncLocalStorage<true>();

/** Runs `job` with its statements in the background lane (see above). */
export function inBackground<T>(job: () => T): T {
  return lane.run(true, job);
}

/** Whether the statement being asked for now is in the background lane. */
export function inBackgroundLane(): boolean {
  return lane.getStore() === true;
}
