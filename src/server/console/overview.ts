/**
 * The overview area, and the warnings that must never be silent: settings a production server left
 * at their defaults, and mail that is not really being delivered (written to files, the last send
 * failed, e-mails waiting longer than 15 minutes).
 *
 * "The last send failed" is about the relay: it is raised when the newest attempted e-mail failed
 * for any reason but a refusal of its one recipient for good (a 5xx reply to the recipient, stored
 * as `EENVELOPE 5xx`: an address that does not exist, which says nothing of the relay and is shown
 * in Deliveries). A connection, sign-in or time-out failure, a refused sender, a refused message or
 * any 4xx raises it, with its cause in words (src/content/delivery-errors.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { and, eq, gt, sql } from 'drizzle-orm';
import { isRecipientRefusal, lastSendFailedWarning } from '~/content/delivery-errors';
import {
  FORM_TYPES,
  LATEST_LEADS,
  NEXT_UP_DAYS,
  NEXT_UP_MAX,
  overviewRoutes,
  TREND_WEEKS,
  type FormType,
  type NextUp,
  type Overview,
} from '~/contract/console';
import { addDays, ukDateOf, ukWallTimeToInstant } from '~/lib/uk-dates';
import type { Diary } from '../kit/diary';
import { latestLeads } from './inbox';
import { leadsByWeek } from './leads';
import { bookingsAwaitingAnswer } from '~/features/booking/booking-counts.server';
import { calendarWarnings } from '~/features/booking/calendar-feed.server';
import { articlesWithDatedFigures } from '~/features/publishing/article-editing.server';
import { businessWarnings } from '~/features/business/business.server';
import { businessWarningWords } from '~/content/business-console';
import type { Config } from '../kit/config';
import type { Queryable } from '../kit/db/client';
import { outbox, spamIs, submissions } from '../kit/db/schema';
import type { ConsoleArea } from '../kit/http/owner-routes';

export const WAITING_MINUTES = 15;

/** Whether the build was made with the voice simulator's keys (build-stamp.json), read once per build folder. */
const voiceKeyed = new Map<string, boolean>();
export function voiceSimulatorKeyed(buildDir: string): boolean {
  let keyed = voiceKeyed.get(buildDir);
  if (keyed === undefined) {
    try {
      const stamp = JSON.parse(readFileSync(join(buildDir, 'build-stamp.json'), 'utf8')) as Record<
        string,
        unknown
      >;
      keyed = !!stamp.vapiPublicKey && !!stamp.vapiAssistantId;
    } catch {
      // No stamp (a test without a build): nothing to say of the build.
      keyed = true;
    }
    voiceKeyed.set(buildDir, keyed);
  }
  return keyed;
}

/** The business's details not set; the voice simulator built without keys. */
export async function setupWarnings(db: Queryable, config: Pick<Config, 'buildDir'>): Promise<string[]> {
  return [
    ...(await businessWarnings(db)),
    ...(voiceSimulatorKeyed(config.buildDir) ? [] : [businessWarningWords.voiceNoKeys]),
  ];
}

const ESSENTIAL_WARNINGS: Record<string, string> = {
  SMTP_URL: 'SMTP_URL is not set: e-mails are being written to files, not sent.',
  OWNER_EMAIL:
    'OWNER_EMAIL is left at its default: leads are e-mailed to owner@example.com, which nobody reads.',
  MAIL_FROM:
    'MAIL_FROM is left at its default: e-mails go out from hello@example.com and will be refused or marked as spam.',
  PUBLIC_URL: 'PUBLIC_URL is left at its default: links in e-mails point at http://localhost:3000.',
};

/** Said while e-mails go out unsigned (decision 044). */
export const DKIM_OFF =
  'DKIM_SELECTOR is not set: e-mails are not signed with DKIM, and the big mailbox providers may refuse them or file them as spam. The README says what to set and which DNS records to publish.';

/** Production settings left at their defaults, and DKIM off, as sentences (empty outside production). */
export function configWarnings(config: Pick<Config, 'env' | 'essentialsAtDefault' | 'dkim'>): string[] {
  if (config.env !== 'production') return [];
  const warnings = config.essentialsAtDefault.map(
    (name) => ESSENTIAL_WARNINGS[name] ?? `${name} is not set.`,
  );
  return config.dkim ? warnings : [...warnings, DKIM_OFF];
}

export const FILES_NOT_SENT = 'E-mails are being written to files, not sent: set SMTP_URL to a mail relay.';

