/**
 * The inbox: every submission, newest first, filtered by form, status and UK date, searched in
 * names, e-mail addresses, companies and messages, one page of 50 at a time. Paging is by keyset
 * (the last row's received_at and id), so the millionth row costs what the first does; the
 * indexes are in drizzle/0003_console.sql. Also one submission whole, and the spam actions:
 * "Not spam" (delivers it exactly once), "Delete", "Mark as spam".
 */
import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import {
  FORM_TYPES,
  type FormType,
  type SubmissionDetail,
  type SubmissionPage,
  type SubmissionSummary,
} from '~/console/api';
import { fieldLabel, HIDDEN_FIELDS } from '~/content/submission-fields';
import { bookingLinkUses, bookingStatusEvents, bookings } from '~/features/booking/tables.server';
import { eventRegistrations } from '~/features/events/tables.server';
import type { Config } from '../kit/config';
import type { Db, Queryable } from '../kit/db/client';
import { consentRecords, outbox, SEARCH_PUNCTUATION, searchKey, submissions } from '../kit/db/schema';
import type { FormHandler } from '../kit/http/form-handler';
import type { Links } from '../kit/http/links';
import { Refusal } from '../kit/http/request-checks';
import { enqueueEmails, type OutgoingEmail } from '../kit/mail/outbox';
import { deliverySummaries } from './deliveries';

export const PAGE_SIZE = 50;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const MAX_QUERY = 100;

export type InboxQuery = {
  form?: FormType;
  status: 'received' | 'spam' | 'all';
  from?: string;
  to?: string;
  q?: string;
  after?: { at: string; id: string };
};

/** The query string as an InboxQuery; anything unreadable is a 400 naming it. */
export function readInboxQuery(query: Record<string, unknown>): InboxQuery {
  const text = (name: string) => {
    const value = query[name];
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
  };
  const bad = (what: string) => new Refusal(400, { error: `The ${what} filter is not valid.` });
  const form = text('form');
  if (form !== undefined && !(FORM_TYPES as readonly string[]).includes(form)) throw bad('form');
  const status = text('status') ?? 'received';
  if (status !== 'received' && status !== 'spam' && status !== 'all') throw bad('status');
  const from = text('from');
  const to = text('to');
  for (const [name, value] of [
    ['from date', from],
    ['to date', to],
  ] as const) {
    if (value !== undefined && (!ISO_DATE.test(value) || Number.isNaN(Date.parse(value)))) throw bad(name);
  }
  const q = text('q');
  if (q !== undefined && q.length > MAX_QUERY)
    throw new Refusal(400, { error: `Please search for at most ${MAX_QUERY} characters.` });
  const cursor = text('after');
  let after: InboxQuery['after'];
  if (cursor !== undefined) {
    const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
    if (!at || !id || !UUID.test(id) || Number.isNaN(Date.parse(at))) throw bad('page');
    after = { at, id };
  }
  return { form: form as FormType | undefined, status, from, to, q, after };
}

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
  };
}

/** UK midnight at the start of `date` (YYYY-MM-DD). */
const ukStartOf = (date: string) => sql`(${date}::date)::timestamp at time zone 'Europe/London'`;

/** The filters of an inbox view as SQL conditions: the page and its CSV export read the same. */
export function inboxConditions(query: InboxQuery): SQL[] {
  const conditions: SQL[] = [];
  if (query.status !== 'all') conditions.push(eq(submissions.spam, query.status === 'spam'));
  if (query.form) conditions.push(eq(submissions.formType, query.form));
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
 * A search reads the newest rows of its view in order before it asks the trigram index. A term
 * found in more than about one row in 500 fills a page within the newest `recent` rows, and
 * reading newest first stops at the page's end; the index would fetch every row holding the
 * term, scattered over the whole table, before it could sort them (on PGlite, a file read each).
 * It looks at the newest `first` rows before that: a term with one match or none there, or with
 * too few to fill a page within `recent` at the rate seen there, is rare, and goes to the index at
 * once, where its few rows are cheap to fetch. Either way the page is
 * the same rows; `false` asks the index at once.
 */
export type SearchWindows = { first: number; recent: number } | false;
export const SEARCH_WINDOWS: SearchWindows = { first: 5_000, recent: 25_000 };

/** A search's page from the newest `within` rows of the view alone. */
async function recentMatches(db: Queryable, query: InboxQuery, within: number) {
  const recent = db
    .select({ id: submissions.id, receivedAt: submissions.receivedAt, searchText: submissions.searchText })
    .from(submissions)
    .where(and(...inboxConditions({ ...query, q: undefined })))
    .orderBy(desc(submissions.receivedAt), desc(submissions.id))
    .limit(within)
    .as('recent');
  const hits = db
    .select({ id: recent.id })
    .from(recent)
    .where(sql`${recent.searchText} like ${containsPattern(query.q!)}`)
    .orderBy(desc(recent.receivedAt), desc(recent.id))
    .limit(PAGE_SIZE + 1);
  return db
    .select(summaryColumns)
    .from(submissions)
    .where(inArray(submissions.id, hits))
    .orderBy(desc(submissions.receivedAt), desc(submissions.id));
}

/** A search's page: from the newest rows when they fill it, else by the index (above). */
async function searchPage(db: Queryable, query: InboxQuery, windows: SearchWindows) {
  if (!windows) return undefined;
  const first = await recentMatches(db, query, windows.first);
  if (first.length > PAGE_SIZE) return first;
  // The newest `recent` rows are read only when the first window's rate of matches says they hold a
  // page: a term rarer than that would read them all and still go to the index.
  if (first.length > 1 && first.length * windows.recent >= PAGE_SIZE * windows.first) {
    const recent = await recentMatches(db, query, windows.recent);
    if (recent.length > PAGE_SIZE) return recent;
  }
  return undefined;
}

export async function inboxPage(
  db: Queryable,
  query: InboxQuery,
  windows: SearchWindows = SEARCH_WINDOWS,
): Promise<SubmissionPage> {
  const found = query.q ? await searchPage(db, query, windows) : undefined;
  const rows =
    found ??
    (await db
      .select(summaryColumns)
      .from(submissions)
      .where(and(...inboxConditions(query)))
      .orderBy(desc(submissions.receivedAt), desc(submissions.id))
      .limit(PAGE_SIZE + 1));
  const items = rows.slice(0, PAGE_SIZE);
  const last = items[items.length - 1];
  return {
    items: items.map(summary),
    next:
      rows.length > PAGE_SIZE && last
        ? Buffer.from(`${last.cursorAt}|${last.id}`).toString('base64url')
        : null,
  };
}

function fieldText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number') return String(value);
  return JSON.stringify(value);
}

