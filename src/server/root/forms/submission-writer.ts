/**
 * Group commit for the fast path: submissions that arrive while a write is in flight are
 * written together in the next statement, and each request is answered only once the
 * statement holding its rows has committed. One statement for many submissions costs little
 * more than one for a single submission, so throughput grows with load instead of queueing
 * behind per-request round trips.
 */
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { ConsentVersion } from '~/content/consents';
import type { LeadState } from '~/contract/lead-states';
import type { Database, NamedStatement, Queryable } from '../../kit/db/client';
import { outboxRows, type OutgoingEmail } from '../../kit/mail/outbox';

export type SubmissionRow = {
  id: string;
  formType: string;
  fields: unknown;
  userAgent: string | null;
  ipHash: string;
  /** 'new' for a lead's form, null for the others (`leadStateOnArrival`). */
  leadState: LeadState | null;
};

export type PendingSubmission = {
  row: SubmissionRow;
  consent?: ConsentVersion;
  emails: readonly OutgoingEmail[];
};

/** At most this many submissions in one statement (about 1 MB of JSON for contact messages). */
const MAX_BATCH = 200;

/**
 * Writes submissions, their consent records and their outbox e-mails in one statement:
 * data-modifying CTEs run together, their foreign keys are checked at the end, and a single
 * statement commits or fails as a whole. The rows travel as one JSON parameter, so the
 * statement's text is the same for any number of submissions: Postgres parses a short
 * statement and binds one value, instead of a statement with sixteen parameters a submission.
 */
const insertStatement = (batch: string) => sql`
  with batch as (
    select * from jsonb_to_recordset(${batch}::jsonb) as b(
      id uuid, form_type text, fields jsonb, user_agent text, ip_hash text, lead_state text,
      consent_id text, wording text, emails jsonb)
  ),
  s as (
    insert into submissions (id, form_type, fields, user_agent, ip_hash, lead_state)
    select id, form_type, fields, user_agent, ip_hash, lead_state from batch
    returning id
  ),
  c as (
    insert into consent_records (submission_id, consent_id, wording)
    select id, consent_id, wording from batch where consent_id is not null
  ),
  o as (
    insert into outbox (submission_id, kind, to_address, audience, message, next_attempt_at)
    select batch.id, e.kind, e.to_address, e.audience, e.message, coalesce(e.send_at, now())
    from batch, jsonb_to_recordset(batch.emails)
      as e(kind text, to_address text, audience text, message jsonb, send_at timestamptz)
  )
  select count(*) from s`;

/** The batch as the statement's one parameter. */
function batchParameter(items: readonly PendingSubmission[]): string {
  return JSON.stringify(
    items.map(({ row, consent, emails }) => ({
      id: row.id,
      form_type: row.formType,
      fields: row.fields,
      user_agent: row.userAgent,
      ip_hash: row.ipHash,
      lead_state: row.leadState,
      consent_id: consent?.id ?? null,
      wording: consent?.text ?? null,
      emails: outboxRows(emails).map((m) => ({
        kind: m.kind,
        to_address: m.toAddress,
        audience: m.audience,
        message: m.message,
        // An e-mail due later (a reminder) waits until then, as enqueueEmails queues it.
        send_at: m.nextAttemptAt ?? null,
      })),
    })),
  );
}

/** The same statement, named, for the writer: Postgres parses and plans it once a connection. */
const INSERT_SUBMISSIONS: NamedStatement = {
  name: 'insert_submissions',
  text: new PgDialect().sqlToQuery(insertStatement('')).sql,
};

/** Writes submissions inside a transaction of the caller's. */
export async function insertSubmissions(q: Queryable, items: readonly PendingSubmission[]): Promise<void> {
  if (items.length === 0) return;
  await q.execute(insertStatement(batchParameter(items)));
}

export type SubmissionWriter = { write(item: PendingSubmission): Promise<void> };

export function createSubmissionWriter(database: Database, { maxInFlight = 1 } = {}): SubmissionWriter {
  const write = (items: readonly PendingSubmission[]) =>
    database.run(INSERT_SUBMISSIONS, [batchParameter(items)]);
  const queue: { item: PendingSubmission; resolve: () => void; reject: (e: unknown) => void }[] = [];
  let inFlight = 0;
  let scheduled = false;

  // A new submission waits for the check phase, so that every request read in this turn of
  // the event loop joins the same statement.
  function schedule() {
    if (scheduled || inFlight >= maxInFlight || queue.length === 0) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      void flush();
    });
  }

  async function flush() {
    if (queue.length === 0 || inFlight >= maxInFlight) return;
    const batch = queue.splice(0, MAX_BATCH);
    inFlight += 1;
    let written = true;
    try {
      await write(batch.map((b) => b.item));
    } catch {
      written = false;
      // One bad row must not fail its neighbours: write them one by one and answer each.
      for (const b of batch) {
        try {
          await write([b.item]);
          b.resolve();
        } catch (error) {
          b.reject(error);
        }
      }
    } finally {
      inFlight -= 1;
    }
    // The database is free: hand it what arrived during this statement before answering, so
    // it works on the next batch while this thread writes the answers.
    void flush();
    if (written) for (const b of batch) b.resolve();
  }

  return {
    write(item) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        schedule();
      });
    },
  };
}
