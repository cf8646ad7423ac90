/**
 * Shared pieces of the form pipeline's integration tests: a real SMTP peer in the test process,
 * a throwaway Postgres database per app (a copy of the run's migrated template, databases.ts),
 * and the app built over it.
 */
import { mkdtempSync } from 'node:fs';
import { addDays, earliestBookableDate, latestBookableDate } from '../../src/features/booking/booking-dates';
import { weekdayOf } from '../../src/features/booking/availability';
import { BANK_HOLIDAYS } from '../../src/features/booking/availability.server';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { buildApp, requestSerializers } from '../../src/server/root/app';
import { createSignedTokens } from '../../src/server/kit/http/signed-tokens';
import { FORM_TOKEN_TTL_SECONDS } from '../../src/server/root/forms/fill-time';
import { loadConfig } from '../../src/server/kit/config';
import type { ServicesOptions } from '../../src/server/root/services';
import { parseMail, type ParsedMail } from './forms-mime';
import { sinkStream, suiteLogger } from './log-sink';
import { createTestDatabase, TEST_DATABASE_URL, withDatabase } from './databases';

export { createTestDatabase, TEST_DATABASE_URL };

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
export const OWNER = 'owner@sterling.test';
export const SECRET = 'test-secret-test-secret-test-secret-0123';

export type ReceivedMail = ParsedMail & { envelopeFrom: string; envelopeTo: string[] };

export type SmtpPeer = {
  port: number;
  url: string;
  mails: ReceivedMail[];
  /** Messages whose data the peer has begun to receive (a send in flight, answered or not). */
  receiving(): number;
  /** Resolves once `count` messages have arrived in total. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  /** Makes the peer refuse every message with a temporary failure (or accept again). */
  refuse(on: boolean): void;
  /**
   * Makes the peer answer RCPT TO for the recipients `which` picks with the reply `code` (550: the
   * mailbox does not exist; 451: not now); `undefined` accepts every recipient again.
   */
  refuseRecipients(which: ((address: string) => boolean) | undefined, code?: number): void;
  /** Holds each answer this long (a slow relay). */
  delay(ms: number): void;
  close(): Promise<void>;
};

export async function startSmtpPeer(port = 0): Promise<SmtpPeer> {
  const mails: ReceivedMail[] = [];
  let refusing = false;
  let refusedRecipient: { which: (address: string) => boolean; code: number } | undefined;
  let delayMs = 0;
  let receiving = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (refusedRecipient?.which(address.address)) {
        const permanent = refusedRecipient.code >= 500;
        const err = new Error(
          permanent ? 'Mailbox unavailable' : 'Mailbox busy, try again later',
        ) as Error & { responseCode: number };
        err.responseCode = refusedRecipient.code;
        callback(err);
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      receiving += 1;
      const chunks: Buffer[] = [];
      stream.on('error', () => {}); // the sender went away mid-message: nothing was accepted
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', async () => {
        if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
        if (refusing) {
          const err = new Error('Try again later') as Error & { responseCode: number };
          err.responseCode = 451;
          callback(err);
          return;
        }
        const mail = parseMail(Buffer.concat(chunks).toString('utf8'));
        mails.push({
          ...mail,
          envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          envelopeTo: session.envelope.rcptTo.map((r) => r.address),
        });
        callback();
      });
    },
  });
  // A client that dies mid-session (the crash test kills the server with SIGKILL) resets its
  // connection; like a real relay, the peer drops that session and goes on serving the others.
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const actual = (server.server.address() as AddressInfo).port;
  return {
    port: actual,
    url: `smtp://127.0.0.1:${actual}`,
    mails,
    receiving: () => receiving,
    async waitFor(count, timeoutMs = 60_000) {
      const until = Date.now() + timeoutMs;
      while (mails.length < count) {
        if (Date.now() > until) throw new Error(`expected ${count} e-mails, got ${mails.length}`);
        await new Promise((r) => setTimeout(r, 25));
      }
      return mails;
    },
    refuse(on) {
      refusing = on;
    },
    refuseRecipients(which, code = 550) {
      refusedRecipient = which ? { which, code } : undefined;
    },
    delay(ms) {
      delayMs = ms;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A service the production path needs (Postgres, Redis) that does not answer fails the run:
 * its tests are skipped only when SKIP_SERVICE_TESTS=1 says so, never silently.
 */
export function serviceMissing(reason: string): string {
  if (process.env.SKIP_SERVICE_TESTS === '1') return reason;
  throw new Error(`${reason}. Start it, or set SKIP_SERVICE_TESTS=1 to skip its tests knowingly.`);
}

/** Why the local Postgres does not answer, or undefined when it does (see serviceMissing). */
export async function postgresUnavailableReason(): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return undefined;
  } catch (error) {
    return serviceMissing(`PostgreSQL at TEST_DATABASE_URL does not answer (${(error as Error).message})`);
  } finally {
    await client.end().catch(() => {});
  }
}

