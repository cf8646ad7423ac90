/**
 * The one reader of `process.env`. Every setting is validated here; a bad value stops
 * start-up with a message naming the variable. Defaults run the whole site on one machine
 * with nothing else installed (an embedded PostgreSQL in DATA_DIR, e-mails as .eml files).
 */
import { BACKUP_ENV, backupSettings, type BackupSettings } from './backup/settings';
import { bounceSettings } from './mail/bounce-settings';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { z } from 'zod';
import type { ConsoleRole } from '~/contract/roles';
import { ConfigError, DEFAULT_DATA_DIR, loadOrCreateDkimKey, loadOrCreateSecret } from './data-dir-files';

export { ConfigError, DKIM_KEY_FILE, ensurePrivateDir, isDataDirEntry } from './data-dir-files';

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

/** One person of the console as configured: an address, and the name given with it, if any. */
type Listed = { email: string; name: string | undefined };

/** Control and bidirectional formatting characters: never part of a name shown in the console. */
const UNPRINTABLE = /[\p{Cc}\p{Cf}]/gu;

/** `Ada Lovelace <ada@example.com>` or `ada@example.com`: the address lower-cased, the name trimmed. */
function listedPerson(entry: string): Listed | undefined {
  const named = /^(.*?)\s*<([^<>]*)>$/.exec(entry);
  const email = (named ? named[2]! : entry).trim().toLowerCase();
  if (!z.email().safeParse(email).success) return undefined;
  const name = named?.[1]
    ?.replace(UNPRINTABLE, '')
    .replace(/^"(.*)"$/, '$1')
    .trim()
    .slice(0, 60);
  return { email, name: name || undefined };
}

/** A comma-separated list of the console's people (OWNER_EMAILS, HELPER_EMAILS). */
const peopleList = () =>
  z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default('')
      .transform((value, ctx) => {
        const list: Listed[] = [];
        for (const entry of value.split(',').map((e) => e.trim())) {
          if (entry === '') continue;
          const person = listedPerson(entry);
          if (!person) {
            ctx.addIssue({
              code: 'custom',
              message: `"${entry}" is not an e-mail address (write ada@example.com, or Ada <ada@example.com>)`,
            });
            return z.NEVER;
          }
          list.push(person);
        }
        return list;
      }),
  );

/** What a production server must be told; left unset, the site runs but mail does not reach anyone real. */
export const ESSENTIALS = ['SMTP_URL', 'OWNER_EMAIL', 'MAIL_FROM', 'PUBLIC_URL'] as const;
const ESSENTIAL_DEFAULTS: Record<(typeof ESSENTIALS)[number], string | undefined> = {
  SMTP_URL: undefined,
  OWNER_EMAIL: 'owner@example.com',
  MAIL_FROM: 'hello@example.com',
  PUBLIC_URL: 'http://localhost:3000',
};

/** A domain name such as refused.test. */
const DOMAIN = /^[a-z0-9.-]+\.[a-z]+$/i;

