/**
 * The inbox: every submission, newest first, filtered by form, status and UK date, searched in
 * names, e-mail addresses, companies and messages, one page of 50 at a time. Paging is by keyset
 * (the last row's received_at and id), so the millionth row costs what the first does; the
 * indexes are in drizzle/0003_console.sql. Also one submission whole, and "Mark as spam"; the
 * spam folder's own actions are in spam.ts. The filters are read by the route's schema
 * (src/contract/inbox.ts).
 */
import { and, desc, eq, inArray, isNotNull, sql, type SQL } from 'drizzle-orm';
import type { FormType, SubmissionDetail, SubmissionPage, SubmissionSummary } from '~/contract/console';
import { inboxRoutes, NO_SUCH_SUBMISSION, type InboxQuery } from '~/contract/inbox';
import { cursorAfter } from '~/contract/query';
import { fieldLabel, fieldOrder, HIDDEN_FIELDS } from '~/content/submission-fields';
import type { LeadState } from '~/contract/lead-states';
import { bookingOfSubmission } from '~/features/booking/booking.server';
import type { Queryable } from '../kit/db/client';
import { pageOf } from '../kit/db/keyset';
import {
  consentRecords,
  outbox,
  SEARCH_PUNCTUATION,
  searchKey,
  spamIs,
  submissions,
  utcDay,
} from '../kit/db/schema';
import { audit } from '../kit/audit';
import type { ConsoleArea } from '../kit/http/owner-routes';
import { Refusal } from '../kit/http/request-checks';
import type { Config } from '../kit/config';
import type { FormHandler } from '../kit/http/form-handler';
import { deliverySummaries } from './deliveries';
import { notesOfLead } from './leads';

export const PAGE_SIZE = 50;

export type { InboxQuery };

const PUNCTUATION = new RegExp(SEARCH_PUNCTUATION, 'g');