export async function mailWarnings(
  db: Queryable,
  config: Pick<Config, 'smtpUrl' | 'env'>,
): Promise<string[]> {
  const out: string[] = [];
  if (!config.smtpUrl && config.env === 'production') out.push(FILES_NOT_SENT);
  const [last] = await db
    .select({ status: outbox.status, lastError: outbox.lastError, sentAt: outbox.sentAt })
    .from(outbox)
    .where(sql`${outbox.lastAttemptAt} is not null`)
    .orderBy(sql`${outbox.lastAttemptAt} desc`)
    .limit(1);
  if (last && last.lastError && !last.sentAt && !isRecipientRefusal(last.lastError)) {
    out.push(lastSendFailedWarning(last.lastError, last.status === 'pending'));
  }
  const [waiting] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(outbox)
    .where(
      and(
        eq(outbox.status, 'pending'),
        // The leads' lane: a newsletter issue takes as long as its rate says (decision 046).
        eq(outbox.lane, 'mail'),
        sql`${outbox.createdAt} < now() - make_interval(mins => ${WAITING_MINUTES})`,
      ),
    );
  if (waiting && waiting.count > 0) {
    out.push(
      `${waiting.count} e-mail${waiting.count === 1 ? ' has' : 's have'} been waiting longer than ${WAITING_MINUTES} minutes. See Deliveries.`,
    );
  }
  return out;
}

/** What comes next in the owner's diary: entries still on, from now, within NEXT_UP_DAYS. */
async function nextUp(db: Queryable, diary: Diary, now: Date): Promise<NextUp[]> {
  const today = ukDateOf(now);
  const entries = await diary.entries(db, today, addDays(today, NEXT_UP_DAYS + 1));
  return entries
    .filter((entry) => !entry.cancelled)
    .filter((entry) => ukWallTimeToInstant(entry.end.date, entry.end.time) > now)
    .sort((a, b) => `${a.start.date} ${a.start.time}`.localeCompare(`${b.start.date} ${b.start.time}`))
    .slice(0, NEXT_UP_MAX)
    .map((entry) => ({
      summary: entry.summary,
      start: entry.start,
      end: entry.end,
      consolePath: entry.consolePath,
    }));
}

export async function overview(
  db: Queryable,
  config: Config,
  diary: Diary,
  now: Date = new Date(),
): Promise<Omit<Overview, 'systemWarnings'>> {
  // Today and this week (from Monday) in UK time; counted with the inbox's index on (form, spam, received_at).
  const ukNow = sql`(now() at time zone 'Europe/London')`;
  const today = sql`(date_trunc('day', ${ukNow}) at time zone 'Europe/London')`;
  const week = sql`(date_trunc('week', ${ukNow}) at time zone 'Europe/London')`;
  const rows = await db
    .select({
      formType: submissions.formType,
      today: sql<number>`count(*) filter (where ${submissions.receivedAt} >= ${today})::int`,
      week: sql<number>`count(*)::int`,
    })
    .from(submissions)
    .where(and(spamIs(false), sql`${submissions.receivedAt} >= least(${today}, ${week})`))
    .groupBy(submissions.formType);
  const [spam] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(submissions)
    .where(spamIs(true));
  const byForm = new Map(rows.map((r) => [r.formType, r]));
  return {
    leads: FORM_TYPES.map((formType: FormType) => ({
      formType,
      today: byForm.get(formType)?.today ?? 0,
      week: byForm.get(formType)?.week ?? 0,
    })),
    bookingsAwaitingAnswer: await bookingsAwaitingAnswer(db),
    spamHeld: spam?.count ?? 0,
    mailWarnings: await mailWarnings(db, config),
    calendarWarnings: await calendarWarnings(db),
    // A missing SMTP_URL is the mail warning above; the other settings are listed here.
    configWarnings: configWarnings({
      ...config,
      essentialsAtDefault: config.essentialsAtDefault.filter((n) => n !== 'SMTP_URL'),
    }),
    setupWarnings: await setupWarnings(db, config),
    datedArticles: await articlesWithDatedFigures(db, now),
    latestLeads: await latestLeads(db, LATEST_LEADS),
    nextUp: await nextUp(db, diary, now),
    weeks: await leadsByWeek(db, TREND_WEEKS),
  };
}

/** Spam held in the 24 hours before `now`: the daily digest's count. */
export async function spamSince(db: Queryable, since: Date): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(submissions)
    .where(and(spamIs(true), gt(submissions.receivedAt, since)));
  return row?.count ?? 0;
}

/** The overview; the owner's also says what the System page warns of (decision 057). */
export const overviewArea =
  (systemWarnings: (now: Date) => Promise<string[]>): ConsoleArea =>
  (routes, { config, db, diary, clock }) => {
    routes.on(overviewRoutes.view, async ({ owner }) => {
      const now = clock();
      const [view, system] = await Promise.all([
        overview(db, config, diary, now),
        owner.role === 'owner' ? systemWarnings(now) : [],
      ]);
      return { ...view, systemWarnings: system };
    });
  };
