/**
 * The inbox's routes: the list of submissions and one submission, the spam actions, and the CSV
 * export of an inbox view. Their answers' types are in src/contract/console.ts. A filter the
 * server cannot read, or a date PostgreSQL cannot store (year 0000, 31 February), is refused with
 * a 400 naming it; an id that is not a UUID names no submission (404).
 */
import { UUID_PATTERN } from '~/lib/patterns';
import { z } from '~/lib/zod';
import { LEAD_STATES } from './lead-states';
import { FORM_TYPES, type ReleaseAnswer, type SubmissionDetail, type SubmissionPage } from './console';
import { isDay, pageCursor } from './query';
import { route } from './route';

export const NO_SUCH_SUBMISSION = 'There is no such submission.';
const MAX_QUERY = 100;

const refused = (what: string) => ({ error: `The ${what} filter is not valid.` });

/** A query string value trimmed; missing, empty, or given twice (an array): none. */
const text = (value: unknown) =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

// Control characters and half a surrogate pair: PostgreSQL cannot compare text holding a NUL.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const SEARCHABLE = /^(?:[^\u0000-\u001f\u007f\uD800-\uDFFF]|[\uD800-\uDBFF][\uDC00-\uDFFF])*$/;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A UK date `YYYY-MM-DD` PostgreSQL can store. */
const isDate = (value: string) => {
  const parts = ISO_DATE.exec(value);
  return Boolean(parts) && isDay(Number(parts![1]), Number(parts![2]), Number(parts![3]));
};

/** The `next` cursor of the previous page: `<received_at as text>|<id>` (`pageCursor`). */
const cursor = pageCursor(UUID_PATTERN, refused('page').error).transform((after) =>
  after ? { at: after.at, id: after.key } : undefined,
);

const date = (what: string) => z.string().refine(isDate, refused(what));

/** What an inbox view shows: the screen's filters, and its CSV export's. */
export const inboxFilters = z.object({
  form: z.preprocess(text, z.enum(FORM_TYPES, refused('form')).optional()),
  status: z.preprocess(text, z.enum(['received', 'spam', 'all'], refused('status')).default('received')),
  /** Where the leads stand (new, replied, handled); any when absent. */
  state: z.preprocess(text, z.enum(LEAD_STATES, refused('state')).optional()),
  from: z.preprocess(text, date('from date').optional()),
  to: z.preprocess(text, date('to date').optional()),
  q: z.preprocess(
    text,
    z
      .string()
      .max(MAX_QUERY, { error: `Please search for at most ${MAX_QUERY} characters.` })
      .regex(SEARCHABLE, { error: 'Please search for letters, digits and punctuation only.' })
      .optional(),
  ),
});

/** GET /api/owner/submissions?form=&status=&state=&from=&to=&q=&after= (see SubmissionSummary). */
export const inboxQuery = inboxFilters.extend({ after: z.preprocess(text, cursor.optional()) });
export type InboxQuery = z.output<typeof inboxQuery>;

const submission = z.object({ id: z.string().regex(UUID_PATTERN) });
/** A route about one submission: its id in the path (not a UUID: 404). */
export const one = { params: submission, notFound: NO_SUCH_SUBMISSION } as const;

export const inboxRoutes = {
  list: route<SubmissionPage>()({ method: 'GET', path: '/submissions', query: inboxQuery, role: 'helper' }),
  detail: route<SubmissionDetail>()({ method: 'GET', path: '/submissions/:id', ...one, role: 'helper' }),
  /** Moves a delivered submission to spam (409 if it is there already, or gone). */
  markSpam: route<{ ok: true }>()({
    method: 'POST',
    path: '/submissions/:id/mark-spam',
    ...one,
    role: 'helper',
  }),
};

export const spamRoutes = {
  /** "Not spam": delivers it, exactly once (409 if it is not held). */
  release: route<ReleaseAnswer>()({
    method: 'POST',
    path: '/submissions/:id/release',
    ...one,
    role: 'helper',
  }),
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
