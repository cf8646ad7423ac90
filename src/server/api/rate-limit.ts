/**
 * The form rate limit: a fixed window per client and form type. In memory by default; in
 * Redis when REDIS_URL is set, so every instance counts together. The client is a keyed hash
 * of its address, so Redis never holds an address either.
 *
 * Why not @fastify/rate-limit: the limit depends on the form type, which is in the body, and
 * the check must sit after JSON parsing and before validation; a dozen lines do exactly that.
 */
import type { FastifyBaseLogger as Logger } from 'fastify';

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
  return {
    async hit(key, max, windowMs) {
      try {
        const [count, ttl] = (await redis.eval(HIT_SCRIPT, 1, prefix + key, String(windowMs))) as [
          number,
          number,
        ];
        return { allowed: count <= max, retryAfterMs: ttl };
      } catch (error) {
        // A lead matters more than a perfect count: with Redis away, let the request through.
        log.warn({ code: (error as { code?: string }).code ?? 'REDIS' }, 'rate limit store unavailable');
        return { allowed: true, retryAfterMs: 0 };
      }
    },
    async close() {
      redis.disconnect();
    },
  };
}
