/**
 * The form rate limit: a fixed window per client and form type. In memory by default; in
 * Redis when REDIS_URL is set, so every instance counts together. The client is a keyed hash
 * of its subject (`rateLimitSubject`: the IPv4 address, or the IPv6 /64), so Redis never holds
 * an address either.
 *
 * Why not @fastify/rate-limit (decision 017): the limit depends on the form type, which is in
 * the body, and the check sits after JSON parsing and before validation, answering like every
 * other API error; these few lines do exactly that, and never drop a window before it expires.
 */
import { isIPv4, isIPv6 } from 'node:net';
import type { FastifyBaseLogger as Logger } from 'fastify';

/**
 * Who a rate-limit window belongs to: an IPv4 client by its address, an IPv6 client by its /64.
 * One IPv6 subscriber is given a whole /64 (often more), so counting single addresses would let
 * anyone take a fresh window per request. The address is normalised first: zone ids go, every
 * spelling of one address gives one subject, and an IPv4-mapped address (`::ffff:192.0.2.1`, as
 * a dual-stack socket reports an IPv4 client) is that IPv4 client. A value that is not an IP
 * address (none should reach here) is its own subject.
 */
export function rateLimitSubject(ip: string): string {
  const address = ip
    .trim()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/%.*$/, '');
  if (isIPv4(address)) return address;
  const groups = isIPv6(address) ? ipv6Groups(address) : undefined;
  if (!groups) return ip;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (node:net has checked its syntax). */
function ipv6Groups(address: string): number[] | undefined {
  let text = address.toLowerCase();
  // A dotted IPv4 tail (`::ffff:1.2.3.4`, `64:ff9b::1.2.3.4`) is two groups.
  const tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const left = parse(head);
  const right = rest === undefined ? [] : parse(rest);
  const groups =
    rest === undefined
      ? left
      : [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff)
    ? groups
    : undefined;
}

export type RateLimitResult = { allowed: boolean; retryAfterMs: number };

export type RateLimiter = {
  hit(key: string, max: number, windowMs: number): Promise<RateLimitResult>;
  close(): Promise<void>;
};

export function memoryRateLimiter(now: () => number = Date.now): RateLimiter {
  const windows = new Map<string, { count: number; resetAt: number }>();
  // Expired windows are dropped now and then, so memory follows the number of active clients.
  const sweep = setInterval(() => {
    const t = now();
    for (const [key, w] of windows) if (w.resetAt <= t) windows.delete(key);
  }, 60_000);
  sweep.unref();
  return {
    async hit(key, max, windowMs) {
      const t = now();
      let w = windows.get(key);
      if (!w || w.resetAt <= t) {
        w = { count: 0, resetAt: t + windowMs };
        windows.set(key, w);
      }
      w.count += 1;
      return { allowed: w.count <= max, retryAfterMs: w.resetAt - t };
    },
    async close() {
      clearInterval(sweep);
      windows.clear();
    },
  };
}

// One round trip: count, start the window on the first hit, report the time left.
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}`;

/** Loads the Redis client only when REDIS_URL asks for it: a single instance never holds it in memory. */
export async function redisRateLimiter(url: string, log: Logger, prefix = 'rl:'): Promise<RateLimiter> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, { maxRetriesPerRequest: 1, commandTimeout: 1000 });
  // Connection errors are reported by `hit`; ioredis reconnects by itself.
  redis.on('error', () => {});
  // An outage is logged when it starts and when it ends, never once per request (decision 031).
  let unavailableSince: number | undefined;
  let countedHere = 0;
  // While it is away each instance counts on its own: a lead still gets through, and one client
  // still meets its limit (per instance), so an outage is no open door to the forms or to the
  // owner's sign-in e-mails.
  const fallback = memoryRateLimiter();
  const counted = (key: string, max: number, windowMs: number) => {
    countedHere += 1;
    return fallback.hit(key, max, windowMs);
  };
  return {
    async hit(key, max, windowMs) {
      // Once it has failed, no request waits on it again until its connection is back.
      if (unavailableSince !== undefined && redis.status !== 'ready') return counted(key, max, windowMs);
      try {
        const [count, ttl] = (await redis.eval(HIT_SCRIPT, 1, prefix + key, String(windowMs))) as [
          number,
          number,
        ];
        if (unavailableSince !== undefined) {
          log.info(
            { unavailableMs: Date.now() - unavailableSince, countedHere },
            'rate limit store available again',
          );
          unavailableSince = undefined;
        }
        return { allowed: count <= max, retryAfterMs: ttl };
      } catch (error) {
        // A lead matters more than a shared count: with Redis away, this instance counts alone.
        if (unavailableSince === undefined) {
          log.warn({ code: (error as { code?: string }).code ?? 'REDIS' }, 'rate limit store unavailable');
          unavailableSince = Date.now();
          countedHere = 0;
        }
        return counted(key, max, windowMs);
      }
    },
    async close() {
      redis.disconnect();
      await fallback.close();
    },
  };
}
