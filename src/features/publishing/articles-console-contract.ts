/**
 * The articles in the owner's console, as the browser and the server (articles-console.server.ts)
 * agree on them (decision 047): write an article (title, summary, address, date, tax year,
 * Markdown body) with a live preview in the site's article style, save it (a save that names an
 * older version than the stored one is refused: another tab or window saved since), publish it now
 * or at a UK time, unpublish it, and look at and restore its earlier saves. The fields' limits are
 * one schema, read by the console's form and by the server alike.
 */
import { route } from '~/contract/route';
import { UUID_PATTERN } from '~/lib/patterns';
import { isIsoDate } from '~/lib/uk-dates';
import { isTaxYear } from '~/lib/uk-tax-year';
import { optionalText, text } from '~/lib/validation';
import { z } from '~/lib/zod';

export const ARTICLE_STATUSES = ['draft', 'scheduled', 'published', 'unpublished'] as const;
export type ArticleStatus = (typeof ARTICLE_STATUSES)[number];

export const ARTICLE_LIMITS = { title: 120, summary: 300, body: 100_000, slug: 100 } as const;

/**
 * The largest body of a request that carries an article, in bytes: its 100,000 characters can take
 * three bytes each in UTF-8, and JSON escapes a quote or a line break in two. The app's default
 * (32 KB) is for forms.
 */
export const ARTICLE_REQUEST_BYTES = 512 * 1024;

/** An article's address under /resources/articles/: lower-case words joined by single hyphens. */
export const ARTICLE_SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** An address made from a title, as the form suggests one: "Bitcoin & UK Tax!" -> "bitcoin-uk-tax". */
export function slugFromTitle(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/£/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, ARTICLE_LIMITS.slug)
    .replace(/-+$/, '');
}

const number = (n: number) => n.toLocaleString('en-GB');
const DATE_MESSAGE = 'Please give the date as YYYY-MM-DD, as 2025-06-08.';
const TAX_YEAR_MESSAGE =
  'Please give the tax year as 2025-26 (the year it starts, then the next year’s last two digits), or leave it empty.';
const VERSION_MESSAGE =
  'The page did not say which version of the article it loaded. Please reload the page.';

/** What the owner types; the console's form checks the same schema. */
export const ArticleInputSchema = z.object({
  title: text({
    required: 'Please enter a title.',
    max: ARTICLE_LIMITS.title,
    tooLong: `The title can be at most ${ARTICLE_LIMITS.title} characters.`,
  }),
  summary: text({
    required: 'Please write a summary.',
    max: ARTICLE_LIMITS.summary,
    tooLong: `The summary can be at most ${ARTICLE_LIMITS.summary} characters.`,
  }),
  slug: text({
    required: 'Please enter the article’s address.',
    max: ARTICLE_LIMITS.slug,
    tooLong: `The address can be at most ${ARTICLE_LIMITS.slug} characters.`,
  }).regex(
    ARTICLE_SLUG,
    'The address may use lower-case letters and numbers joined by single hyphens, as bitcoin-and-uk-tax.',
  ),
  date: z
    .string({ error: DATE_MESSAGE })
    .trim()
    .max(10, DATE_MESSAGE)
    .refine((value) => isIsoDate(value), DATE_MESSAGE),
  taxYear: z
    .string({ error: TAX_YEAR_MESSAGE })
    .trim()
    .max(7, TAX_YEAR_MESSAGE)
    .refine((value) => value === '' || isTaxYear(value), TAX_YEAR_MESSAGE)
    .default(''),
  body: text({
    required: 'Please write the article.',
    max: ARTICLE_LIMITS.body,
    tooLong: `The article can be at most ${number(ARTICLE_LIMITS.body)} characters.`,
    multiline: true,
  }),
});
export type ArticleInput = z.input<typeof ArticleInputSchema>;
export type ArticleFields = z.output<typeof ArticleInputSchema>;

/** The version of the article the editor loaded (or last saved): a save naming an older one is refused. */
const version = z
  .number({ error: VERSION_MESSAGE })
  .int(VERSION_MESSAGE)
  .min(1, VERSION_MESSAGE)
  .max(2 ** 31 - 1, VERSION_MESSAGE);

export const ArticleSaveSchema = ArticleInputSchema.extend({ version });

/** Publishing, scheduling and restoring act on the version the owner sees (or are refused as a save is). */
export const ArticleVersionSchema = z.object({ version });

/**
 * When to publish: `YYYY-MM-DDTHH:MM` in UK time (what `<input type="datetime-local">` gives). A
 * time in the past, or one UK clocks skip, is refused by the server (the schema cannot know now).
 */
export const ArticleScheduleSchema = z.object({
  at: z
    .string({ error: 'Please choose the date and time to publish it.' })
    .trim()
    .min(1, 'Please choose the date and time to publish it.')
    .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, 'Please give the date and time as the form shows them.'),
  version,
});

