/**
 * The spam folder's actions: "Not spam" (the submission is delivered, exactly once, by its form's
 * handler from the dispatch table) and "Delete". Each writes the owner's audit row in its own
 * transaction. The folder itself is an inbox view (`?status=spam`, inbox.ts).
 */
import { and, eq } from 'drizzle-orm';
import { NO_SUCH_SUBMISSION, spamRoutes } from '~/contract/inbox';
import type { Config } from '../kit/config';
import type { Db, Tx } from '../kit/db/client';
import { consentRecords, outbox, submissions } from '../kit/db/schema';
import type { FormHandler } from '../kit/http/form-handler';
import type { Links } from '../kit/http/links';
import type { Diary } from '../kit/diary';
import type { ConsoleArea } from '../kit/http/owner-routes';
import { Refusal } from '../kit/http/request-checks';
import { enqueueEmails, type OutgoingEmail } from '../kit/mail/outbox';
import { audit } from '../kit/audit';
import { parsedFields } from './inbox';

export const NOT_HELD = 'This submission is not held as spam.';

/** The form handlers by form type: the dispatch table's. */
export type FormHandlers = Readonly<Record<string, FormHandler>>;

export type ReleaseContext = {
  db: Db;
  config: Config;
  links: Links;
  diary: Diary;
  handlers: FormHandlers;
};

type Released = { formType: string; fields: unknown; receivedAt: Date };

/**
 * Runs the form's handler for a released submission, as if it had just passed: its consent record
 * and its e-mails. Nothing if it produced e-mails before (it was delivered, then marked as spam).
 */
async function deliver(ctx: ReleaseContext, tx: Tx, id: string, row: Released, now: Date): Promise<number> {
  const [earlier] = await tx
    .select({ id: outbox.id })
    .from(outbox)
    .where(eq(outbox.submissionId, id))
    .limit(1);
  const handler = Object.hasOwn(ctx.handlers, row.formType) ? ctx.handlers[row.formType] : undefined;
  if (earlier || !handler) return 0;
  const data = parsedFields(row.fields);
  const consent = handler.consent?.(data, data);
  if (consent) {
    await tx
      .insert(consentRecords)
      .values({ submissionId: id, consentId: consent.id, wording: consent.text, givenAt: row.receivedAt });
  }
  const emails: OutgoingEmail[] = [];
  const context = {
    data,
    submissionId: id,
    receivedAt: now,
    config: ctx.config,
    links: ctx.links,
    diary: ctx.diary,
    releasedByOwner: true,
    sendEmail: (...more: OutgoingEmail[]) => emails.push(...more),
  };
  if (handler.accept) await handler.accept({ ...context, tx });
  else await handler.compose?.(context);
  await enqueueEmails(tx, id, emails);
  return emails.length;
}

/**
 * "Not spam": the submission leaves the spam folder and is delivered as if it had just passed,
 * exactly once. The conditional update takes the row, so of two presses at once one releases
 * it and the other finds it released (409). Its e-mails are queued in the same transaction;
 * `write` runs last in it (the owner's audit row), with the number of e-mails queued.
 */
export async function releaseSubmission(
  ctx: ReleaseContext,
  id: string,
  now = new Date(),
  write?: (tx: Tx, emails: number) => Promise<void>,
): Promise<number> {
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(submissions)
      .set({ spam: false, releasedAt: now })
      .where(and(eq(submissions.id, id), eq(submissions.spam, true)))
      .returning({
        formType: submissions.formType,
        fields: submissions.fields,
        receivedAt: submissions.receivedAt,
      });
    if (!row) {
      const [exists] = await tx
        .select({ id: submissions.id })
        .from(submissions)
        .where(eq(submissions.id, id));
      throw new Refusal(exists ? 409 : 404, { error: exists ? NOT_HELD : NO_SUCH_SUBMISSION });
    }
    const emails = await deliver(ctx, tx, id, row, now);
    await write?.(tx, emails);
    return emails;
  });
}

/**
 * "Delete": removes a submission held as spam, with everything that hangs off it (its consent
 * records, e-mails, booking, registrations go by the foreign keys' cascade, migration 0011).
 * `write` runs last in the same transaction (the owner's audit row).
 */
export async function deleteSpam(db: Db, id: string, write?: (tx: Tx) => Promise<void>): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ spam: submissions.spam })
      .from(submissions)
      .where(eq(submissions.id, id))
      .for('update');
    if (!row) throw new Refusal(404, { error: NO_SUCH_SUBMISSION });
    if (!row.spam) throw new Refusal(409, { error: 'Only a submission held as spam can be deleted here.' });
    await tx.delete(submissions).where(eq(submissions.id, id));
    await write?.(tx);
  });
}

/** The Spam area: "Not spam" and "Delete"; a release runs the form's handler from `handlers`. */
export const spamArea =
  (handlers: FormHandlers): ConsoleArea =>
  (routes, { config, db, links, clock, wakeOutbox, diary }) => {
    routes.on(spamRoutes.release, async ({ params: { id }, owner, request }) => {
      const emails = await releaseSubmission(
        { db, config, links, diary, handlers },
        id,
        clock(),
        (tx, emails) => audit(tx, owner.email, 'submission.release', id, { emails }),
      );
      if (emails > 0) wakeOutbox();
      request.log.info({ submissionId: id, emails }, 'submission released from spam');
      return { ok: true as const, emails };
    });
    routes.on(spamRoutes.delete, async ({ params: { id }, owner }) => {
      await deleteSpam(db, id, (tx) => audit(tx, owner.email, 'submission.delete', id));
      return { ok: true as const };
    });
  };