/** A database the app can run on: its settings, and how to remove it after the tests. */
export type Driver = { name: string; env(): Promise<{ env: Record<string, string>; drop(): Promise<void> }> };

/**
 * The database the server tests run on, for `describe.each(drivers)`: a throwaway Postgres
 * database named after `label` (a copy of the run's migrated template), or none when the local
 * Postgres does not answer and SKIP_SERVICE_TESTS=1 says to skip its tests (see serviceMissing).
 */
export async function testDrivers(label: string): Promise<Driver[]> {
  if (await postgresUnavailableReason()) return [];
  return [
    {
      name: 'PostgreSQL',
      env: async () => {
        const db = await createTestDatabase(label);
        return { env: { DATABASE_URL: db.url }, drop: db.drop };
      },
    },
  ];
}

// Started at a random point: apps on a shared Redis (REDIS_URL) count the test files of every
// run together, and files running side by side must not spend each other's windows.
let addressCounter = Math.floor(Math.random() * 60_000);
/** A different documentation-range address per call, so tests do not trip the rate limit by accident. */
export function nextAddress(): string {
  addressCounter += 1;
  return `198.51.${Math.floor(addressCounter / 250) % 250}.${(addressCounter % 250) + 1}`;
}

/**
 * Polls `fn` until it gives a value (every 25 ms), or fails after `timeoutMs`: a bound for a
 * condition that never comes, generous because a loaded machine is slow to bring one about.
 */
export async function until<T>(
  fn: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 60_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * A logger for makeFormsApp that keeps every line it writes, with the app's own serializers (and
 * writes it to the suite's log sink too, log-sink.ts).
 */
export function logCapture() {
  const lines: string[] = [];
  const stream = sinkStream((line) => lines.push(line));
  return { lines, logger: { level: 'trace', stream, serializers: requestSerializers } };
}

export type FormsTestApp = Awaited<ReturnType<typeof makeFormsApp>>;

/**
 * The real app over the real build, on the given Postgres, or else on the database of its data
 * folder (a fresh folder and a fresh copy of the template, or those of an app built before on
 * `dataDir`: a restart finds its data).
 */
export async function makeFormsApp(
  env: Record<string, string> = {},
  opts: {
    services?: ServicesOptions;
    logger?: Parameters<typeof buildApp>[0]['logger'];
    dataDir?: string;
  } = {},
) {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'forms-test-'));
  const databaseEnv = await withDatabase(env, dataDir);
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    APP_SECRET: SECRET,
    OWNER_EMAIL: OWNER,
    MAIL_FROM: 'hello@sterling.test',
    PUBLIC_URL: 'https://www.sterling.test',
    MIN_FILL_TIME_MS: '1500',
    LOG_LEVEL: 'silent',
    // The build under test: ./build unless the run names another (BUILD_DIR=...).
    ...(process.env.BUILD_DIR ? { BUILD_DIR: process.env.BUILD_DIR } : {}),
    ...databaseEnv,
  });
  const app = await buildApp({
    config,
    logger: opts.logger ?? suiteLogger(),
    services: { ...opts.services, outbox: { pollIntervalMs: 50, ...opts.services?.outbox } },
  });
  await app.ready();
  const db = app.services.database.db;
  return {
    app,
    config,
    dataDir,
    /** Runs SQL on the app's own database; rows as plain objects. */
    async query<T = Record<string, unknown>>(text: string): Promise<T[]> {
      const { sql } = await import('drizzle-orm');
      const result = (await db.execute(sql.raw(text))) as unknown as { rows: T[] };
      return result.rows;
    },
    /** Posts a form; each call comes from its own client address unless one is given. */
    post(body: unknown, headers: Record<string, string> = {}, remoteAddress = nextAddress()) {
      return app.inject({
        method: 'POST',
        remoteAddress,
        url: '/api/send-contact-email',
        headers: { 'content-type': 'application/json', ...headers },
        payload: typeof body === 'string' ? body : JSON.stringify(body),
      });
    },
  };
}

/**
 * Closes the app's database under the running app, as an outage leaves it; the app's own close
 * at the end then finds it closed (a Postgres pool ends once: ending it again throws).
 */