const EnvSchema = z.object({
  ...BACKUP_ENV,
  /** Set by `npm run restore` for its sandbox: no e-mail, calendar fetch, alert or backup. */
  SANDBOX: boolFlag,
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
      .default(ESSENTIAL_DEFAULTS.PUBLIC_URL!)
      .transform((v) => v.replace(/\/+$/, '')),
  ),
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().default(DEFAULT_DATA_DIR)),
  BUILD_DIR: z.preprocess(emptyToUndefined, z.string().default('./build')),
  DATABASE_URL: urlWithProtocol(['postgres:', 'postgresql:']),
  SMTP_URL: urlWithProtocol(['smtp:', 'smtps:']),
  MAIL_FROM: z.preprocess(
    emptyToUndefined,
    z.email({ message: 'must be an e-mail address' }).default(ESSENTIAL_DEFAULTS.MAIL_FROM!),
  ),
  OWNER_EMAIL: z.preprocess(
    emptyToUndefined,
    z.email({ message: 'must be an e-mail address' }).default(ESSENTIAL_DEFAULTS.OWNER_EMAIL!),
  ),
  /** The name the console gives OWNER_EMAIL in its bar and audit log (default: the address's local part). */
  OWNER_NAME: z.preprocess(emptyToUndefined, z.string().optional()),
  /**
   * Further owners of the console, comma-separated, each an address or `Name <address>`
   * (OWNER_EMAIL always is one).
   */
  OWNER_EMAILS: peopleList(),
  /** Helpers: they may read and answer leads and bookings, nothing more (decision 032). Same form. */
  HELPER_EMAILS: peopleList(),
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
  /** Minutes between two fetches of the owner's calendar address (decision 037). */
  CALENDAR_FEED_EVERY_MINUTES: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1).max(1440).default(15),
  ),
  // Tests only: the owner's calendar over http and from private addresses; alerts to a push service
  // over http and at a private address; with e-mails written as files (no SMTP_URL), a recipient at
  // MAIL_FILE_REFUSED_DOMAIN refused as a relay refuses an unknown mailbox (550).
  CALENDAR_FEED_ALLOW_HTTP: boolFlag,
  CALENDAR_FEED_ALLOW_PRIVATE: boolFlag,
  PUSH_ALLOW_LOCAL: boolFlag,
  MAIL_FILE_REFUSED_DOMAIN: z.preprocess(
    emptyToUndefined,
    z.string().regex(DOMAIN, 'must be a domain').optional(),
  ),
  MIN_FILL_TIME_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(600_000).default(2500)),
  /** Most e-mails per hour that visitors' forms may send to visitors' addresses; the rest wait. */
  VISITOR_MAIL_HOURLY_CAP: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1).max(1_000_000).default(200),
  ),
  /**
   * With SMTP_URL: how long an e-mail claimed for sending stays out of other instances' reach, in
   * seconds. A send gives up 10 s before, so no two instances ever send one row; the e-mails a
   * crashed instance had in flight go again once it has passed. Tests shorten it.
   */
  OUTBOX_LEASE_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(15).max(3600).default(60)),
  /**
   * The most booking requests that hold their first choice at once (decision 053); the rest still
   * reach the owner, holding nothing. The browser tests raise it: their requests all hold.
   */
  BOOKING_HOLDS_MAX: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(1000).default(10)),
  /** Newsletter e-mails a second at most (decision 046); 0: as fast as the relay takes them. */
  NEWSLETTER_SEND_RATE: z.preprocess(emptyToUndefined, z.coerce.number().min(0).max(10_000).default(10)),
  /**
   * How often, in milliseconds, an instance asks whether another has published (decision 047);
   * 0: never. Only with DATABASE_URL: the embedded database has one instance.
   */
  PUBLISH_POLL_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(600_000).default(250)),
  /** The postal address in every newsletter's footer, its lines separated by commas. */
  NEWSLETTER_POSTAL_ADDRESS: z.preprocess(emptyToUndefined, z.string().max(300).optional()),
  /** DKIM signing of every e-mail (decision 044): on when a selector is set. */
  DKIM_SELECTOR: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i, 'must be a DNS label (letters, digits, hyphens)')
      .optional(),
  ),
  /** The signing domain; MAIL_FROM's domain when unset. */
  DKIM_DOMAIN: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(
        /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i,
        'must be a domain name',
      )
      .optional(),
  ),
  /** The private key's file (PEM, RSA); DATA_DIR/.dkim-private-key.pem, made on first use, when unset. */
  DKIM_PRIVATE_KEY_FILE: z.preprocess(emptyToUndefined, z.string().optional()),
  /** Bounces and complaints by VERP (decision 045): on when a bounce domain is set. */
  BOUNCE_DOMAIN: z.preprocess(emptyToUndefined, z.string().regex(DOMAIN, 'must be a domain name').optional()),
  BOUNCE_SMTP_PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65535).default(25)),
  BOUNCE_SMTP_HOST: z.preprocess(emptyToUndefined, z.string().default('0.0.0.0')),
  /** How old the Visits page's figures of today may be, in seconds (decision 043); 0 counts them at every look. */
  VISITS_TODAY_MAX_AGE_SECONDS: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(0).max(3600).default(60),
  ),
  /** Downloads wait while visitors' requests are in flight (src/server/kit/http/give-way.ts); `false`: they never wait. */
  DOWNLOADS_GIVE_WAY: z.preprocess(
    emptyToUndefined,
    z
      .enum(['true', 'false', '1', '0'], { message: 'must be true or false' })
      .default('true')
      .transform((v) => v === 'true' || v === '1'),
  ),
  /** The static fast path (src/server/root/site/fast-static.ts); `false` serves everything through Node alone. */
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
  /**
   * Every address that may sign in to the console, lower-cased: OWNER_EMAIL, OWNER_EMAILS and
   * HELPER_EMAILS (helpers included: their addresses are protected as the owners' are).
   */
  ownerEmails: readonly string[];
  /** Each of those addresses with its role and the name the console gives it (decision 032). */
  consoleUsers: readonly ConsoleUser[];
  /**
   * The settings a production server must have that were left unset or at their default value
   * (SMTP_URL, OWNER_EMAIL, MAIL_FROM, PUBLIC_URL): warned of at start and shown in the console.
   */
  essentialsAtDefault: readonly string[];
  redisUrl: string | undefined;
  /** The reverse proxies whose X-Forwarded-For is believed, or false: the socket's address is the client. */
  trustProxy: false | string[];
  appSecret: string;
  logLevel: string;
  benchDisableRateLimit: boolean;
  benchDisableFillTime: boolean;
  minFillTimeMs: number;
  /** The owner's calendar feed: how often it is fetched, and what its fetch allows (decision 037). */
  calendarFeed: { everyMinutes: number; allowHttp: boolean; allowPrivate: boolean };
  /** Tests only: PUSH_ALLOW_LOCAL (decision 041) and MAIL_FILE_REFUSED_DOMAIN, as in the schema. */
  pushAllowLocal: boolean;
  mailFileRefusedDomain: string | undefined;
  visitorMailHourlyCap: number;
  /** How long the outbox leases a row it sends over SMTP (OUTBOX_LEASE_SECONDS). */
  outboxLeaseMs: number;
  /** The most booking requests that hold a half-day at once (BOOKING_HOLDS_MAX, decision 053). */
  bookingHoldsMax: number;
  /** The newsletter's sending (decision 046): messages a second (0: no limit), the footer's address. */
  newsletter: { ratePerSecond: number; postalAddress: readonly string[] };
  staticFastPath: boolean;
  /** How often another instance's publication is looked for (decision 047); 0: never. */
  publishPollMs: number;
  downloadsGiveWay: boolean;
  /** How old the Visits page's count of today may be (decision 043); 0: counted at every look. */
  visitsTodayMaxAgeMs: number;
  /** The bounce listener and the VERP envelope senders (decision 045), or undefined when BOUNCE_DOMAIN is unset. */
  bounce?: { domain: string; port: number; host: string };
  /** DKIM signing (decision 044), or undefined when DKIM_SELECTOR is unset. */
  dkim?: { selector: string; domain: string; /** PEM */ privateKey: string };
  /** Backups (decision 057). */
  backup: BackupSettings;
  /** A restored copy looked at before it goes live: it sends, fetches and pushes nothing. */
  sandbox: boolean;
};

