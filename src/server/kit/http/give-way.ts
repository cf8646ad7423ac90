/**
 * Downloads give way to visitors (decision 034). A full export keeps the event loop, the CPU and
 * the database busy for many seconds; on a small machine each visitor's request then waits
 * behind the export's work and shares the cores with it, and the public site slows down while
 * the owner downloads. The server counts the requests in flight (every request from its arrival
 * to the close of its response, a download's own excepted); a download asks for its `turn`
 * before each small piece of work, and while any visitor's request is in flight, or one ended
 * less than `quietMs` ago (its client, often on the same cores, is still reading the answer), it
 * waits. So a visitor waits for at most the one piece under way, and has the cores meanwhile.
 * A wait is bounded (`maxWaitMs`), and one that reached its bound is followed by a slice of work
 * (`sliceMs`) without giving way: under a steady stream of visitors a download still gets about
 * a tenth of the time, and ends.
 *
 * `DOWNLOADS_GIVE_WAY=false` turns it off: `turn` never waits, and a download runs as fast as
 * the socket takes it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export type GiveWay = {
  /** Counts `req` as in flight until `res` closes (answered, cut or left by the client). */
  arrived(req: IncomingMessage, res: ServerResponse): void;
  /** `req` is a download's own (it must not wait for itself): no longer counted. */
  excuse(req: IncomingMessage): void;
  /**
   * Nothing when no visitor's request is in flight (go on at once, no promise to await); else a
   * promise that resolves when none is, or after `maxWaitMs`.
   */
  turn(): Promise<void> | undefined;
  /** The requests counted now. */
  readonly inFlight: number;
};

export type GiveWayOptions = {
  /** false: `turn` never waits (DOWNLOADS_GIVE_WAY=false). */
  enabled: boolean;
  /** The longest a download waits for its turn before doing one more piece (ms). */
  maxWaitMs?: number;
  /** How long no request must have been in flight before a download goes on (ms). */
  quietMs?: number;
  /** After a wait that reached maxWaitMs, how long a download goes on before it gives way again (ms). */
  sliceMs?: number;
};

/** A wait's bound: long enough for a visitor's request to be answered, short enough that a download moves. */
export const GIVE_WAY_MAX_WAIT_MS = 100;
/** A visitor's answer still has to be read by their client, often on the same machine's cores. */
export const GIVE_WAY_QUIET_MS = 10;
/** A download's least share of the time under a steady stream of visitors: a slice per longest wait. */
export const GIVE_WAY_SLICE_MS = 10;

export function createGiveWay({
  enabled,
  maxWaitMs = GIVE_WAY_MAX_WAIT_MS,
  quietMs = GIVE_WAY_QUIET_MS,
  sliceMs = GIVE_WAY_SLICE_MS,
}: GiveWayOptions): GiveWay {
  /** The requests counted: each leaves once, at its response's close or when excused. */
  const counted = new WeakSet<IncomingMessage>();
  let inFlight = 0;
  /** When the last counted request left. */
  let lastLeft = -Infinity;
  let clear: { promise: Promise<void>; resolve: () => void } | undefined;
  let quietTimer: NodeJS.Timeout | undefined;
  /** Until when a download that waited its longest goes on without giving way. */
  let sliceEnd = -Infinity;

  const quietFor = () => performance.now() - lastLeft;
  /** Resolves the waiters once no request is in flight and none has left for quietMs. */
  const settle = () => {
    quietTimer = undefined;
    if (!clear || inFlight > 0) return;
    const left = quietMs - quietFor();
    if (left > 0) {
      quietTimer = setTimeout(settle, left);
      quietTimer.unref();
      return;
    }
    clear.resolve();
    clear = undefined;
  };

  const leave = (req: IncomingMessage) => {
    if (!counted.delete(req)) return;
    inFlight -= 1;
    lastLeft = performance.now();
    if (inFlight === 0 && clear && !quietTimer) settle();
  };

  return {
    arrived(req, res) {
      if (counted.has(req)) return;
      counted.add(req);
      inFlight += 1;
      res.once('close', () => leave(req));
    },
    excuse: leave,
    turn() {
      if (!enabled || (inFlight === 0 && quietFor() >= quietMs)) return undefined;
      if (performance.now() < sliceEnd) return undefined;
      if (!clear) {
        let resolve!: () => void;
        const promise = new Promise<void>((done) => (resolve = done));
        clear = { promise, resolve };
        if (inFlight === 0 && !quietTimer) settle();
      }
      const waiting = clear.promise;
      let timer: NodeJS.Timeout | undefined;
      const bound = new Promise<void>((done) => {
        timer = setTimeout(() => {
          // Waited its longest: the download goes on for a slice before it gives way again.
          sliceEnd = performance.now() + sliceMs;
          done();
        }, maxWaitMs);
        timer.unref();
      });
      return Promise.race([waiting, bound]).finally(() => clearTimeout(timer));
    },
    get inFlight() {
      return inFlight;
    },
  };
}
