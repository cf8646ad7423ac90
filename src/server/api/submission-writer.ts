/**
 * Group commit for the fast path: submissions that arrive while a write is in flight are
 * written together in the next statement, and each request is answered only once the
 * statement holding its rows has committed. One statement for many submissions costs little
 * more than one for a single submission, so throughput grows with load instead of queueing
 * behind per-request round trips (PGlite runs one statement at a time).
 */
import { sql, type SQL } from 'drizzle-orm';
import type { ConsentVersion } from '~/content/consents';
import type { Db, Queryable } from '../db/client';
import { outboxRows, type OutgoingEmail } from '../mail/outbox';

export type SubmissionRow = {
  id: string;
  formType: string;
  fields: unknown;
  userAgent: string | null;
  ipHash: string;
};

export type PendingSubmission = {
  row: SubmissionRow;
  consent?: ConsentVersion;
  emails: readonly OutgoingEmail[];
};

/** At most this many submissions in one statement (Postgres allows 65,535 parameters). */
const MAX_BATCH = 200;

/**
 * Writes submissions, their consent records and their outbox e-mails in one statement:
 * data-modifying CTEs run together, their foreign keys are checked at the end, and a single
 * statement commits or fails as a whole.
 */
export async function insertSubmissions(q: Queryable, items: readonly PendingSubmission[]): Promise<void> {
  if (items.length === 0) return;
  const parts: SQL[] = [
    sql`s as (insert into submissions (id, form_type, fields, user_agent, ip_hash) values ${sql.join(
      items.map(
        ({ row }) =>
          sql`(${row.id}, ${row.formType}, ${JSON.stringify(row.fields)}::jsonb, ${row.userAgent}, ${row.ipHash})`,
      ),
      sql`, `,
    )} returning id)`,
  ];
  const consents = items.filter((i) => i.consent);
  if (consents.length > 0) {
    parts.push(
      sql`c as (insert into consent_records (submission_id, consent_id, wording) values ${sql.join(
        consents.map(({ row, consent }) => sql`(${row.id}::uuid, ${consent!.id}, ${consent!.text})`),
        sql`, `,
      )})`,
    );
  }
  const mails = items.flatMap(({ row, emails }) =>
    outboxRows(emails).map((m) => ({ ...m, submissionId: row.id })),
  );
  if (mails.length > 0) {
    parts.push(
      sql`o as (insert into outbox (submission_id, kind, to_address, message) values ${sql.join(
        mails.map(
          (m) =>
            sql`(${m.submissionId}::uuid, ${m.kind}, ${m.toAddress}, ${JSON.stringify(m.message)}::jsonb)`,
        ),
        sql`, `,
      )})`,
    );
  }
  await q.execute(sql`with ${sql.join(parts, sql`, `)} select count(*) from s`);
}

export type SubmissionWriter = { write(item: PendingSubmission): Promise<void> };

export function createSubmissionWriter(db: Db, { maxInFlight = 1 } = {}): SubmissionWriter {
  let queue: { item: PendingSubmission; resolve: () => void; reject: (e: unknown) => void }[] = [];
  let inFlight = 0;
  let scheduled = false;

  // PGlite executes synchronously inside the promise chain: starting a write at once would
  // block the event loop before the other requests of this turn are even read. Waiting for
  // the check phase lets every request that has arrived join the same statement.
  function schedule() {
    if (scheduled || inFlight >= maxInFlight || queue.length === 0) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      void flush();
    });
  }

  async function flush() {
    const batch = queue.slice(0, MAX_BATCH);
    queue = queue.slice(batch.length);
    inFlight += 1;
    try {
      await insertSubmissions(
        db,
        batch.map((b) => b.item),
      );
      for (const b of batch) b.resolve();
    } catch {
      // One bad row must not fail its neighbours: write them one by one and answer each.
      for (const b of batch) {
        try {
          await insertSubmissions(db, [b.item]);
          b.resolve();
        } catch (error) {
          b.reject(error);
        }
      }
    } finally {
      inFlight -= 1;
      schedule();
    }
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
