/**
 * The Articles pages' requests, made from the contract's routes (articles-console-contract.ts): a
 * route's path under /api/owner with its `:id` and `:revisionId` filled, its answer's type, and the
 * form's values as typed and as the server reads them.
 */
import type { AnswerOf, Route } from '~/contract/route';
import { post } from '~/components/console/http';
import { page } from '~/components/console/paths';
import { ukDateOf } from '~/lib/uk-dates';
import type { ArticleDetail, ArticleInput, ArticleStatus } from '../articles-console-contract';

type PathParams = { id?: string; revisionId?: string };

/** A route's path under /api/owner, its parameters filled: `/articles/:id` with the article's id. */
export function apiPath(route: Route, params: PathParams = {}): string {
  return route.path.replace(/:(id|revisionId)\b/g, (_, name: keyof PathParams) =>
    encodeURIComponent(params[name] ?? ''),
  );
}

/** POSTs to one of the contract's routes; the answer is the route's. */
export function postTo<R extends Route>(route: R, params: PathParams = {}, body: unknown = {}) {
  return post<AnswerOf<R>>(apiPath(route, params), body);
}

/** The console page of one article. */
export const articlePage = (id: string) => page(`articles/${encodeURIComponent(id)}`);

export const statusTones: Record<ArticleStatus, 'neutral' | 'good' | 'bad' | 'warn'> = {
  draft: 'neutral',
  scheduled: 'warn',
  published: 'good',
  unpublished: 'bad',
};

/** What the form holds: the fields as typed. */
export type ArticleValues = {
  title: string;
  summary: string;
  slug: string;
  date: string;
  taxYear: string;
  body: string;
};

export const ARTICLE_FIELDS = ['title', 'summary', 'slug', 'date', 'taxYear', 'body'] as const;

/** A new article's form: dated today (UK). */
export function emptyArticle(now = new Date()): ArticleValues {
  return { title: '', summary: '', slug: '', date: ukDateOf(now), taxYear: '', body: '' };
}

export function valuesOf(article: Pick<ArticleDetail, keyof ArticleValues | 'taxYear'>): ArticleValues {
  return {
    title: article.title,
    summary: article.summary,
    slug: article.slug,
    date: article.date,
    taxYear: article.taxYear ?? '',
    body: article.body,
  };
}

/** What the server reads (it trims each field again). */
export function inputOf(values: ArticleValues): Required<ArticleInput> {
  return {
    title: values.title.trim(),
    summary: values.summary.trim(),
    slug: values.slug.trim(),
    date: values.date.trim(),
    taxYear: values.taxYear.trim(),
    body: values.body.trim(),
  };
}

/** Whether the typed values differ from the saved article's (beyond spaces the server trims). */
export function differs(values: ArticleValues, saved: ArticleValues): boolean {
  const typed = inputOf(values);
  return ARTICLE_FIELDS.some((name) => typed[name] !== saved[name]);
}
