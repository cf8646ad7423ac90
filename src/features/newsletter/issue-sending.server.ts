/**
 * An issue going out (decision 046). Starting it is one short transaction: the issue locked and
 * still due, its e-mail rendered and stored once, its status `sending`. Its recipients are then
 * written in batches, each its own short transaction (the confirmed subscribers in id order, each
 * row unique per issue and address), so that a large list never holds the database for seconds
 * while visitors wait; a batch written while the issue is paused is held, and a cancelled issue
 * writes no more. The issue is `prepared` once the last batch is written; a process that stops
 * half-way leaves the rest to the chore, which picks up after the last subscriber written. The
 * outbox's bulk lane sends the rows; the chore marks the issue `sent` once it is prepared and none
 * of its rows waits.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { and, asc, eq, gt, inArray, isNull, lte, sql } from 'drizzle-orm';
import { ukLocalInput, ukWallTimeToInstant } from '~/lib/uk-dates';
import { audit } from '~/server/kit/audit';
import { enqueueMailing, storeSharedBody } from '~/server/kit/mail/mailing';
import { errorCode } from '~/server/kit/log-safe';
import { runEvery, type PeriodicJob } from '~/server/kit/timer';
import { fillUnsubscribe, renderIssueEmail, UNSUBSCRIBE_MARK } from './issue-email.server';
import type { IssueDetail, IssueStatus } from './issues-console-contract';
import {
  detailOf,
  EDITABLE,
  find,
  footerOf,
  issueDetail,
  IssueRefusal,
  ISSUE_KIND,
  ISSUE_TEST_KIND,
  type IssueDeps,
  type RecordAction,
} from './issues.server';
import { unsubscribeLinks } from './newsletter.server';
import { newsletterIssues, newsletterSubscribers } from './tables.server';

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
  const rendered = fillUnsubscribe(await renderIssueEmail(issue, await footerOf(deps)), example);
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

/**
 * Starts sending the issue if it is due: a draft sent now, or a scheduled issue whose time has
 * come (`scheduledOnly`: the chore's start, which never sends a draft); then writes its
 * recipients. Answers whether it began.
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
    if (!issue) throw new IssueRefusal('There is no such issue.', 404);
    const due =
      issue.status === 'scheduled'
        ? issue.scheduledFor !== null && issue.scheduledFor.getTime() <= now.getTime()
        : issue.status === 'draft' && !scheduledOnly;
    if (!due) return false;
    const bodyId = await storeSharedBody(tx, await renderIssueEmail(issue, await footerOf(deps, tx)));
    await tx
      .update(newsletterIssues)
      .set({ status: 'sending', startedAt: sql`now()`, bodyId, updatedAt: sql`now()` })
      .where(eq(newsletterIssues.id, id));
    await record(tx);
    return true;
  });
  if (started) await prepareIssue(deps, id);
  return started;
}

/** Recipients written (and their links signed) a batch at a time, each batch its own transaction. */
export const PREPARE_BATCH = 500;

/** The issues whose recipients this process is writing now: one writer each per process. */
const preparing = new Map<string, Promise<void>>();

/**
 * Writes the issue's recipients from where the last batch ended, a batch per transaction, giving
 * way to other work between batches; ends with the issue `prepared` (and `sent` at once if it has
 * nobody to send to). Safe to run twice at once (other instances): a recipient is written once.
 */
export function prepareIssue(deps: IssueDeps, id: string): Promise<void> {
  const running = preparing.get(id);
  if (running) return running;
  const work = writeRecipients(deps, id).finally(() => preparing.delete(id));
  preparing.set(id, work);
  return work;
}

