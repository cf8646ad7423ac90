/**
 * The newsletter's issues on the server (decision 046): drafts, the schedule, and sending. Sending
 * begins in one transaction that locks the issue, renders its e-mail once, fixes its recipients
 * (the confirmed subscribers at that moment, each once) as outbox rows of the `bulk` lane, and
 * marks the issue `sending`; the outbox's bulk worker sends them at the newsletter's rate, and a
 * chore marks the issue `sent` once none is left. A second start, on this instance or another,
 * finds the issue no longer due and writes nobody again. Addresses on the suppression list are
 * dropped by the outbox when their row is claimed, like every other e-mail.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { and, desc, eq, inArray, lte, sql } from 'drizzle-orm';
import { ukWallTimeToInstant } from '~/lib/uk-dates';
import { audit } from '~/server/kit/audit';
import type { Db, Queryable } from '~/server/kit/db/client';
import type { Links } from '~/server/kit/http/links';
import {
  cancelMailing,
  enqueueMailing,
  holdMailing,
  mailingCounts,
  releaseMailing,
  storeSharedBody,
} from '~/server/kit/mail/mailing';
import { errorCode } from '~/server/kit/log-safe';
import { runEvery, type PeriodicJob } from '~/server/kit/timer';
import { renderIssueEmail, UNSUBSCRIBE_MARK, fillUnsubscribe } from './issue-email.server';
import type {
  IssueDetail,
  IssueInput,
  IssuePreview,
  IssueProgress,
  IssueStatus,
  IssueSummary,
} from './issues-console-contract';
import { unsubscribeLinks } from './newsletter.server';
import { newsletterIssues, newsletterSubscribers } from './tables.server';

/** What the issues need of the server: its links and settings. */
export type IssueDeps = {
  db: Db;
  links: Links;
  publicUrl: string;
  /** The footer's postal address (NEWSLETTER_POSTAL_ADDRESS). */
  postalAddress: readonly string[];
  /**
   * The mailto of a reader's List-Unsubscribe, when the bounce listener can receive it
   * (BOUNCE_DOMAIN); absent: the https address alone.
   */
  unsubscribeMailto?: (subscriberId: string) => string;
  /** Where "Send a test" goes: the console's own addresses. */
  testAddresses: readonly string[];
  wakeOutbox(): void;
};

/** Writes the owner's action to the audit log, in the action's own transaction. */
export type RecordAction = (tx: Queryable, detail?: Record<string, number>) => Promise<void>;

export const ISSUE_KIND = 'newsletter.issue';
export const ISSUE_TEST_KIND = 'newsletter.test';

/** Why an action was refused, as the console says it (409 unless said otherwise). */
export class IssueRefusal extends Error {
  constructor(
    message: string,
    readonly status: 400 | 404 | 409 = 409,
  ) {
    super(message);
  }
}

const NOT_FOUND = 'There is no such issue.';

type IssueRow = typeof newsletterIssues.$inferSelect;

const EDITABLE: readonly IssueStatus[] = ['draft', 'scheduled'];

function iso(value: Date | null): string | null {
  return value ? value.toISOString() : null;
}

/** The UK wall-clock time of an instant, `YYYY-MM-DDTHH:MM`. */
function ukLocal(instant: Date): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/London',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(instant);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}T${get('hour')}:${get('minute')}`;
}

async function progressOf(db: Queryable, issue: IssueRow): Promise<IssueProgress | null> {
  if (issue.recipients === null) return null;
  return {
    recipients: issue.recipients,
    ...(await mailingCounts(db, issue.id)),
    unsubscribed: issue.unsubscribed,
  };
}

async function summaryOf(db: Queryable, issue: IssueRow): Promise<IssueSummary> {
  return {
    id: issue.id,
    subject: issue.subject,
    status: issue.status as IssueStatus,
    scheduledFor: iso(issue.scheduledFor),
    startedAt: iso(issue.startedAt),
    finishedAt: iso(issue.finishedAt),
    createdAt: issue.createdAt.toISOString(),
    updatedAt: issue.updatedAt.toISOString(),
    progress: await progressOf(db, issue),
  };
}

