/**
 * The console's hourly chores: once a day (from 08:00 UK time) the owner gets one e-mail saying
 * how many submissions were held as spam in the last 24 hours, if any, with a link to the spam
 * folder; once a day the retention job runs (./retention.ts); and sessions and WebAuthn
 * challenges that can no longer be used are deleted. The
 * day's digest is a mark in mail_throttle taken with one atomic insert: with two instances, one
 * sends it.
 */
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { site } from '~/content/site';
import type { Config } from '../kit/config';
import type { Db } from '../kit/db/client';
import { rowsOf } from '../kit/db/rows';
import type { Links } from '../kit/http/links';
import { enqueueEmails, type OutgoingEmail } from '../kit/mail/outbox';
import { runEvery } from '../kit/timer';
import { audit } from '../kit/audit';
import { spamSince } from './overview';
import type { RetentionRunner } from './retention';
import { pruneSessions } from './sessions';

const HOUR_MS = 3600_000;
export const DIGEST_UK_HOUR = 8;

function ukDateAndHour(now: Date): { date: string; hour: number } {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/London',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(now);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return { date: `${get('year')}-${get('month')}-${get('day')}`, hour: Number(get('hour')) };
}

export function spamDigestEmail(to: string, count: number, url: string): OutgoingEmail {
  const held = `${count} submission${count === 1 ? ' was' : 's were'} held as spam`;
  return {
    kind: 'owner.spam-digest',
    to,
    subject: `${held} in the last 24 hours`,
    content: {
      preheader: 'Review them in the console: release any that are real.',
      heading: 'Held as spam',
      blocks: [
        { type: 'paragraph', text: `${held} in the last 24 hours by the ${site.brand} forms.` },
        { type: 'paragraph', text: 'Review them, and release any real enquiry with "Not spam".' },
        { type: 'button', label: 'Review spam', url },
      ],
    },
  };
}

export type ConsoleJobs = {
  runDigest(now?: Date): Promise<number>;
  /** Runs the retention job if today's (UK) run has not been taken by any instance yet. */
  runDailyRetention(now?: Date): Promise<boolean>;
  /** Ends the hourly timer and waits for the chores under way. */
  stop(): Promise<void>;
};

export function startConsoleJobs(
  deps: {
    db: Db;
    config: Config;
    links: Links;
    log: FastifyBaseLogger;
    wakeOutbox(): void;
    retentionRuns: RetentionRunner;
  },
  { everyMs = HOUR_MS, firstAfterMs = 90_000 } = {},
): ConsoleJobs {
  const { db, config, links, log } = deps;

  /** Sends the day's digest if it is due and anything was held; returns how many were counted. */
  async function runDigest(now = new Date()): Promise<number> {
    const { date, hour } = ukDateAndHour(now);
    if (hour < DIGEST_UK_HOUR) return 0;
    const count = await spamSince(db, new Date(now.getTime() - 24 * HOUR_MS));
    return db.transaction(async (tx) => {
      const taken = await tx.execute(
        sql`insert into mail_throttle (key, last_at) values (${`digest.spam:${date}`}, ${now})
            on conflict (key) do nothing returning key`,
      );
      if (rowsOf(taken).length === 0 || count === 0) return 0;
      await enqueueEmails(tx, null, [
        spamDigestEmail(config.ownerEmail, count, links.absolute('/owner/spam')),
      ]);
      await audit(tx, 'system', 'digest.spam', undefined, { held: count });
      return count;
    });
  }

  async function runDailyRetention(now = new Date()): Promise<boolean> {
    const { date } = ukDateAndHour(now);
    const taken = await db.execute(
      sql`insert into mail_throttle (key, last_at) values (${`retention:${date}`}, ${now})
          on conflict (key) do nothing returning key`,
    );
    if (rowsOf(taken).length === 0) return false;
    // The runner logs the run's end; a run already under way (the console's "Run now") is joined.
    await (
      await deps.retentionRuns.start(now)
    ).done;
    return true;
  }

  const chores = async () => {
    try {
      await pruneSessions(db);
      if ((await runDigest()) > 0) deps.wakeOutbox();
      await runDailyRetention();
    } catch (error) {
      log.warn({ errorName: (error as Error).name }, 'console chores failed; they run again within the hour');
    }
  };
  const timer = runEvery(chores, { firstAfterMs, everyMs });
  return { runDigest, runDailyRetention, stop: () => timer.stop() };
}
