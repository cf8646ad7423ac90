/**
 * The inbox's routes: the list of submissions and one submission, the spam actions, and the CSV
 * export of an inbox view. Their answers' types are in src/contract/console.ts. A filter the
 * server cannot read, or a date PostgreSQL cannot store (year 0000, 31 February), is refused with
 * a 400 naming it; an id that is not a UUID names no submission (404).
 */
import { UUID_PATTERN } from '~/lib/patterns';
import { z } from '~/lib/zod';
import { FORM_TYPES, type ReleaseAnswer, type SubmissionDetail, type SubmissionPage } from './console';
import { route } from './route';

export const NO_SUCH_SUBMISSION = 'There is no such submission.';
const MAX_QUERY = 100;

const refused = (what: string) => ({ error: `The ${what} filter is not valid.` });

/** A query string value trimmed; missing, empty, or given twice (an array): none. */
const text = (value: unknown) =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** A day of the calendar (proleptic Gregorian, as PostgreSQL's), from year 1 on. */
function isDay(year: number, month: number, day: number): boolean {
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!);
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A UK date `YYYY-MM-DD` PostgreSQL can store. */
const isDate = (value: string) => {
  const parts = ISO_DATE.exec(value);
  return Boolean(parts) && isDay(Number(parts![1]), Number(parts![2]), Number(parts![3]));
};

/**
 * A time as PostgreSQL writes a timestamptz as text (`2026-11-24 09:05:00.123456+00`), the form a
 * page's cursor carries: a real day and time, and an offset PostgreSQL accepts.
 */
const CURSOR_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[ T]([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,6})?(Z|[+-](0\d|1[0-5])(:?[0-5]\d){0,2})?$/;

const isCursorTime = (value: string) => {
  const parts = CURSOR_TIME.exec(value);
  return Boolean(parts) && isDay(Number(parts![1]), Number(parts![2]), Number(parts![3]));
};

/** base64url (or base64) as text, or undefined when it is neither. */
function fromBase64Url(value: string): string | undefined {
  try {
    return atob(value.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    return undefined;
  }
}

/** The `next` cursor of the previous page: base64url of `<received_at as text>|<id>`. */
const cursor = z.string().transform((value, ctx) => {
  const [at, id] = (fromBase64Url(value) ?? '').split('|');
  if (!at || !id || !UUID_PATTERN.test(id) || !isCursorTime(at)) {
    ctx.addIssue({ code: 'custom', message: refused('page').error });
    return z.NEVER;
  }
  return { at, id };
});

const date = (what: string) => z.string().refine(isDate, refused(what));

/** What an inbox view shows: the screen's filters, and its CSV export's. */
export const inboxFilters = z.object({
  form: z.preprocess(text, z.enum(FORM_TYPES, refused('form')).optional()),
  status: z.preprocess(text, z.enum(['received', 'spam', 'all'], refused('status')).default('received')),
  from: z.preprocess(text, date('from date').optional()),
  to: z.preprocess(text, date('to date').optional()),
  q: z.preprocess(
    text,
    z
      .string()
      .max(MAX_QUERY, { error: `Please search for at most ${MAX_QUERY} characters.` })
      .optional(),
  ),
});

/** GET /api/owner/submissions?form=&status=&from=&to=&q=&after= (see SubmissionSummary). */
export const inboxQuery = inboxFilters.extend({ after: z.preprocess(text, cursor.optional()) });
export type InboxQuery = z.output<typeof inboxQuery>;

const submission = z.object({ id: z.string().regex(UUID_PATTERN) });
const one = { params: submission, notFound: NO_SUCH_SUBMISSION } as const;

export const inboxRoutes = {
  list: route<SubmissionPage>()({ method: 'GET', path: '/submissions', query: inboxQuery }),
  detail: route<SubmissionDetail>()({ method: 'GET', path: '/submissions/:id', ...one }),
  /** Moves a delivered submission to spam (409 if it is there already, or gone). */
  markSpam: route<{ ok: true }>()({ method: 'POST', path: '/submissions/:id/mark-spam', ...one }),
};

export const spamRoutes = {
  /** "Not spam": delivers it, exactly once (409 if it is not held). */
  release: route<ReleaseAnswer>()({ method: 'POST', path: '/submissions/:id/release', ...one }),
  /** Removes a submission held as spam, with everything that hangs off it. */
  delete: route<{ ok: true }>()({ method: 'POST', path: '/submissions/:id/delete', ...one }),
};

export const submissionExportRoutes = {
  /** The submissions of an inbox view as CSV: its filters, every page (`after` is ignored). */
  csv: route<never>()({
    method: 'GET',
    path: '/exports/submissions.csv',
    query: inboxFilters,
    download: true,
  }),
};