function parsedFields(fields: unknown): Record<string, unknown> {
  const value = typeof fields === 'string' ? (JSON.parse(fields) as unknown) : fields;
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

export async function submissionDetail(db: Queryable, id: string): Promise<SubmissionDetail> {
  if (!UUID.test(id)) throw new Refusal(404, { error: 'There is no such submission.' });
  const [row] = await db
    .select({ ...summaryColumns, fields: submissions.fields, releasedAt: submissions.releasedAt })
    .from(submissions)
    .where(eq(submissions.id, id));
  if (!row) throw new Refusal(404, { error: 'There is no such submission.' });
  const [consents, emails, booking] = await Promise.all([
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
    db.select({ id: bookings.id }).from(bookings).where(eq(bookings.submissionId, id)),
  ]);
  const fields = parsedFields(row.fields);
  return {
    ...summary(row),
    fields: Object.entries(fields)
      .filter(([name]) => !HIDDEN_FIELDS.has(name))
      .map(([name, value]) => ({ name: fieldLabel(name), value: fieldText(value) }))
      .filter((field) => field.value !== ''),
    consents: consents.map((c) => ({ ...c, givenAt: c.givenAt.toISOString() })),
    emails,
    bookingId: booking[0]?.id ?? null,
    releasedAt: row.releasedAt ? row.releasedAt.toISOString() : null,
  };
}

export const NOT_HELD = 'This submission is not held as spam.';

export type ReleaseContext = {
  db: Db;
  config: Config;
  links: Links;
  handlers: Readonly<Record<string, FormHandler>>;
};

/**
 * "Not spam": the submission leaves the spam folder and is delivered as if it had just passed,
 * exactly once. The conditional update takes the row, so of two presses at once one releases
 * it and the other finds it released (409). Its e-mails are queued in the same transaction,
 * unless it produced some before (it was delivered, then marked as spam).
 */
export async function releaseSubmission(ctx: ReleaseContext, id: string, now = new Date()): Promise<number> {
  if (!UUID.test(id)) throw new Refusal(404, { error: 'There is no such submission.' });
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
      throw new Refusal(exists ? 409 : 404, { error: exists ? NOT_HELD : 'There is no such submission.' });
    }
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
      sendEmail: (...more: OutgoingEmail[]) => emails.push(...more),
    };
    if (handler.accept) await handler.accept({ ...context, tx });
    else await handler.compose?.(context);
    await enqueueEmails(tx, id, emails);
    return emails.length;
  });
}

/** "Mark as spam": a delivered submission moves to the spam folder (its e-mails stay as they went). */
export async function markAsSpam(db: Db, id: string): Promise<void> {
  if (!UUID.test(id)) throw new Refusal(404, { error: 'There is no such submission.' });
  const moved = await db
    .update(submissions)
    .set({ spam: true, spamReason: 'owner' })
    .where(and(eq(submissions.id, id), eq(submissions.spam, false)))
    .returning({ id: submissions.id });
  if (moved.length === 0) throw new Refusal(409, { error: 'This submission is already in spam, or gone.' });
}

/** "Delete": removes a submission held as spam, with everything that hangs off it. */
export async function deleteSpam(db: Db, id: string): Promise<void> {
  if (!UUID.test(id)) throw new Refusal(404, { error: 'There is no such submission.' });
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ spam: submissions.spam })
      .from(submissions)
      .where(eq(submissions.id, id))
      .for('update');
    if (!row) throw new Refusal(404, { error: 'There is no such submission.' });
    if (!row.spam) throw new Refusal(409, { error: 'Only a submission held as spam can be deleted here.' });
    const held = await tx.select({ id: bookings.id }).from(bookings).where(eq(bookings.submissionId, id));
    for (const booking of held) {
      await tx.delete(bookingLinkUses).where(eq(bookingLinkUses.bookingId, booking.id));
      await tx.delete(bookingStatusEvents).where(eq(bookingStatusEvents.bookingId, booking.id));
      await tx.delete(bookings).where(eq(bookings.id, booking.id));
    }
    await tx.delete(eventRegistrations).where(eq(eventRegistrations.submissionId, id));
    await tx.delete(outbox).where(eq(outbox.submissionId, id));
    await tx.delete(consentRecords).where(eq(consentRecords.submissionId, id));
    await tx.delete(submissions).where(eq(submissions.id, id));
  });
}
