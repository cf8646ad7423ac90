/**
 * The personal data of the form pipeline's own tables (src/server/kit/db/schema.ts): submissions,
 * the consents given with them, and the e-mails of the outbox. Declared as every feature declares
 * its own (src/server/kit/personal-data.ts); the composition root lists them with the features'.
 */
import { and, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { formTypeLabels, type FormType } from '~/contract/console';
import { peopleCopy, retentionCopy } from '~/content/console';
import type { RetentionPeriods } from '~/content/retention';
import type { Queryable } from './db/client';
import { rowsOf } from './db/rows';
import { consentRecords, outbox, submissions } from './db/schema';
import { emlFileName } from './mail/transport';
import { definePersonalData, rowsOfSubmissions, type RetentionScope } from './personal-data';

/**
 * Deletes the submissions `pick` selects with everything that hangs off them, in one statement:
 * their e-mails here (for the names of their .eml files), the rest (consents, a feature's rows) by
 * the foreign keys' cascade. On PGlite a transaction of several statements holds the database
 * across a round trip between threads for each, and a form submitted meanwhile waited for all of
 * them.
 */
export async function deleteSubmissions(
  q: Queryable,
  pick: SQL,
): Promise<{ deleted: number; files: string[] }> {
  const [answer] = rowsOf<{ deleted: number; mails: [number, string][] | string | null }>(
    await q.execute(sql`
      with picked as materialized (${pick}),
      mails as (delete from outbox where submission_id in (select id from picked) returning id, kind),
      gone as (delete from submissions where id in (select id from picked) returning id)
      select (select count(*) from gone)::int as deleted,
             (select json_agg(json_build_array(id, kind)) from mails) as mails`),
  );
  const mails =
    typeof answer?.mails === 'string' ? (JSON.parse(answer.mails) as [number, string][]) : answer?.mails;
  return {
    deleted: Number(answer?.deleted ?? 0),
    files: (mails ?? []).map(([id, kind]) => emlFileName(Number(id), kind)),
  };
}

export const submissionsData = definePersonalData<typeof submissions.$inferSelect>({
  key: 'submissions',
  title: peopleCopy.submissions,
  noun: 'submissions',
  rows: {
    find: (q, person) => q.select().from(submissions).where(eq(submissions.emailKey, person.email)),
    show: (s) => ({
      text: formTypeLabels[s.formType as FormType] ?? s.formType,
      at: s.receivedAt.toISOString(),
      flag: s.spam ? peopleCopy.spam : undefined,
      submissionId: s.id,
    }),
    // The keyed hash of the client address and the derived columns are not about the person.
    export: ({ ipHash: _ip, searchText: _s, emailKey: _k, ...row }) => row,
    async erase(tx, person) {
      if (person.submissionIds.length)
        await tx.delete(submissions).where(inArray(submissions.id, person.submissionIds));
    },
  },
  retention: [
    {
      count: 'spam',
      describe: (p) => retentionCopy.spam(p.spamDays),
      submissions: ({ at, periods, batchSize }) => sql`select id from submissions
        where spam and received_at < ${at} - make_interval(days => ${periods.spamDays})
        limit ${batchSize}`,
    },
  ],
  countLabels: { spam: retentionCopy.countLabels.spam! },
});

export const consentsData = definePersonalData<typeof consentRecords.$inferSelect>({
  key: 'consents',
  title: peopleCopy.consents,
  noun: 'consents',
  rows: {
    find: (q, person) => rowsOfSubmissions(q, consentRecords, consentRecords.submissionId, person),
    show: (c) => ({ text: c.wording, at: c.givenAt.toISOString() }),
  },
});

/**
 * The e-mails their submissions produced (theirs and the owner's copies), and the e-mails to their
 * address that belong to no submission (a sign-in link). An e-mail to their address about someone
 * else's submission is that person's: a notification to an address that was once the owner's
 * stays when that address is erased (decision 030).
 */
export const emailsData = definePersonalData<typeof outbox.$inferSelect>({
  key: 'emails',
  title: peopleCopy.emails,
  noun: 'e-mails',
  rows: {
    find: (q, { email, submissionIds }) => {
      const toThemAlone = and(sql`lower(${outbox.toAddress}) = ${email}`, isNull(outbox.submissionId));
      return q
        .select()
        .from(outbox)
        .where(
          submissionIds.length ? or(toThemAlone, inArray(outbox.submissionId, submissionIds)) : toThemAlone,
        );
    },
    show: (e) => ({
      text: `${e.kind} ${e.status}`,
      at: e.createdAt.toISOString(),
      flag: e.bodyRemovedAt !== null ? peopleCopy.textRemoved : undefined,
      code: true,
    }),
    async erase(tx, _person, rows) {
      if (rows.length)
        await tx.delete(outbox).where(
          inArray(
            outbox.id,
            rows.map((e) => Number(e.id)),
          ),
        );
    },
  },
  retention: [
    // The text goes, the record stays (kind, recipient, status, times). Sent ones by their sending
    // time, the others (failed, skipped, suppressed, cancelled) by when they were queued; each in the order of
    // its partial index (outbox_bodies_kept, outbox_unsent_bodies_kept): without the order, a
    // planner that expects many due rows reads the whole outbox to find a few.
    ...(['sent', 'unsent'] as const).map((which) => ({
      count: 'emailBodies',
      describe: (p: RetentionPeriods) => retentionCopy.emails(p.emailBodyDays),
      sweep: (db: Queryable, scope: RetentionScope) => emptyBodies(db, scope, which),
    })),
  ],
  countLabels: { emailBodies: retentionCopy.countLabels.emailBodies! },
});

const STUB = JSON.stringify({ subject: '', content: { preheader: '', heading: '', blocks: [] } });

async function emptyBodies(
  db: Queryable,
  { at, periods, batchSize }: RetentionScope,
  which: 'sent' | 'unsent',
): Promise<{ count: number; files: string[] }> {
  const cutoff = sql`${at} - make_interval(days => ${periods.emailBodyDays})`;
  const due =
    which === 'sent'
      ? sql`status = 'sent' and body_removed_at is null and sent_at < ${cutoff} order by sent_at`
      : sql`status in ('failed', 'skipped', 'suppressed', 'cancelled') and body_removed_at is null and created_at < ${cutoff} order by created_at`;
  const emptied = rowsOf<{ id: number; kind: string }>(
    await db.execute(sql`
      update outbox set message = ${STUB}::jsonb, body_removed_at = ${at}
      where id in (select id from outbox where ${due} limit ${batchSize})
      returning id, kind`),
  );
  return { count: emptied.length, files: emptied.map((m) => emlFileName(Number(m.id), m.kind)) };
}
