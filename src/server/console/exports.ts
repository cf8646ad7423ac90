/**
 * CSV exports of an inbox view (filtered as the screen is) and of the confirmed newsletter
 * subscribers, written by `csv-stringify`: RFC 4180 (CRLF rows, quotes doubled, quoted where a
 * cell needs it), UTF-8 with a byte-order mark so Excel reads it as UTF-8, and every cell that
 * starts with =, +, -, @, a tab or a carriage return prefixed with ' so that no spreadsheet runs
 * it as a formula (CSV injection). Rows are read in keyset batches and streamed with back
 * pressure: a million rows never sit in memory. Each batch is written as one piece of text (the
 * library's synchronous form, batch by batch): a stream of one small chunk per row spent more on
 * the chunks than on the rows (a million socket writes for a million rows).
 */
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
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

const CSV_OPTIONS = { record_delimiter: 'windows' } as const;

/** A CSV stream of `batches` of rows under `columns`: the byte-order mark and header first. */
export function csvStream(
  columns: readonly { key: string; header: string }[],
  batches: AsyncIterable<readonly Record<string, unknown>[]>,
): Readable {
  return Readable.from(
    (async function* () {
      yield stringify([columns.map((c) => c.header)], { ...CSV_OPTIONS, bom: true });
      for await (const rows of batches) {
        if (rows.length === 0) continue;
        yield stringify(
          rows.map((row) => columns.map((c) => safeCell(row[c.key]))),
          CSV_OPTIONS,
        );
      }
    })(),
    { objectMode: false },
  );
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

type ExportRow = [
  id: string,
  formType: string,
  receivedAt: string,
  spam: boolean,
  spamReason: string | null,
  fields: Record<string, unknown> | null,
];

/**
 * Every submission of an inbox view, newest first, in keyset batches. Each row comes from the
 * database as one JSON text (json_build_array) and is parsed here: a driver that decodes seven
 * typed columns a row (PGlite decodes them on its one thread) spent most of an export doing so.
 * The next batch is asked for before this one is handed on, so the database is never idle
 * while the CSV is written.
 */
export async function* submissionRows(
  db: Queryable,
  query: InboxQuery,
): AsyncGenerator<Record<string, unknown>[]> {
  const batch = (after: InboxQuery['after']) =>
    db
      .select({
        row: sql<string>`json_build_array(${submissions.id}, ${submissions.formType}, ${submissions.receivedAt}, ${submissions.spam}, ${submissions.spamReason}, ${submissions.fields})::text`,
      })
      .from(submissions)
      .where(and(...inboxConditions({ ...query, after })))
      .orderBy(desc(submissions.receivedAt), desc(submissions.id))
      .limit(BATCH);
  let next: ReturnType<typeof batch> | undefined = batch(query.after);
  while (next) {
    const rows: ExportRow[] = (await next).map((r) => JSON.parse(r.row) as ExportRow);
    const last = rows[rows.length - 1];
    // The JSON timestamp keeps the microseconds the cursor needs.
    next = rows.length === BATCH && last ? batch({ at: last[2], id: last[0] }) : undefined;
    yield rows.map(([id, formType, receivedAt, spam, spamReason, fields]) => {
      const out: Record<string, unknown> = {
        id,
        formType,
        receivedAt: new Date(receivedAt).toISOString(),
        status: spam ? 'spam' : 'received',
        spamReason,
      };
      for (const [key] of FIELD_COLUMNS) out[key] = fields?.[key];
      return out;
    });
  }
}

export const SUBSCRIBER_COLUMNS = [
  { key: 'email', header: 'Email' },
  { key: 'firstName', header: 'First name' },
  { key: 'lastName', header: 'Last name' },
  { key: 'confirmedAt', header: 'Confirmed at (UTC)' },
] as const;

/** The confirmed newsletter subscribers, for a mailing tool. */
export async function* confirmedSubscribers(db: Queryable): AsyncGenerator<Record<string, unknown>[]> {
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
    yield rows.map((r) => ({ ...r, confirmedAt: r.confirmedAt ? r.confirmedAt.toISOString() : '' }));
    if (rows.length < BATCH) return;
    after = rows[rows.length - 1]!.email;
  }
}