/** `%text%` for LIKE, its own % _ and \ taken literally. */
function containsPattern(q: string): string {
  return `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const summaryColumns = {
  id: submissions.id,
  formType: submissions.formType,
  receivedAt: submissions.receivedAt,
  /** The exact timestamp (microseconds) for the next page's cursor. */
  cursorAt: sql<string>`${submissions.receivedAt}::text`,
  firstName: sql<string | null>`${submissions.fields}->>'firstName'`,
  lastName: sql<string | null>`${submissions.fields}->>'lastName'`,
  email: sql<string | null>`${submissions.fields}->>'email'`,
  company: sql<string | null>`${submissions.fields}->>'company'`,
  excerpt: sql<
    string | null
  >`left(coalesce(${submissions.fields}->>'message', ${submissions.fields}->>'notes'), 140)`,
  spam: submissions.spam,
  spamReason: submissions.spamReason,
  state: submissions.leadState,
};

type SummaryRow = {
  id: string;
  formType: string;
  receivedAt: Date;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  company: string | null;
  excerpt: string | null;
  spam: boolean;
  spamReason: string | null;
  state: LeadState | null;
};

function summary(row: SummaryRow): SubmissionSummary {
  return {
    id: row.id,
    formType: row.formType as FormType,
    receivedAt: new Date(row.receivedAt).toISOString(),
    name: [row.firstName, row.lastName].filter((part) => part && part.trim() !== '').join(' '),
    email: row.email ?? '',
    company: row.company && row.company.trim() !== '' ? row.company : null,
    excerpt: row.excerpt && row.excerpt.trim() !== '' ? row.excerpt : null,
    spam: row.spam,
    spamReason: row.spamReason,
    state: row.state,
  };
}

/** UK midnight at the start of `date` (YYYY-MM-DD). */
const ukStartOf = (date: string) => sql`(${date}::date)::timestamp at time zone 'Europe/London'`;

/** The filters of an inbox view as SQL conditions: the page and its CSV export read the same. */
export function inboxConditions(query: InboxQuery): SQL[] {
  const conditions: SQL[] = [];
  if (query.status !== 'all') conditions.push(spamIs(query.status === 'spam'));
  if (query.form) conditions.push(eq(submissions.formType, query.form));
  // Where a lead stands: leads are what was delivered, never spam.
  if (query.state) conditions.push(eq(submissions.leadState, query.state), spamIs(false));
  if (query.from) conditions.push(sql`${submissions.receivedAt} >= ${ukStartOf(query.from)}`);
  if (query.to) conditions.push(sql`${submissions.receivedAt} < ${ukStartOf(query.to)} + interval '1 day'`);
  if (query.q) {
    conditions.push(sql`${submissions.searchText} like ${containsPattern(query.q)}`);
    // What the trigram index can narrow by (SEARCH_PUNCTUATION): true of every row the line above
    // matches, since leaving characters out of both texts keeps a match a match.
    const key = query.q.toLowerCase().replace(PUNCTUATION, '');
    if (key !== '') conditions.push(sql`${searchKey(submissions.searchText)} like ${`%${key}%`}`);
  }
  if (query.after) {
    conditions.push(
      sql`(${submissions.receivedAt}, ${submissions.id}) < (${query.after.at}::timestamptz, ${query.after.id}::uuid)`,
    );
  }
  return conditions;
}

/**
 * A search first reads the newest `first` rows of its view, newest first, and looks in their text.
 * A term found in more than about one row in a hundred fills a page there (and the trigram index
 * would have fetched every row holding it, scattered over the whole table, to sort them: on
 * PGlite, a file read each). Otherwise the rate of matches in those rows says how far back a page
 * of them lies, and the index, which holds each row's UTC day beside its trigrams, is asked for
 * the rows holding the term since twice that far back: only those rows are fetched. A term seen
 * once or never in the newest rows is rare, and goes to the whole index at once, where its few rows
 * are cheap to fetch; so does a term whose page the window did not hold after all. Whichever way,
 * the page is the same rows; `false` asks the whole index at once.
 */
export type SearchWindows = { first: number } | false;
export const SEARCH_WINDOWS: SearchWindows = { first: 5_000 };
/** How much further back than the first window's rate says the index is asked to look. */
const WINDOW_MARGIN = 2;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The newest `rows` rows of the view, read whole: their newest matches (a page and one at most),
 * how many rows there were, and the times (epoch seconds) of the newest and the oldest.
 */
async function firstWindow(db: Queryable, query: InboxQuery, rows: number) {
  const recent = db
    .select({ id: submissions.id, receivedAt: submissions.receivedAt, searchText: submissions.searchText })
    .from(submissions)
    .where(and(...inboxConditions({ ...query, q: undefined })))
    .orderBy(desc(submissions.receivedAt), desc(submissions.id))
    .limit(rows)
    .as('recent');
  const match = sql`${recent.searchText} like ${containsPattern(query.q!)}`;
  const [answer] = await db
    .select({
      hits: sql<string>`coalesce((json_agg(${recent.id} order by ${recent.receivedAt} desc, ${recent.id} desc) filter (where ${match}))::text, '[]')`,
      rows: sql<number>`count(*)::int`,
      newest: sql<number | null>`extract(epoch from max(${recent.receivedAt}))::float8`,
      oldest: sql<number | null>`extract(epoch from min(${recent.receivedAt}))::float8`,
    })
    .from(recent);
  const hits = (JSON.parse(answer?.hits ?? '[]') as string[]).slice(0, PAGE_SIZE + 1);
  return { hits, rows: answer?.rows ?? 0, newest: answer?.newest ?? null, oldest: answer?.oldest ?? null };
}

/** A page of submissions (a page and one more at most), newest first, picked by `where`. */
function pageWhere(db: Queryable, where: SQL | undefined) {
  return db
    .select(summaryColumns)
    .from(submissions)
    .where(where)
    .orderBy(desc(submissions.receivedAt), desc(submissions.id))
    .limit(PAGE_SIZE + 1);
}

/** A page of the view by its conditions (and the index, for a search), from a UTC day on if given. */
function indexedPage(db: Queryable, query: InboxQuery, sinceDay?: string) {
  return pageWhere(
    db,
    and(
      ...inboxConditions(query),
      sinceDay === undefined ? undefined : sql`${utcDay(submissions.receivedAt)} >= ${sinceDay}::date`,
    ),
  );
}

/** A search's page, when the newest rows or the index since a recent day give it (above). */
async function searchPage(db: Queryable, query: InboxQuery, windows: SearchWindows) {
  if (!windows) return undefined;
  const first = await firstWindow(db, query, windows.first);
  // The whole view was in the window, or its newest rows fill a page: these are the page.
  if (first.rows < windows.first || first.hits.length > PAGE_SIZE) {
    return first.hits.length > 0 ? pageWhere(db, inArray(submissions.id, first.hits)) : [];
  }
  if (first.hits.length < 2 || first.newest === null || first.oldest === null) return undefined;
  // At the rate seen, a page lies within `reach` of the window's newest row; rows of a day on or
  // after the start of the day `reach` twice over before it are asked for. With a page among them,
  // every row before that day is older than the page's last.
  const span = Math.max((first.newest - first.oldest) * 1000, DAY_MS);
  const reach = (span * (PAGE_SIZE + 1)) / first.hits.length;
  // (Not before 1970: a window of rows over years with two matches must not ask for year -1.)
  const since = new Date(Math.max(first.newest * 1000 - WINDOW_MARGIN * reach, 0)).toISOString().slice(0, 10);
  const rows = await indexedPage(db, query, since);
  return rows.length > PAGE_SIZE ? rows : undefined;
}

export async function inboxPage(
  db: Queryable,
  query: InboxQuery,
  windows: SearchWindows = SEARCH_WINDOWS,
): Promise<SubmissionPage> {
  const found = query.q ? await searchPage(db, query, windows) : undefined;
  const rows = found ?? (await indexedPage(db, query));
  const { items, next } = pageOf(rows, PAGE_SIZE, (last) => cursorAfter(last.cursorAt, last.id));
  return { items: items.map(summary), next };
}

/** The newest `count` leads (not spam, and of a lead's form or answered), newest first: the overview's list. */
export async function latestLeads(db: Queryable, count: number): Promise<SubmissionSummary[]> {
  const rows = await db
    .select(summaryColumns)
    .from(submissions)
    .where(and(spamIs(false), isNotNull(submissions.leadState)))
    .orderBy(desc(submissions.receivedAt), desc(submissions.id))
    .limit(count);
  return rows.map(summary);
}

function fieldText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number') return String(value);
  return JSON.stringify(value);
}

export function parsedFields(fields: unknown): Record<string, unknown> {
  const value = typeof fields === 'string' ? (JSON.parse(fields) as unknown) : fields;
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

/** How each form's fields read in words, by form type and field name (FormHandler.words). */
export type FieldWords = Readonly<
  Record<string, Readonly<Record<string, (value: string) => string>> | undefined>
>;

/** The fields as the console shows them: labelled, in words, in reading order, machinery left out. */
export function fieldsInWords(
  fields: Record<string, unknown>,
  words: Readonly<Record<string, (value: string) => string>> = {},
): { name: string; value: string }[] {
  return Object.entries(fields)
    .filter(([name]) => !HIDDEN_FIELDS.has(name))
    .sort(([a], [b]) => fieldOrder(a) - fieldOrder(b))
    .map(([name, value]) => {
      const say = words[name];
      return {
        name: fieldLabel(name),
        value: say && typeof value === 'string' ? say(value) : fieldText(value),
      };
    })
    .filter((field) => field.value !== '');
}

/** `id`: a UUID (the route's schema). */
export async function submissionDetail(
  db: Queryable,
  id: string,
  { words = {}, config }: { words?: FieldWords; config: Pick<Config, 'consoleUsers'> },
): Promise<SubmissionDetail> {
  const [row] = await db
    .select({ ...summaryColumns, fields: submissions.fields, releasedAt: submissions.releasedAt })
    .from(submissions)
    .where(eq(submissions.id, id));
  if (!row) throw new Refusal(404, { error: NO_SUCH_SUBMISSION });
  const [consents, emails, bookingId, notes] = await Promise.all([
    db
      .select({
        consentId: consentRecords.consentId,
        wording: consentRecords.wording,
        givenAt: consentRecords.givenAt,
      })
      .from(consentRecords)
      .where(eq(consentRecords.submissionId, id))
      .orderBy(consentRecords.id),
    deliverySummaries(db, eq(outbox.submissionId, id)),
    bookingOfSubmission(db, id),
    notesOfLead(db, config, id),
  ]);
  const fields = parsedFields(row.fields);
  return {
    ...summary(row),
    fields: fieldsInWords(fields, words[row.formType]),
    notes,
    consents: consents.map((c) => ({ ...c, givenAt: c.givenAt.toISOString() })),
    emails,
    bookingId,
    releasedAt: row.releasedAt ? row.releasedAt.toISOString() : null,
  };
}

/** "Mark as spam": a delivered submission moves to the spam folder (its e-mails stay as they went). */
export async function markAsSpam(db: Queryable, id: string): Promise<void> {
  const moved = await db
    .update(submissions)
    .set({ spam: true, spamReason: 'owner' })
    .where(and(eq(submissions.id, id), eq(submissions.spam, false)))
    .returning({ id: submissions.id });
  if (moved.length === 0) throw new Refusal(409, { error: 'This submission is already in spam, or gone.' });
}

/**
 * The Inbox area: the list, one submission (its fields in the words of the form's handler), and
 * "Mark as spam" (its audit row in its transaction).
 */
export const inboxArea =
  (handlers: Readonly<Record<string, Pick<FormHandler, 'words'>>>): ConsoleArea =>
  (routes, { db, config }) => {
    const words: FieldWords = Object.fromEntries(
      Object.entries(handlers).map(([formType, handler]) => [formType, handler.words]),
    );
    routes.on(inboxRoutes.list, async ({ query }) => inboxPage(db, query));
    routes.on(inboxRoutes.detail, async ({ params }) => submissionDetail(db, params.id, { words, config }));
    routes.on(inboxRoutes.markSpam, async ({ params, owner }) => {
      await db.transaction(async (tx) => {
        await markAsSpam(tx, params.id);
        await audit(tx, owner.email, 'submission.mark-spam', params.id);
      });
      return { ok: true as const };
    });
  };
