/**
 * The newsletter's issues in the owner's console, as the browser and the server
 * (issues-console.server.ts) agree on them: write an issue (subject, preheader, Markdown body),
 * preview it exactly as sent, send a test to the console's own addresses, send it now or at a UK
 * time, pause, resume or cancel it while it goes out, and read its progress (decision 046); put a
 * sent one on the site's archive, or take it off.
 */
import { route } from '~/contract/route';
import { UUID_PATTERN } from '~/lib/patterns';
import { optionalText, text } from '~/lib/validation';
import { z } from '~/lib/zod';

export const ISSUE_STATUSES = ['draft', 'scheduled', 'sending', 'paused', 'sent', 'cancelled'] as const;
export type IssueStatus = (typeof ISSUE_STATUSES)[number];

export const ISSUE_LIMITS = { subject: 150, preheader: 200, body: 50_000 } as const;

/**
 * The largest body of a request that carries an issue, in bytes: its 50,000 characters can take
 * three bytes each in UTF-8, and JSON escapes a quote or a line break in two (the app's default,
 * 32 KB, is for forms).
 */
export const ISSUE_REQUEST_BYTES = 256 * 1024;

const ISSUE_SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** What the owner types; the console's form checks the same schema. */
export const IssueInputSchema = z.object({
  subject: text({
    required: 'Please enter a subject.',
    max: ISSUE_LIMITS.subject,
    tooLong: `The subject can be at most ${ISSUE_LIMITS.subject} characters.`,
  }),
  preheader: optionalText({
    max: ISSUE_LIMITS.preheader,
    tooLong: `The preview line can be at most ${ISSUE_LIMITS.preheader} characters.`,
  }),
  body: text({
    required: 'Please write the issue.',
    max: ISSUE_LIMITS.body,
    tooLong: `The issue can be at most ${ISSUE_LIMITS.body.toLocaleString('en-GB')} characters.`,
    multiline: true,
  }),
});
export type IssueInput = z.input<typeof IssueInputSchema>;

/**
 * When to send: `YYYY-MM-DDTHH:MM` in UK time (what `<input type="datetime-local">` gives), or
 * empty for now. A time in the past is refused (the server's check: the schema cannot know now).
 */
export const IssueSendSchema = z.object({
  at: z
    .string()
    .trim()
    .regex(/^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2})?$/, 'Please give the date and time as the form shows them.')
    .default(''),
});

export const IssueFromArticleSchema = z.object({
  slug: z.string().regex(ISSUE_SLUG, 'There is no such article.').max(120, 'There is no such article.'),
});

/** Counts of an issue's recipients, by what became of each. */
export type IssueProgress = {
  /** Fixed when sending began: the confirmed subscribers then, each once. */
  recipients: number;
  sent: number;
  /** Still to go (waiting, or held while paused). */
  waiting: number;
  /** Refused by the relay for good, or gave up after the retries. */
  failed: number;
  /** Of those sent or failed: refused as a mailbox that is gone, at once or by a later report. */
  bounced: number;
  /**
   * Not sent: the reader unsubscribed before their turn, or the address was on the suppression list
   * (erased, bounced, complained) by then.
   */
  suppressed: number;
  /** Not sent: the issue was cancelled first. */
  cancelled: number;
  /** Recipients who unsubscribed while this was the last issue sent to them. */
  unsubscribed: number;
};

export type IssueSummary = {
  id: string;
  subject: string;
  status: IssueStatus;
  /** ISO instants. */
  scheduledFor: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  createdAt: string;
  updatedAt: string;
  /** From when sending began; null for a draft or a scheduled issue. */
  progress: IssueProgress | null;
  /** Its page on the site's archive (`/newsletter/<slug>`) while it is there; null otherwise. */
  sitePath: string | null;
};

/** GET /api/owner/newsletter/issues/:id */
export type IssueDetail = IssueSummary & {
  preheader: string;
  body: string;
  /** The article the issue was started from, if any, and its page on the site. */
  articleSlug: string | null;
  articlePath: string | null;
  /** The UK wall-clock time of `scheduledFor` (`YYYY-MM-DDTHH:MM`), for the form. */
  scheduledForLocal: string | null;
};

/** The e-mail exactly as a subscriber receives it (their personal links shown as examples). */
export type IssuePreview = { subject: string; preheader: string; html: string; text: string };

export type ArticleChoice = { slug: string; title: string; summary: string; date: string };

// --- Routes -------------------------------------------------------------------------------------

const NOT_FOUND = 'There is no such issue.';
const INVALID = 'Please correct the highlighted fields.';
const issue = { params: z.object({ id: z.string().regex(UUID_PATTERN) }), notFound: NOT_FOUND } as const;

/** The newsletter is the owner's (a helper reads and answers leads only: decision 032). */
export const issueRoutes = {
  /** Newest first. */
  list: route<{ items: IssueSummary[] }>()({ method: 'GET', path: '/newsletter/issues' }),
  detail: route<IssueDetail>()({ method: 'GET', path: '/newsletter/issues/:id', ...issue }),
  /** Saves a new draft. */
  create: route<IssueDetail>()({
    method: 'POST',
    path: '/newsletter/issues',
    body: IssueInputSchema,
    invalid: INVALID,
    bodyLimit: ISSUE_REQUEST_BYTES,
  }),
  /** A draft or a scheduled issue only (409 otherwise). */
  update: route<IssueDetail>()({
    method: 'POST',
    path: '/newsletter/issues/:id',
    ...issue,
    body: IssueInputSchema,
    invalid: INVALID,
    bodyLimit: ISSUE_REQUEST_BYTES,
  }),
  /** A new draft filled from an article of the site, with its link. */
  fromArticle: route<IssueDetail>()({
    method: 'POST',
    path: '/newsletter/from-article',
    body: IssueFromArticleSchema,
    fieldErrors: false,
  }),
  articles: route<{ items: ArticleChoice[] }>()({ method: 'GET', path: '/newsletter/articles' }),
  preview: route<IssuePreview>()({ method: 'GET', path: '/newsletter/issues/:id/preview', ...issue }),
  /** To the console's own addresses, now; `sentTo` is how many. */
  test: route<{ sentTo: number }>()({ method: 'POST', path: '/newsletter/issues/:id/test', ...issue }),
  /** Now (`at` empty) or at a UK time: a draft or a scheduled issue (409 otherwise). */
  send: route<IssueDetail>()({
    method: 'POST',
    path: '/newsletter/issues/:id/send',
    ...issue,
    body: IssueSendSchema,
    invalid: INVALID,
  }),
  /** A scheduled issue back to a draft. */
  unschedule: route<IssueDetail>()({ method: 'POST', path: '/newsletter/issues/:id/unschedule', ...issue }),
  pause: route<IssueDetail>()({ method: 'POST', path: '/newsletter/issues/:id/pause', ...issue }),
  resume: route<IssueDetail>()({ method: 'POST', path: '/newsletter/issues/:id/resume', ...issue }),
  /** A scheduled, sending or paused issue: nobody not yet sent it receives it. */
  cancel: route<IssueDetail>()({ method: 'POST', path: '/newsletter/issues/:id/cancel', ...issue }),
  /** A sent issue onto the site's archive (409 for any other). */
  putOnSite: route<IssueDetail>()({ method: 'POST', path: '/newsletter/issues/:id/site', ...issue }),
  /** An issue on the site off it again. */
  takeOffSite: route<IssueDetail>()({ method: 'POST', path: '/newsletter/issues/:id/site/remove', ...issue }),
};