export async function closeDatabaseUnder(t: FormsTestApp): Promise<void> {
  const { database } = t.app.services;
  await database.close();
  database.close = async () => {};
}

/**
 * A fill-time token as the server hands one out, for a form the visitor started `ageMs` ago
 * (signed with the tests' APP_SECRET, so the test apps accept it).
 */
export function formToken(formType: string, ageMs = 9000): Promise<string> {
  return createSignedTokens(SECRET).sign('form-start', formType, {
    expiresInSeconds: FORM_TOKEN_TTL_SECONDS,
    claims: { st: Date.now() - ageMs },
  });
}

/** Tokens of forms started 9 s ago, made once per test file (they live 30 minutes). */
export const readyTokens: Record<string, string> = Object.fromEntries(
  await Promise.all(
    ['contact', 'bitcoin_guide', 'newsletter', 'booking', 'masterclass', 'echo'].map(
      async (type) => [type, await formToken(type)] as const,
    ),
  ),
);
/**
 * An SMTP peer and the app sending to it, on a throwaway Postgres database named after `label`;
 * `close` ends all three.
 */
export async function startFormsTestbed(label: string) {
  const smtp = await startSmtpPeer();
  const db = await createTestDatabase(label);
  const t = await makeFormsApp({ SMTP_URL: smtp.url, DATABASE_URL: db.url });
  return {
    smtp,
    t,
    async close() {
      await t.app.close();
      await smtp.close();
      await db.drop();
    },
  };
}

/**
 * The n-th working day (Monday to Friday, no bank holiday of England and Wales) on or after
 * `from`, n from 1: a date the owner's default availability offers. Tests that book take a date
 * of their own, since a request holds its first-choice half-day.
 */
export function workingDay(from: string, n: number): string {
  let date = addDays(from, -1);
  for (let counted = 0; counted < n;) {
    date = addDays(date, 1);
    const weekday = weekdayOf(date);
    if (weekday !== 'sat' && weekday !== 'sun' && !BANK_HOLIDAYS.has(date)) counted += 1;
  }
  if (date > latestBookableDate(new Date())) throw new Error('out of range');
  return date;
}

/** The n-th working day after today (n from 1; the default availability offers nothing sooner). */
export function bookableDate(n: number): string {
  return workingDay(earliestBookableDate(new Date()), n);
}

/** Valid bodies of every form type, as the browser sends them (the traps filled as a person would). */
export const bodies = {
  contact: (over: Record<string, unknown> = {}) => ({
    formType: 'contact',
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.org',
    company: 'Analytical Engines Ltd',
    subject: 'training',
    message: 'We would like a workshop for 8 advisers.\nThursdays suit us.',
    consent: true,
    website: '',
    formToken: readyTokens.contact,
    ...over,
  }),
  guide: (over: Record<string, unknown> = {}) => ({
    formType: 'bitcoin_guide',
    firstName: 'Grace Hopper',
    lastName: '',
    email: 'grace@example.org',
    company: 'Financial Planner',
    subject: 'Wealth Building Guide Download',
    message: 'Name: Grace Hopper',
    consent: true,
    website: '',
    formToken: readyTokens.bitcoin_guide,
    ...over,
  }),
  masterclass: (eventId: string, over: Record<string, unknown> = {}) => ({
    formType: 'masterclass',
    eventId,
    firstName: 'Mary Somerville',
    email: 'mary@example.org',
    company: 'Wealth Adviser',
    consent: true,
    website: '',
    formToken: readyTokens.masterclass,
    ...over,
  }),
  // In person by default: confirming a Zoom session asks for its meeting link (decision 039).
  booking: (firstChoiceDate: string, over: Record<string, unknown> = {}) => ({
    formType: 'booking',
    sessionType: 'inPerson',
    firstChoiceDate,
    firstChoiceTime: 'morning',
    secondChoiceDate: '',
    secondChoiceTime: '',
    firstName: 'Mary',
    lastName: 'Somerville',
    email: 'mary@example.org',
    phone: '+44 7700 900123',
    company: 'Somerville Wealth',
    role: 'Adviser',
    notes: '',
    website: '',
    formToken: readyTokens.booking,
    ...over,
  }),
  newsletter: (over: Record<string, unknown> = {}) => ({
    formType: 'newsletter',
    firstName: 'Alan',
    lastName: 'Turing',
    email: 'alan@example.org',
    subject: 'New Newsletter Subscriber',
    message: 'Please add them',
    sendConfirmation: false,
    website: '',
    formToken: readyTokens.newsletter,
    ...over,
  }),
};
