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

const BATCH = 500;
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

/**
 * A CSV stream of `batches` of rows, each an array of cells in the order of `headers`: the
 * byte-order mark and the header first. The rows are neutralised in place (safeCell).
 */
export function csvStream(headers: readonly string[], batches: AsyncIterable<unknown[][]>): Readable {
  return Readable.from(
    (async function* () {
      yield stringify([headers], { ...CSV_OPTIONS, bom: true });
      for await (const rows of batches) {
        if (rows.length === 0) continue;
        for (const row of rows) for (let i = 0; i < row.length; i += 1) row[i] = safeCell(row[i]);
        yield stringify(rows, CSV_OPTIONS);
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

export const SUBMISSION_HEADERS = [
  'Id',
  'Form',
  'Received at (UTC)',
  'Status',
  'Spam reason',
  ...FIELD_COLUMNS.map(([, header]) => header),
];

/**
 * Every submission of an inbox view, newest first, in keyset batches, as rows of cells under
 * SUBMISSION_HEADERS. Each row comes from the database as one JSON array of its cells
 * (json_build_array) and is parsed here: decoding a dozen typed columns a row (on PGlite's one
 * thread) and building an object a row (garbage the server's small young generation, decision
 * 015, then had to collect) were most of an export's time. The next batch is asked for before
 * this one is handed on, so the database is never idle while the CSV is written.
 */
export async function* submissionRows(db: Queryable, query: InboxQuery): AsyncGenerator<unknown[][]> {
  const cells = sql.join(
    [
      sql`${submissions.id}`,
      sql`${submissions.formType}`,
      sql`${submissions.receivedAt}`,
      sql`case when ${submissions.spam} then 'spam' else 'received' end`,
      sql`${submissions.spamReason}`,
      ...FIELD_COLUMNS.map(([key]) => sql`${submissions.fields}->${sql.raw(`'${key}'`)}`),
    ],
    sql`, `,
  );
  const batch = (after: InboxQuery['after']) =>
    db
      .select({ row: sql<string>`json_build_array(${cells})::text` })
      .from(submissions)
      .where(and(...inboxConditions({ ...query, after })))
      .orderBy(desc(submissions.receivedAt), desc(submissions.id))
      .limit(BATCH)
      // Started now (a query builder runs only when awaited), so it runs while this batch is written.
      .execute();
  let next: ReturnType<typeof batch> | undefined = batch(query.after);
  while (next) {
    const rows: unknown[][] = (await next).map((r) => JSON.parse(r.row) as unknown[]);
    const last = rows[rows.length - 1];
    // The JSON timestamp keeps the microseconds the cursor needs.
    next = rows.length === BATCH && last ? batch({ at: String(last[2]), id: String(last[0]) }) : undefined;
    for (const row of rows) row[2] = new Date(row[2] as string).toISOString();
    yield rows;
  }
}

export const SUBSCRIBER_HEADERS = ['Email', 'First name', 'Last name', 'Confirmed at (UTC)'];

/** The confirmed newsletter subscribers, for a mailing tool. */
export async function* confirmedSubscribers(db: Queryable): AsyncGenerator<unknown[][]> {
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
    yield rows.map((r) => [
      r.email,
      r.firstName,
      r.lastName,
      r.confirmedAt ? r.confirmedAt.toISOString() : '',
    ]);
    if (rows.length < BATCH) return;
    after = rows[rows.length - 1]!.email;
  }
}
