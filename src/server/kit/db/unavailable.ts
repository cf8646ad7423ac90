/**
 * A database that cannot be reached (PostgreSQL restarting, its network gone, the embedded
 * cluster's socket gone while it restarts) is an outage, not a fault of the request: the API answers it 503 with Retry-After, and
 * the form in the browser keeps every value and says to try again (decision 031). Everything
 * else a statement throws stays a 500.
 */

// Node's socket errors, on connecting or mid-query.
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
// PostgreSQL's: shutting down or starting (57P01-57P03), too many connections (53300), and the
// connection exceptions (class 08).
const SQLSTATES = /^(57P0[1-3]|53300|08\d{3})$/;
// What node-postgres throws without a code when a connection ends, or none can be had in time.
const PG_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Cannot use a pool after calling end|Client has encountered a connection error)/;

/** True when `error` (or an error it wraps, as drizzle's query errors do) says the database is out of reach. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; depth += 1) {
    const { code, message, cause } = e as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string' && (SOCKET_CODES.has(code) || SQLSTATES.test(code))) return true;
    // A Unix socket that is not there: the embedded cluster stopped (decision 052).
    if (code === 'ENOENT' && (e as { syscall?: unknown }).syscall === 'connect') return true;
    if (typeof message === 'string' && PG_MESSAGES.test(message)) return true;
    e = cause;
  }
  return false;
}

/** Seconds a client is asked to wait before trying again. */
export const RETRY_AFTER_SECONDS = 5;

type OutageLog = {
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
};

/**
 * An outage is logged when its first request is refused, then at most every `everyMs` while
 * requests go on being refused (with how many were), and once when the database is reached again
 * (`reachable`, on a new connection): never once per request.
 */
export function outageLog(everyMs = 30_000, now: () => number = Date.now) {
  let since: number | undefined;
  let loggedAt = -Infinity;
  let refused = 0;
  let total = 0;
  let log: OutageLog | undefined;
  return {
    refused(requestLog: OutageLog, code: unknown) {
      log = requestLog;
      since ??= now();
      refused += 1;
      total += 1;
      if (now() - loggedAt < everyMs) return;
      log.warn(
        { code: typeof code === 'string' ? code : undefined, refused },
        'database unavailable: answered 503',
      );
      loggedAt = now();
      refused = 0;
    },
    reachable() {
      if (since === undefined) return;
      log?.info({ unavailableMs: now() - since, refused: total }, 'database reachable again');
      since = undefined;
      loggedAt = -Infinity;
      refused = 0;
      total = 0;
    },
  };
}

/** The process's outage: refused by the API's error handler, reachable again by the pool. */
export const databaseOutage = outageLog();
