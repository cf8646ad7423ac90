/**
 * CSV exports of an inbox view (filtered as the screen is) and of the confirmed newsletter
 * subscribers, written by `csv-stringify`: RFC 4180 (CRLF rows, quotes doubled, quoted where a
 * cell needs it), UTF-8 with a byte-order mark so Excel reads it as UTF-8, and every cell that
 * starts with =, +, -, @, a tab or a carriage return prefixed with ' so that no spreadsheet runs
 * it as a formula (CSV injection). Rows are read in keyset batches and streamed with back
 * pressure: a million rows never sit in memory.
 */
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import { and, asc, desc, eq, gt, sql } from 'drizzle-orm';
import { newsletterSubscribers } from '~/features/newsletter/tables.server';
import type { Queryable } from '../kit/db/client';
import { submissions } from '../kit/db/schema';
import { inboxConditions, type InboxQuery } from './inbox';

const BATCH = 2000;
const FORMULA_START = /^[=+\-@\t\r]/;

/** A cell as text, neutralised when a spreadsheet would read it as a formula. */
export function safeCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text =
    value instanceof Date
      ? value.toISOString()
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value);
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** A CSV stream of `rows` under `columns` (header first). */
export function csvStream(
  columns: readonly { key: string; header: string }[],
  rows: AsyncIterable<Record<string, unknown>>,
): Readable {
  const out = stringify({
    bom: true,
    header: true,
    record_delimiter: 'windows',
    columns: columns.map((c) => ({ key: c.key, header: c.header })),
  });
  const source = Readable.from(
    (async function* () {
      for await (const row of rows) {
        const clean: Record<string, unknown> = {};
        for (const c of columns) clean[c.key] = safeCell(row[c.key]);
        yield clean;
      }
    })(),
  );
  source.on('error', (error) => out.destroy(error));
  return source.pipe(out);
}

/** The field keys of every form, in the export's column order. */
const FIELD_COLUMNS = [
  ['firstName', 'First name'],
  ['lastName', 'Last name'],
  ['email', 'Email'],
  ['phone', 'Phone'],
  ['company', 'Company'],
  ['role', 'Job title'],
  ['subject', 'Subject'],
  ['message', 'Message'],
  ['notes', 'Notes'],
  ['sessionType', 'Session format'],
  ['firstChoiceDate', 'First choice date'],
  ['firstChoiceTime', 'First choice time'],
  ['secondChoiceDate', 'Second choice date'],
  ['secondChoiceTime', 'Second choice time'],
] as const;

export const SUBMISSION_COLUMNS = [
  { key: 'id', header: 'Id' },
  { key: 'formType', header: 'Form' },
  { key: 'receivedAt', header: 'Received at (UTC)' },
  { key: 'status', header: 'Status' },
  { key: 'spamReason', header: 'Spam reason' },
  ...FIELD_COLUMNS.map(([key, header]) => ({ key, header })),
] as const;

/** Every submission of an inbox view, newest first, in keyset batches. */
export async function* submissionRows(
  db: Queryable,
  query: InboxQuery,
): AsyncGenerator<Record<string, unknown>> {
  let after = query.after;
  for (;;) {
    const rows = await db
      .select({
        id: submissions.id,
        formType: submissions.formType,
        receivedAt: submissions.receivedAt,
        cursorAt: sql<string>`${submissions.receivedAt}::text`,
        spam: submissions.spam,
        spamReason: submissions.spamReason,
        fields: submissions.fields,
      })
      .from(submissions)
      .where(and(...inboxConditions({ ...query, after })))
      .orderBy(desc(submissions.receivedAt), desc(submissions.id))
      .limit(BATCH);
    for (const row of rows) {
      const fields = (typeof row.fields === 'string' ? JSON.parse(row.fields) : row.fields) as Record<
        string,
        unknown
      >;
      const out: Record<string, unknown> = {
        id: row.id,
        formType: row.formType,
        receivedAt: new Date(row.receivedAt).toISOString(),
        status: row.spam ? 'spam' : 'received',
        spamReason: row.spamReason,
      };
      for (const [key] of FIELD_COLUMNS) out[key] = fields?.[key];
      yield out;
    }
    if (rows.length < BATCH) return;
    const last = rows[rows.length - 1]!;
    after = { at: last.cursorAt, id: last.id };
  }
}

export const SUBSCRIBER_COLUMNS = [
  { key: 'email', header: 'Email' },
  { key: 'firstName', header: 'First name' },
  { key: 'lastName', header: 'Last name' },
  { key: 'confirmedAt', header: 'Confirmed at (UTC)' },
] as const;

/** The confirmed newsletter subscribers, for a mailing tool. */
export async function* confirmedSubscribers(db: Queryable): AsyncGenerator<Record<string, unknown>> {
  let after = '';
  for (;;) {
    const rows = await db
      .select({
        email: newsletterSubscribers.email,
        firstName: newsletterSubscribers.firstName,
        lastName: newsletterSubscribers.lastName,
        confirmedAt: newsletterSubscribers.confirmedAt,
      })
      .from(newsletterSubscribers)
      .where(and(eq(newsletterSubscribers.status, 'confirmed'), gt(newsletterSubscribers.email, after)))
      .orderBy(asc(newsletterSubscribers.email))
      .limit(BATCH);
    yield* rows.map((r) => ({ ...r, confirmedAt: r.confirmedAt ? r.confirmedAt.toISOString() : '' }));
    if (rows.length < BATCH) return;
    after = rows[rows.length - 1]!.email;
  }
}