/** The Markdown of the editor, for the live preview. */
export const ArticlePreviewSchema = z.object({
  body: optionalText({
    max: ARTICLE_LIMITS.body,
    tooLong: `The article can be at most ${number(ARTICLE_LIMITS.body)} characters.`,
    multiline: true,
  }),
});

// --- Answers --------------------------------------------------------------------------------------

export type ArticleSummary = {
  id: string;
  title: string;
  slug: string;
  status: ArticleStatus;
  /** The date the article shows, YYYY-MM-DD. */
  date: string;
  /** The UK tax year its figures speak of ('2025-26'), or null. */
  taxYear: string | null;
  /** Its tax year is before the current UK tax year: its figures may be out of date. */
  datedFigures: boolean;
  /** ISO instants. When a scheduled article goes live; when it first went live. */
  publishAt: string | null;
  publishedAt: string | null;
  updatedAt: string;
  /** Its page on the site while it is published (made by the server). */
  publicPath: string | null;
};

/** GET /api/owner/articles/:id */
export type ArticleDetail = ArticleSummary & {
  summary: string;
  body: string;
  /** Raised by every save: the editor sends it back with its next save. */
  version: number;
  createdAt: string;
  /** The UK wall-clock time of `publishAt` (`YYYY-MM-DDTHH:MM`), for the form. */
  publishAtLocal: string | null;
  /** The current UK tax year ('2025-26'), which `datedFigures` is measured against. */
  currentTaxYear: string;
};

/** The Markdown as the article's page shows it. */
export type ArticlePreview = { html: string; words: number; readingMinutes: number };

export type ArticleRevisionSummary = {
  id: string;
  /** The article's version this save made. */
  version: number;
  title: string;
  slug: string;
  /** The console person's address who saved it, or 'import' (the one-time import of the files). */
  savedBy: string;
  savedAt: string;
};

export type ArticleRevisionDetail = ArticleRevisionSummary & {
  summary: string;
  body: string;
  date: string;
  taxYear: string | null;
  /** The body as the article's page would show it. */
  html: string;
};

// --- Routes -------------------------------------------------------------------------------------

const NOT_FOUND = 'There is no such article.';
const INVALID = 'Please correct the highlighted fields.';
const id = z.string().regex(UUID_PATTERN);
const article = { params: z.object({ id }), notFound: NOT_FOUND } as const;
const revision = {
  params: z.object({ id, revisionId: id }),
  notFound: 'There is no such saved version of this article.',
} as const;
const large = { bodyLimit: ARTICLE_REQUEST_BYTES } as const;

/** The articles are the owner's (a helper reads and answers leads only: decision 032). */
export const articleRoutes = {
  /** Newest date first. */
  list: route<{ items: ArticleSummary[] }>()({ method: 'GET', path: '/articles' }),
  /** Saves a new draft (its first revision). */
  create: route<ArticleDetail>()({
    method: 'POST',
    path: '/articles',
    body: ArticleInputSchema,
    invalid: INVALID,
    ...large,
  }),
  /** The editor's Markdown as the page shows it; nothing is saved. */
  preview: route<ArticlePreview>()({
    method: 'POST',
    path: '/articles/preview',
    body: ArticlePreviewSchema,
    ...large,
  }),
  detail: route<ArticleDetail>()({ method: 'GET', path: '/articles/:id', ...article }),
  /** A new version (409 when `version` is not the stored one: another tab or window saved since). */
  save: route<ArticleDetail>()({
    method: 'POST',
    path: '/articles/:id',
    ...article,
    body: ArticleSaveSchema,
    invalid: INVALID,
    ...large,
  }),
  /** Now: a draft, a scheduled or an unpublished article (409 when it is published already). */
  publish: route<ArticleDetail>()({
    method: 'POST',
    path: '/articles/:id/publish',
    ...article,
    body: ArticleVersionSchema,
    fieldErrors: false,
  }),
  /** At a UK time in the future: a draft, a scheduled or an unpublished article. */
  schedule: route<ArticleDetail>()({
    method: 'POST',
    path: '/articles/:id/schedule',
    ...article,
    body: ArticleScheduleSchema,
    invalid: INVALID,
  }),
  /** A scheduled article back to a draft. */
  unschedule: route<ArticleDetail>()({ method: 'POST', path: '/articles/:id/unschedule', ...article }),
  /** Off the site (its page, the list, the feed and the sitemap); it can be published again. */
  unpublish: route<ArticleDetail>()({ method: 'POST', path: '/articles/:id/unpublish', ...article }),
  /** Every save, newest first. */
  revisions: route<{ items: ArticleRevisionSummary[] }>()({
    method: 'GET',
    path: '/articles/:id/revisions',
    ...article,
  }),
  revision: route<ArticleRevisionDetail>()({
    method: 'GET',
    path: '/articles/:id/revisions/:revisionId',
    ...revision,
  }),
  /** The saved version's fields become a new save (refused as a save is when `version` is old). */
  restore: route<ArticleDetail>()({
    method: 'POST',
    path: '/articles/:id/revisions/:revisionId/restore',
    ...revision,
    body: ArticleVersionSchema,
    fieldErrors: false,
  }),
};
