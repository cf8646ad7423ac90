/**
 * The CSV export of an inbox view (filtered as the screen is), written by the kit's `csvStream`
 * (src/server/kit/http/csv.ts: the console's CSV rules). Rows are read in keyset batches and
 * handed on GROUP at a time, so a million rows never sit in memory.
 */
import { and, desc, sql } from 'drizzle-orm';
import type { Queryable } from '../kit/db/client';
import { submissions } from '../kit/db/schema';
import { GROUP } from '../kit/http/csv';
import { inboxConditions, type InboxQuery } from './inbox';

/**
 * Rows a database read returns. A batch arrives as one text of some 300 bytes a row: 250 rows keep
 * it under V8's large-object size (128 KB), so it is made in the young generation and dies there.
 * Batches of 2,000 (600 KB) went straight to the old generation, which the server's V8 settings
 * (decision 009) collect with a full mark-compact every few megabytes: on a million-row export,
 * a hundred of them, each a pause of 5-20 ms that every visitor then waiting waited through too
 * (decision 034). The export was no faster with the larger batches.
 */
const BATCH = 250;

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
 * (json_build_array) and is parsed here: decoding a dozen typed columns a row and building an object a row (garbage the server's small young generation, decision
 * 015, then had to collect) were most of an export's time. A batch's rows are parsed and handed
 * on GROUP at a time, so few cells are alive at once. The next batch is asked for before this one
 * is handed on, so the database is never idle while the CSV is written.
 */
export async function* submissionRows(db: Queryable, query: InboxQuery): AsyncGenerator<unknown[][]> {
  const cells = sql.join(
    [
      sql`${submissions.id}`,
      sql`${submissions.formType}`,
      // UTC without a zone: JSON gives 'YYYY-MM-DDTHH:MM:SS[.ffffff]', whatever the session's zone.
      sql`${submissions.receivedAt} at time zone 'UTC'`,
      sql`case when ${submissions.spam} then 'spam' else 'received' end`,
      sql`${submissions.spamReason}`,
      ...FIELD_COLUMNS.map(([key]) => sql`${submissions.fields}->${sql.raw(`'${key}'`)}`),
    ],
    sql`, `,
  );
  // A batch comes back as one text, a row's JSON a line (JSON text holds no raw line break): one
  // value to decode instead of an object a row.
  const read = async (after: InboxQuery['after']): Promise<string[]> => {
    const view = db
      .select({
        row: sql<string>`json_build_array(${cells})::text`.as('row'),
        at: submissions.receivedAt,
        id: submissions.id,
      })
      .from(submissions)
      .where(and(...inboxConditions({ ...query, after })))
      .orderBy(desc(submissions.receivedAt), desc(submissions.id))
      .limit(BATCH)
      .as('batch');
    const [answer] = await db
      .select({
        rows: sql<string | null>`string_agg(${view.row}, E'\\n' order by ${view.at} desc, ${view.id} desc)`,
      })
      .from(view);
    return answer?.rows ? answer.rows.split('\n') : [];
  };
  // A batch holds one connection of the pool; visitors' statements have the others.
  const batch = read;
  // Started now, so the database reads the next batch while this one is written.
  let next: Promise<string[]> | undefined = batch(query.after);
  try {
    yield* rowsOf();
  } finally {
    // A download left or cut before its end leaves the batch asked for ahead: its failure (the
    // pool closed meanwhile) is nobody's to answer, and must not end the process.
    next?.catch(() => {});
  }

  async function* rowsOf(): AsyncGenerator<unknown[][]> {
    while (next) {
      const lines: string[] = await next;
      const last: unknown[] | undefined =
        lines.length === BATCH ? (JSON.parse(lines[BATCH - 1]!) as unknown[]) : undefined;
      // The JSON timestamp keeps the microseconds the cursor needs.
      next = last ? batch({ at: `${String(last[2])}+00:00`, id: String(last[0]) }) : undefined;
      for (let start = 0; start < lines.length; start += GROUP) {
        const rows: unknown[][] = [];
        for (let i = start; i < Math.min(start + GROUP, lines.length); i += 1) {
          const row = JSON.parse(lines[i]!) as unknown[];
          row[2] = isoUtc(row[2] as string);
          rows.push(row);
        }
        yield rows;
      }
    }
  }
}

/**
 * A UTC time as the database writes it in JSON ('2026-11-24T09:05:00.25', fraction optional, up to
 * microseconds) in the export's form, that of Date#toISOString ('2026-11-24T09:05:00.250Z'), by
 * slicing the text: a Date a row was a fifth of the time spent making each row.
 */
export function isoUtc(text: string): string {
  const fraction = text.length > 20 ? text.slice(20, 23).padEnd(3, '0') : '000';
  return `${text.slice(0, 19)}.${fraction}Z`;
}
