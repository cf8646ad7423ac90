/**
 * The submissions repository: every way the form endpoint stores a submission.
 * - `storeSpam`: the row alone, flagged, never mailed;
 * - `store`, for a handler with `compose` and no Idempotency-Key: the submission, its consent
 *   and its e-mails in one statement, written together with the other requests of the same
 *   moment (`./submission-writer.ts`, the group commit);
 * - `store`, otherwise: one transaction holding the submission, its consent, the feature's own
 *   rows (`accept`) and its e-mails. Under an Idempotency-Key the submission is inserted once:
 *   a repeat gets the first answer and writes nothing, and the same key with another body is
 *   refused (`mismatch`).
 */
import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { ConsentVersion } from '~/content/consents';
import type { Database, Db, Tx } from '../../kit/db/client';
import { consentRecords, submissions } from '../../kit/db/schema';
import type { ComposeContext, FormHandler } from '../../kit/http/form-handler';
import { enqueueEmails, type OutgoingEmail } from '../../kit/mail/outbox';
import {
  createSubmissionWriter,
  insertSubmissions,
  type SubmissionRow,
  type SubmissionWriter,
} from './submission-writer';

export type { SubmissionRow } from './submission-writer';

/** What the visitor is answered: the submission's id and the handler's extra fields. */
export type Answer = { id: unknown } & Record<string, unknown>;

export type NewSubmission = {
  row: SubmissionRow;
  consent?: ConsentVersion;
  handler: Pick<FormHandler, 'accept' | 'compose'>;
  /** What the handler is given, but for `sendEmail`: the repository collects the e-mails. */
  context: Omit<ComposeContext<unknown>, 'sendEmail'>;
  idempotencyKey?: string;
};

export type Stored =
  | { ok: true; answer: Answer; emails: readonly OutgoingEmail[] }
  /** The Idempotency-Key was used before for another body. */
  | { ok: false; reason: 'mismatch' };

export type Submissions = {
  storeSpam(row: SubmissionRow, reason: string): Promise<void>;
  store(submission: NewSubmission): Promise<Stored>;
};

export function createSubmissions(database: Database): Submissions {
  // The pool takes a few statements at once.
  const writer = createSubmissionWriter(database, { maxInFlight: 2 });
  return {
    async storeSpam(row, reason) {
      await database.db.insert(submissions).values({ ...row, spam: true, spamReason: reason });
    },
    store(submission) {
      return submission.handler.compose && !submission.idempotencyKey
        ? storeInOneStatement(writer, submission)
        : storeInTransaction(database.db, submission);
    },
  };
}

/** Nothing of the feature's own to write: one statement, atomic by itself, one round trip. */
async function storeInOneStatement(
  writer: SubmissionWriter,
  { row, consent, handler, context }: NewSubmission,
): Promise<Stored> {
  const emails: OutgoingEmail[] = [];
  const extra = (await handler.compose?.({ ...context, sendEmail: (...more) => emails.push(...more) })) ?? {};
  await writer.write({ row, consent, emails });
  return { ok: true, answer: { id: row.id, ...extra }, emails };
}

/** The submission, its consent, the feature's rows (`accept`) and its e-mails in one transaction. */
async function storeInTransaction(db: Db, submission: NewSubmission): Promise<Stored> {
  const { row, consent, handler, context, idempotencyKey } = submission;
  return db.transaction(async (tx) => {
    const hash = idempotencyKey ? requestHash(context.data) : undefined;
    if (idempotencyKey) {
      const earlier = await insertOnce(tx, row, idempotencyKey, hash!);
      if (earlier) return earlier;
      if (consent)
        await tx
          .insert(consentRecords)
          .values({ submissionId: row.id, consentId: consent.id, wording: consent.text });
    } else {
      await insertSubmissions(tx, [{ row, consent, emails: [] }]);
    }
    const emails: OutgoingEmail[] = [];
    const base = { ...context, sendEmail: (...more: OutgoingEmail[]) => emails.push(...more) };
    const extra =
      (await (handler.accept ? handler.accept({ ...base, tx }) : handler.compose?.(base))) ?? undefined;
    await enqueueEmails(tx, row.id, emails);
    if (idempotencyKey && extra) {
      await tx.update(submissions).set({ response: extra }).where(eq(submissions.id, row.id));
    }
    return { ok: true, answer: { id: row.id, ...extra }, emails };
  });
}

/** What an Idempotency-Key is bound to: the validated fields, spam-trap fields aside. */
export function requestHash(data: unknown): string {
  return createHash('sha256').update(JSON.stringify(data)).digest('base64url');
}

/**
 * Inserts the submission under its Idempotency-Key. Undefined when it is new; for a key seen
 * before, the first request's answer (nothing is written), or `mismatch` when that request had
 * another body (a client bug or a probe: never another request's answer). Rows stored before
 * bodies were hashed have no hash and replay as before.
 */
export async function insertOnce(
  tx: Tx,
  row: SubmissionRow,
  idempotencyKey: string,
  hash: string,
): Promise<Stored | undefined> {
  const inserted = await tx
    .insert(submissions)
    .values({ ...row, idempotencyKey, requestHash: hash })
    .onConflictDoNothing()
    .returning({ id: submissions.id });
  if (inserted.length > 0) return undefined;
  const [first] = await tx
    .select({ id: submissions.id, response: submissions.response, requestHash: submissions.requestHash })
    .from(submissions)
    .where(and(eq(submissions.formType, row.formType), eq(submissions.idempotencyKey, idempotencyKey)));
  if (first?.requestHash && first.requestHash !== hash) return { ok: false, reason: 'mismatch' };
  return { ok: true, answer: { id: first?.id, ...(first?.response as object | null) }, emails: [] };
}