async function detailOf(db: Queryable, issue: IssueRow): Promise<IssueDetail> {
  return {
    ...(await summaryOf(db, issue)),
    preheader: issue.preheader,
    body: issue.body,
    articleSlug: issue.articleSlug,
    scheduledForLocal: issue.scheduledFor ? ukLocal(issue.scheduledFor) : null,
  };
}

async function find(db: Queryable, id: string): Promise<IssueRow> {
  const [issue] = await db.select().from(newsletterIssues).where(eq(newsletterIssues.id, id));
  if (!issue) throw new IssueRefusal(NOT_FOUND, 404);
  return issue;
}

export async function listIssues(db: Queryable): Promise<IssueSummary[]> {
  const rows = await db
    .select()
    .from(newsletterIssues)
    .orderBy(desc(newsletterIssues.createdAt), desc(newsletterIssues.id))
    .limit(200);
  return Promise.all(rows.map((row) => summaryOf(db, row)));
}

export async function issueDetail(db: Queryable, id: string): Promise<IssueDetail> {
  return detailOf(db, await find(db, id));
}

export async function createIssue(
  db: Db,
  input: IssueInput & { articleSlug?: string },
  record: (id: string) => RecordAction,
): Promise<IssueDetail> {
  const id = randomUUID();
  const issue = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(newsletterIssues)
      .values({
        id,
        subject: input.subject,
        preheader: input.preheader ?? '',
        body: input.body,
        articleSlug: input.articleSlug ?? null,
      })
      .returning();
    await record(id)(tx);
    return row!;
  });
  return detailOf(db, issue);
}

export async function updateIssue(
  db: Db,
  id: string,
  input: IssueInput,
  record: RecordAction,
): Promise<IssueDetail> {
  const issue = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(newsletterIssues)
      .set({
        subject: input.subject,
        preheader: input.preheader ?? '',
        body: input.body,
        updatedAt: sql`now()`,
      })
      .where(and(eq(newsletterIssues.id, id), inArray(newsletterIssues.status, [...EDITABLE])))
      .returning();
    if (row) await record(tx);
    return row;
  });
  if (!issue) {
    await find(db, id);
    throw new IssueRefusal('This issue has gone out (or is going out) and can no longer be changed.');
  }
  return detailOf(db, issue);
}

function footerOf(deps: Pick<IssueDeps, 'publicUrl' | 'postalAddress'>) {
  return { postalAddress: deps.postalAddress, siteUrl: deps.publicUrl };
}

/** The issue's e-mail exactly as a subscriber receives it, with an example unsubscribe link. */
export async function previewIssue(deps: IssueDeps, id: string): Promise<IssuePreview> {
  const issue = await find(deps.db, id);
  const rendered = renderIssueEmail(issue, footerOf(deps));
  const example = deps.links.absolute('/newsletter/unsubscribe?token=example');
  return { subject: issue.subject, preheader: issue.preheader, ...fillUnsubscribe(rendered, example) };
}

