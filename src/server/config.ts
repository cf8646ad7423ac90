/**
 * The one reader of `process.env`. Every setting is validated here; a bad value stops
 * start-up with a message naming the variable. Defaults run the whole site on one machine
 * with nothing else installed (PGlite in DATA_DIR, e-mails as .eml files).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { z } from 'zod';

const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const boolFlag = z.preprocess(
  emptyToUndefined,
  z
    .enum(['true', 'false', '1', '0'], { message: 'must be true or false' })
    .optional()
    .transform((v) => v === 'true' || v === '1'),
);
const urlWithProtocol = (protocols: string[]) =>
  z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine(
        (v) => {
          try {
            return protocols.includes(new URL(v).protocol);
          } catch {
            return false;
          }
        },
        `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`,
      )
      .optional(),
  );

const EnvSchema = z.object({
  NODE_ENV: z.preprocess(
    emptyToUndefined,
    z.enum(['development', 'production', 'test']).default('production'),
  ),
  PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65535).default(3000)),
  HOST: z.preprocess(emptyToUndefined, z.string().default('0.0.0.0')),
  PUBLIC_URL: z.preprocess(
    emptyToUndefined,
    z
      .url({ protocol: /^https?$/, message: 'must be an http(s) URL such as https://www.example.com' })
      .default('http://localhost:3000')
      .transform((v) => v.replace(/\/+$/, '')),
  ),
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().default('./data')),
  BUILD_DIR: z.preprocess(emptyToUndefined, z.string().default('./build')),
  DATABASE_URL: urlWithProtocol(['postgres:', 'postgresql:']),
  SMTP_URL: urlWithProtocol(['smtp:', 'smtps:']),
  MAIL_FROM: z.preprocess(
    emptyToUndefined,
    z.email({ message: 'must be an e-mail address' }).default('hello@example.com'),
  ),
  OWNER_EMAIL: z.preprocess(
    emptyToUndefined,
    z.email({ message: 'must be an e-mail address' }).default('owner@example.com'),
  ),
  REDIS_URL: urlWithProtocol(['redis:', 'rediss:']),
  /** `false`, or the reverse proxies' addresses and CIDR ranges (parseTrustProxy). */
  TRUST_PROXY: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default('false')
      .transform((value, ctx) => {
        const parsed = parseTrustProxy(value);
        if ('error' in parsed) {
          ctx.addIssue({ code: 'custom', message: parsed.error });
          return z.NEVER;
        }
        return parsed.proxies;
      }),
  ),
  APP_SECRET: z.preprocess(emptyToUndefined, z.string().min(32, 'must be at least 32 characters').optional()),
  LOG_LEVEL: z.preprocess(
    emptyToUndefined,
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
  /** Bench-only: lifts the form rate limit so a load test measures the pipeline, not the limiter. */
  BENCH_DISABLE_RATE_LIMIT: boolFlag,
  /** Bench/test only: skips the minimum fill time check (machine-made submissions fill instantly). */
  BENCH_DISABLE_FILL_TIME: boolFlag,
  /** Forms submitted sooner than this after they appeared are treated as spam (people take seconds). */
  MIN_FILL_TIME_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(600_000).default(2500)),
  /** Most e-mails per hour that visitors' forms may send to visitors' addresses; the rest wait. */
  VISITOR_MAIL_HOURLY_CAP: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1).max(1_000_000).default(200),
  ),
  /** The static fast path (src/server/fast-static.ts); `false` serves everything through Node alone. */
  STATIC_FAST_PATH: z.preprocess(
    emptyToUndefined,
    z
      .enum(['true', 'false', '1', '0'], { message: 'must be true or false' })
      .default('true')
      .transform((v) => v === 'true' || v === '1'),
  ),
});

export type Config = {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  publicUrl: string;
  https: boolean;
  dataDir: string;
  buildDir: string;
  databaseUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  ownerEmail: string;
  redisUrl: string | undefined;
  /** The reverse proxies whose X-Forwarded-For is believed, or false: the socket's address is the client. */
  trustProxy: false | string[];
  appSecret: string;
  logLevel: string;
  benchDisableRateLimit: boolean;
  benchDisableFillTime: boolean;
  minFillTimeMs: number;
  visitorMailHourlyCap: number;
  staticFastPath: boolean;
};

export class ConfigError extends Error {}

/** With no APP_SECRET the server makes one and keeps it in DATA_DIR, so links survive restarts. */
function loadOrCreateSecret(dataDir: string): string {
  const file = join(dataDir, '.app-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

const TRUST_PROXY_HOW =
  "list the proxy's addresses or CIDR ranges instead, comma-separated (e.g. TRUST_PROXY=127.0.0.1 or TRUST_PROXY=10.0.0.0/8,fd00::/8)";

/**
 * TRUST_PROXY: `false`, or the addresses and CIDR ranges of the reverse proxies in front of the
 * server. Only a request whose socket is one of them has its client address taken from
 * X-Forwarded-For. `true` (anyone may say who they are) and a hop count (Fastify ignores
 * X-Forwarded-For for it, so every visitor would share the proxy's address and one rate-limit
 * window) are refused with what to set instead.
 */
export function parseTrustProxy(value: string): { proxies: false | string[] } | { error: string } {
  const whole = value.trim().toLowerCase();
  if (whole === 'false') return { proxies: false };
  if (whole === 'true') {
    return {
      error: `true would believe X-Forwarded-For from any client, so anyone could pick the address the rate limit counts; ${TRUST_PROXY_HOW}`,
    };
  }
  if (/^\d+$/.test(whole)) {
    return {
      error: `a hop count (${whole}) is not supported: Fastify ignores X-Forwarded-For for it, so every visitor would share the proxy's address and one rate-limit window; ${TRUST_PROXY_HOW}`,
    };
  }
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.length === 0) return { error: `names no address; ${TRUST_PROXY_HOW}` };
  for (const entry of entries) {
    const [address = '', prefix, extra] = entry.split('/');
    const family = address.includes('%') ? 0 : isIP(address);
    const bits = family === 4 ? 32 : 128;
    const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= bits);
    if (family === 0 || !prefixOk || extra !== undefined) {
      return {
        error: `"${entry}" is not an IP address or CIDR range; list the proxy's addresses or CIDR ranges, comma-separated (e.g. TRUST_PROXY=127.0.0.1 or TRUST_PROXY=10.0.0.0/8,fd00::/8)`,
      };
    }
    if (prefix !== undefined && Number(prefix) === 0) {
      return { error: `"${entry}" would trust every address, like true; ${TRUST_PROXY_HOW}` };
    }
  }
  return { proxies: entries };
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = resolve(e.DATA_DIR);
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicUrl: e.PUBLIC_URL,
    https: e.PUBLIC_URL.startsWith('https:'),
    dataDir,
    buildDir: resolve(e.BUILD_DIR),
    databaseUrl: e.DATABASE_URL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    ownerEmail: e.OWNER_EMAIL,
    redisUrl: e.REDIS_URL,
    trustProxy: e.TRUST_PROXY,
    appSecret: e.APP_SECRET ?? loadOrCreateSecret(dataDir),
    logLevel: e.LOG_LEVEL,
    benchDisableRateLimit: e.BENCH_DISABLE_RATE_LIMIT,
    benchDisableFillTime: e.BENCH_DISABLE_FILL_TIME,
    minFillTimeMs: e.MIN_FILL_TIME_MS,
    visitorMailHourlyCap: e.VISITOR_MAIL_HOURLY_CAP,
    staticFastPath: e.STATIC_FAST_PATH,
  };
}
