/**
 * "Start from an article": the site's published articles offered as the start of a newsletter
 * issue. They are the publishing feature's (decision 047); the composition root hands this feature
 * a function that reads them (`ArticleTexts`), so that nothing here reads another feature's tables.
 */
import { articlePath } from '~/content/articles';
import type { Db } from '~/server/kit/db/client';
import { ISSUE_LIMITS, type ArticleChoice } from './issues-console-contract';

export type { ArticleChoice } from './issues-console-contract';

export type IssueFromArticle = { subject: string; preheader: string; body: string; articleSlug: string };

/** A published article's own words: Markdown, as the owner wrote it. */
export type ArticleText = ArticleChoice & { body: string };

/** Reads the published articles, newest first. */
export type ArticleTexts = (db: Db) => Promise<ArticleText[]>;

/** Every published article, newest first, as the console offers them. */
export function articleChoices(articles: readonly ArticleText[]): ArticleChoice[] {
  return articles.map(({ slug, title, summary, date }) => ({ slug, title, summary, date }));
}

/** Cut at a word before `max` characters, for a field the owner's form limits. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** Markdown's link text must not close early on a bracket of the title. */
function linkText(text: string): string {
  return text.replace(/[\\[\]]/g, '\\$&');
}

/**
 * The issue text filled from the article: subject = title, preheader = summary, body = the
 * article's Markdown followed by a line linking to the article. undefined for a slug that names
 * no published article.
 */
export function issueFromArticle(
  articles: readonly ArticleText[],
  slug: string,
  publicUrl: string,
): IssueFromArticle | undefined {
  // Only a slug that names one of the articles read is ever used; nothing is built from the input.
  const article = articles.find((a) => a.slug === slug);
  if (!article) return undefined;
  const site = publicUrl.replace(/\/+$/, '');
  const url = `${site}${articlePath(article.slug)}`;
  // The articles link to each other by site path, which means nothing in a mailbox.
  const body = article.body.replace(/\]\(\/(?!\/)/g, `](${site}/`);
  return {
    subject: clip(article.title, ISSUE_LIMITS.subject),
    preheader: clip(article.summary, ISSUE_LIMITS.preheader),
    body: `${body}\n\nRead this article on our website: [${linkText(article.title)}](${url})`,
    articleSlug: article.slug,
  };
}