/** The headers of every newsletter e-mail (RFC 2369, RFC 2919, RFC 8058). */
function listHeaders(publicUrl: string, oneClick: string, mailto?: string): Record<string, string> {
  const host = new URL(publicUrl).hostname;
  return {
    'List-Id': `The Smart Money Newsletter <newsletter.${host}>`,
    'List-Unsubscribe': mailto ? `<${oneClick}>, <mailto:${mailto}?subject=unsubscribe>` : `<${oneClick}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  };
}

/**
 * "Send a test": the issue as sent, to the console's own addresses now, on the ordinary lane (the
 * owner is waiting for it). Its unsubscribe link is an example that unsubscribes nobody.
 */
export async function sendTest(deps: IssueDeps, id: string, record: RecordAction): Promise<number> {
  const issue = await find(deps.db, id);
  const example = deps.links.absolute('/newsletter/unsubscribe?token=example');
  const rendered = fillUnsubscribe(renderIssueEmail(issue, footerOf(deps)), example);
  await deps.db.transaction(async (tx) => {
    const bodyId = await storeSharedBody(tx, rendered);
    await enqueueMailing(
      tx,
      {
        kind: ISSUE_TEST_KIND,
        subject: `[Test] ${issue.subject}`,
        bodyId,
        headers: listHeaders(deps.publicUrl, example),
      },
      deps.testAddresses.map((to) => ({ to, fill: {} })),
    );
    await record(tx, { emails: deps.testAddresses.length });
  });
  deps.wakeOutbox();
  return deps.testAddresses.length;
}

/** Recipients' unsubscribe links signed a batch at a time. */
const SIGN_BATCH = 500;

/**
 * Starts sending the issue if it is due: a draft sent now, or a scheduled issue whose time has
 * come (`scheduledOnly`: the chore's start, which never sends a draft). Answers whether it began.
 */
export async function startIssue(
  deps: IssueDeps,
  id: string,
  {
    scheduledOnly = false,
    now = new Date(),
    record,
  }: { scheduledOnly?: boolean; now?: Date; record: RecordAction },
): Promise<boolean> {
  const started = await deps.db.transaction(async (tx) => {
    const [issue] = await tx.select().from(newsletterIssues).where(eq(newsletterIssues.id, id)).for('update');
    if (!issue) throw new IssueRefusal(NOT_FOUND, 404);
    const due =
      issue.status === 'scheduled'
        ? issue.scheduledFor !== null && issue.scheduledFor.getTime() <= now.getTime()
        : issue.status === 'draft' && !scheduledOnly;
    if (!due) return false;
    const rendered = renderIssueEmail(issue, footerOf(deps));
    const bodyId = await storeSharedBody(tx, rendered);
    const subscribers = await tx
      .select({ id: newsletterSubscribers.id, email: newsletterSubscribers.email })
      .from(newsletterSubscribers)
      .where(eq(newsletterSubscribers.status, 'confirmed'));
    let recipients = 0;
    for (let i = 0; i < subscribers.length; i += SIGN_BATCH) {
      const batch = subscribers.slice(i, i + SIGN_BATCH);
      const links = await Promise.all(batch.map((s) => unsubscribeLinks(deps.links, s.id)));
      recipients += await enqueueMailing(
        tx,
        { id: issue.id, kind: ISSUE_KIND, subject: issue.subject, bodyId },
        batch.map((s, n) => ({
          to: s.email,
          fill: { [UNSUBSCRIBE_MARK]: links[n]!.unsubscribe },
          headers: listHeaders(deps.publicUrl, links[n]!.oneClick, deps.unsubscribeMailto?.(s.id)),
        })),
      );
    }
    await tx
      .update(newsletterIssues)
      .set({
        status: recipients > 0 ? 'sending' : 'sent',
        startedAt: sql`now()`,
        finishedAt: recipients > 0 ? null : sql`now()`,
        recipients,
        updatedAt: sql`now()`,
      })
      .where(eq(newsletterIssues.id, id));
    await record(tx, { recipients });
    return true;
  });
  if (started) deps.wakeOutbox();
  return started;
}

/** Send now (`at` empty) or at a UK time; answers the issue as it now stands. */
export async function sendIssue(
  deps: IssueDeps,
  id: string,
  at: string,
  record: (action: 'send' | 'schedule') => RecordAction,
  now = new Date(),
): Promise<IssueDetail> {
  const issue = await find(deps.db, id);
  if (!EDITABLE.includes(issue.status as IssueStatus)) {
    throw new IssueRefusal('This issue has already gone out (or is going out).');
  }
  if (at === '') {
    if (issue.status === 'scheduled') {
      await deps.db
        .update(newsletterIssues)
        .set({ status: 'draft', scheduledFor: null })
        .where(and(eq(newsletterIssues.id, id), eq(newsletterIssues.status, 'scheduled')));
    }
    await startIssue(deps, id, { now, record: record('send') });
    return issueDetail(deps.db, id);
  }
  const [date = '', time = ''] = at.split('T');
  const when = ukWallTimeToInstant(date, time);
  if (Number.isNaN(when.getTime())) throw new IssueRefusal('That date and time do not exist.', 400);
  if (when.getTime() <= now.getTime()) {
    throw new IssueRefusal('Please choose a time in the future, or send the issue now.', 400);
  }
  const row = await deps.db.transaction(async (tx) => {
    const [scheduled] = await tx
      .update(newsletterIssues)
      .set({ status: 'scheduled', scheduledFor: when, updatedAt: sql`now()` })
      .where(and(eq(newsletterIssues.id, id), inArray(newsletterIssues.status, [...EDITABLE])))
      .returning();
    if (scheduled) await record('schedule')(tx);
    return scheduled;
  });
  if (!row) throw new IssueRefusal('This issue has already gone out (or is going out).');
  return detailOf(deps.db, row);
}

/** Moves the issue from one status to another, or refuses with `refusal`. */
async function move(
  db: Db,
  id: string,
  from: readonly IssueStatus[],
  to: IssueStatus,
  refusal: string,
  record: RecordAction,
  then?: (tx: Queryable) => Promise<unknown>,
): Promise<IssueDetail> {
  const row = await db.transaction(async (tx) => {
    const [moved] = await tx
      .update(newsletterIssues)
      .set({
        status: to,
        updatedAt: sql`now()`,
        ...(to === 'draft' ? { scheduledFor: null } : {}),
        ...(to === 'cancelled' ? { finishedAt: sql`now()` } : {}),
      })
      .where(and(eq(newsletterIssues.id, id), inArray(newsletterIssues.status, [...from])))
      .returning();
    if (moved) {
      await then?.(tx);
      await record(tx);
    }
    return moved;
  });
  if (!row) {
    await find(db, id);
    throw new IssueRefusal(refusal);
  }
  return detailOf(db, row);
}

export const unscheduleIssue = (db: Db, id: string, record: RecordAction) =>
  move(db, id, ['scheduled'], 'draft', 'Only a scheduled issue can be unscheduled.', record);

/** Stops between messages: the rows not yet handed to the relay are held. */
export const pauseIssue = (db: Db, id: string, record: RecordAction) =>
  move(db, id, ['sending'], 'paused', 'Only an issue that is going out can be paused.', record, (tx) =>
    holdMailing(tx, id),
  );

export async function resumeIssue(deps: IssueDeps, id: string, record: RecordAction): Promise<IssueDetail> {
  const detail = await move(
    deps.db,
    id,
    ['paused'],
    'sending',
    'Only a paused issue can be resumed.',
    record,
    (tx) => releaseMailing(tx, id),
  );
  deps.wakeOutbox();
  return detail;
}

/** Nobody not yet sent the issue receives it. */
export const cancelIssue = (db: Db, id: string, record: RecordAction) =>
  move(
    db,
    id,
    ['scheduled', 'sending', 'paused'],
    'cancelled',
    'This issue can no longer be cancelled: it has gone out, or was cancelled already.',
    record,
    (tx) => cancelMailing(tx, id),
  );

/**
 * The chore (every few seconds, every instance): starts the scheduled issues whose time has come,
 * and marks `sent` the sending issues with no row left to send.
 */
export async function issueChores(
  deps: IssueDeps,
  record: (id: string) => RecordAction,
  now = new Date(),
): Promise<void> {
  const due = await deps.db
    .select({ id: newsletterIssues.id })
    .from(newsletterIssues)
    .where(and(eq(newsletterIssues.status, 'scheduled'), lte(newsletterIssues.scheduledFor, now)));
  for (const { id } of due) await startIssue(deps, id, { scheduledOnly: true, now, record: record(id) });
  await deps.db.execute(sql`
    update ${newsletterIssues} i set status = 'sent', finished_at = now(), updated_at = now()
    where i.status = 'sending' and not exists (
      select 1 from outbox o where o.mailing_id = i.id and o.status in ('pending', 'held'))`);
}

/**
 * The chores' schedule: a first look a few seconds after start (a scheduled issue whose time came
 * while the server was down goes out then), then every 5 seconds.
 */
export function startIssueChores(
  deps: IssueDeps & { log: FastifyBaseLogger },
  schedule = { firstAfterMs: 3000, everyMs: 5000 },
): PeriodicJob<void> {
  const record =
    (id: string): RecordAction =>
    (tx, detail) =>
      audit(tx, 'system', 'newsletter.send', id, detail);
  return runEvery(async () => {
    try {
      await issueChores(deps, record);
    } catch (error) {
      deps.log.warn({ code: errorCode(error) }, 'newsletter chores failed; tried again in 5 seconds');
    }
  }, schedule);
}