/** One person who may sign in to the console. */
export type ConsoleUser = { email: string; role: ConsoleRole; name: string };

/** The console's person of `email` (lower-cased), if that address may sign in. */
export function consoleUserOf(config: Pick<Config, 'consoleUsers'>, email: string): ConsoleUser | undefined {
  return config.consoleUsers.find((user) => user.email === email);
}

/** The name of an address the configuration names none for: its local part, first letter capital. */
export function nameOfAddress(email: string): string {
  const local = email.split('@')[0] ?? email;
  return local.charAt(0).toUpperCase() + local.slice(1);
}

/**
 * The console's people: OWNER_EMAIL, always an owner; each address of OWNER_EMAILS an owner and
 * each of HELPER_EMAILS a helper. An address in both lists (OWNER_EMAIL in HELPER_EMAILS too)
 * stops start-up: which role was meant cannot be guessed.
 */
function consoleUsersOf(e: {
  OWNER_EMAIL: string;
  OWNER_NAME?: string;
  OWNER_EMAILS: Listed[];
  HELPER_EMAILS: Listed[];
}) {
  const users = new Map<string, ConsoleUser>();
  const add = (person: Listed, role: ConsoleRole) => {
    const known = users.get(person.email);
    if (known && known.role !== role) {
      throw new ConfigError(
        `Invalid configuration:\n  HELPER_EMAILS: ${person.email} is an owner (OWNER_EMAIL or OWNER_EMAILS) and a helper: list it in one of them`,
      );
    }
    if (!known || (!known.name && person.name))
      users.set(person.email, { email: person.email, role, name: person.name ?? '' });
  };
  add(
    {
      email: e.OWNER_EMAIL.toLowerCase(),
      name: e.OWNER_NAME?.replace(UNPRINTABLE, '').trim().slice(0, 60) || undefined,
    },
    'owner',
  );
  for (const person of e.OWNER_EMAILS) add(person, 'owner');
  for (const person of e.HELPER_EMAILS) add(person, 'helper');
  return [...users.values()].map((user) => ({ ...user, name: user.name || nameOfAddress(user.email) }));
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
  const consoleUsers = consoleUsersOf(e);
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
    ownerEmails: consoleUsers.map((user) => user.email),
    consoleUsers,
    essentialsAtDefault: ESSENTIALS.filter((name) => {
      const value = {
        SMTP_URL: e.SMTP_URL,
        OWNER_EMAIL: e.OWNER_EMAIL,
        MAIL_FROM: e.MAIL_FROM,
        PUBLIC_URL: e.PUBLIC_URL,
      }[name];
      return value === undefined || value === ESSENTIAL_DEFAULTS[name];
    }),
    redisUrl: e.REDIS_URL,
    trustProxy: e.TRUST_PROXY,
    appSecret: e.APP_SECRET ?? loadOrCreateSecret(dataDir),
    logLevel: e.LOG_LEVEL,
    benchDisableRateLimit: e.BENCH_DISABLE_RATE_LIMIT,
    benchDisableFillTime: e.BENCH_DISABLE_FILL_TIME,
    minFillTimeMs: e.MIN_FILL_TIME_MS,
    calendarFeed: {
      everyMinutes: e.CALENDAR_FEED_EVERY_MINUTES,
      allowHttp: e.CALENDAR_FEED_ALLOW_HTTP,
      allowPrivate: e.CALENDAR_FEED_ALLOW_PRIVATE,
    },
    pushAllowLocal: e.PUSH_ALLOW_LOCAL,
    mailFileRefusedDomain: e.MAIL_FILE_REFUSED_DOMAIN,
    visitorMailHourlyCap: e.VISITOR_MAIL_HOURLY_CAP,
    outboxLeaseMs: e.OUTBOX_LEASE_SECONDS * 1000,
    bookingHoldsMax: e.BOOKING_HOLDS_MAX,
    newsletter: {
      ratePerSecond: e.NEWSLETTER_SEND_RATE,
      postalAddress: e.NEWSLETTER_POSTAL_ADDRESS
        ? e.NEWSLETTER_POSTAL_ADDRESS.split(',')
            .map((line) => line.trim())
            .filter(Boolean)
        : // None set: the business's own address (Business details), read when an issue is rendered.
          [],
    },
    staticFastPath: e.STATIC_FAST_PATH,
    publishPollMs: e.DATABASE_URL ? e.PUBLISH_POLL_MS : 0,
    downloadsGiveWay: e.DOWNLOADS_GIVE_WAY,
    visitsTodayMaxAgeMs: e.VISITS_TODAY_MAX_AGE_SECONDS * 1000,
    bounce: bounceSettings(e.BOUNCE_DOMAIN, e.BOUNCE_SMTP_PORT, e.BOUNCE_SMTP_HOST, [
      e.MAIL_FROM,
      ...consoleUsers.map((user) => user.email),
    ]),
    backup: backupSettings(e, dataDir, env),
    sandbox: e.SANDBOX,
    dkim: e.DKIM_SELECTOR
      ? {
          selector: e.DKIM_SELECTOR.toLowerCase(),
          domain: (e.DKIM_DOMAIN ?? e.MAIL_FROM.split('@')[1] ?? '').toLowerCase(),
          privateKey: loadOrCreateDkimKey(dataDir, e.DKIM_PRIVATE_KEY_FILE),
        }
      : undefined,
  };
}