async function writeRecipients(deps: IssueDeps, id: string): Promise<void> {
  for (;;) {
    const [issue] = await deps.db.select().from(newsletterIssues).where(eq(newsletterIssues.id, id));
    if (!issue || issue.preparedAt || !issue.bodyId || !['sending', 'paused'].includes(issue.status)) return;
    const after = issue.preparedThrough;
    const batch = await deps.db
      .select({ id: newsletterSubscribers.id, email: newsletterSubscribers.email })
      .from(newsletterSubscribers)
      .where(
        and(
          eq(newsletterSubscribers.status, 'confirmed'),
          after ? gt(newsletterSubscribers.id, after) : undefined,
        ),
      )
      .orderBy(asc(newsletterSubscribers.id))
      .limit(PREPARE_BATCH);
    const links = await Promise.all(batch.map((s) => unsubscribeLinks(deps.links, s.id)));
    const bodyId = issue.bodyId;
    const done = await deps.db.transaction(async (tx) => {
      const [now] = await tx.select().from(newsletterIssues).where(eq(newsletterIssues.id, id)).for('update');
      // Cancelled, finished by another instance, or moved on by one: stop, or go on from there.
      if (!now || now.preparedAt || !['sending', 'paused'].includes(now.status)) return true;
      if (now.preparedThrough !== after) return false;
      if (batch.length === 0) {
        const [{ n } = { n: 0 }] = await tx
          .select({ n: sql<number>`count(*)::int` })
          .from(sql`outbox`)
          .where(sql`mailing_id = ${id}::uuid`);
        await tx
          .update(newsletterIssues)
          .set({
            preparedAt: sql`now()`,
            recipients: n,
            ...(n === 0 ? { status: 'sent', finishedAt: sql`now()` } : {}),
            updatedAt: sql`now()`,
          })
          .where(eq(newsletterIssues.id, id));
        return true;
      }
      // Still confirmed now (one who unsubscribed since the batch was read is left out).
      const still = new Set(
        (
          await tx
            .select({ id: newsletterSubscribers.id })
            .from(newsletterSubscribers)
            .where(
              and(
                inArray(
                  newsletterSubscribers.id,
                  batch.map((s) => s.id),
                ),
                eq(newsletterSubscribers.status, 'confirmed'),
              ),
            )
        ).map((s) => s.id),
      );
      await enqueueMailing(
        tx,
        { id, kind: ISSUE_KIND, subject: now.subject, bodyId, held: now.status === 'paused' },
        batch.flatMap((s, n) =>
          still.has(s.id)
            ? [
                {
                  to: s.email,
                  fill: { [UNSUBSCRIBE_MARK]: links[n]!.unsubscribe },
                  headers: listHeaders(deps.publicUrl, links[n]!.oneClick, deps.unsubscribeMailto?.(s.id)),
                },
              ]
            : [],
        ),
      );
      await tx
        .update(newsletterIssues)
        .set({ preparedThrough: batch[batch.length - 1]!.id })
        .where(eq(newsletterIssues.id, id));
      return false;
    });
    deps.wakeOutbox();
    if (done) return;
    await nextTurn();
  }
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
  // A day or time that does not exist (31 February, 25:75, an hour skipped in March) is refused,
  // not rolled over into another.
  if (Number.isNaN(when.getTime()) || ukLocalInput(when) !== at) {
    throw new IssueRefusal('That date and time do not exist.', 400);
  }
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

/**
 * The chore (every few seconds, every instance), each issue on its own (one that fails does not
 * hold up the others): starts the scheduled issues whose time has come, finishes writing the
 * recipients of any issue a stopped process left half-written, and marks `sent` the prepared
 * issues with no row left to send.
 */
export async function issueChores(
  deps: IssueDeps & { log?: FastifyBaseLogger },
  record: (id: string) => RecordAction,
  now = new Date(),
): Promise<void> {
  await deps.db.execute(sql`
    update ${newsletterIssues} i set status = 'sent', finished_at = now(), updated_at = now()
    where i.status = 'sending' and i.prepared_at is not null and not exists (
      select 1 from outbox o where o.mailing_id = i.id and o.status in ('pending', 'held'))`);
  const due = await deps.db
    .select({ id: newsletterIssues.id })
    .from(newsletterIssues)
    .where(and(eq(newsletterIssues.status, 'scheduled'), lte(newsletterIssues.scheduledFor, now)));
  const unprepared = await deps.db
    .select({ id: newsletterIssues.id })
    .from(newsletterIssues)
    .where(and(inArray(newsletterIssues.status, ['sending', 'paused']), isNull(newsletterIssues.preparedAt)));
  const work = [
    ...due.map(
      ({ id }) =>
        () =>
          startIssue(deps, id, { scheduledOnly: true, now, record: record(id) }),
    ),
    ...unprepared.map(
      ({ id }) =>
        () =>
          prepareIssue(deps, id),
    ),
  ];
  for (const run of work) {
    try {
      await run();
    } catch (error) {
      deps.log?.warn({ code: errorCode(error) }, 'a newsletter issue could not be started; tried again soon');
    }
  }
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
