/**
 * "Start from an article": the site's articles offered as the start of a newsletter issue.
 *
 * The pages read the articles at build time through Vite (src/app/articles.server.ts), but the
 * server is bundled by esbuild, which knows nothing of `import.meta.glob`. So the server reads
 * the same Markdown files at run time, from src/content/articles in the project directory (the
 * server is started from there, and the files are part of every checkout), and parses them with
 * the same functions as the build. They are read once, on first use, and kept in memory: they
 * change only with a new release.
 */
import { articlePath } from '~/content/articles';
import { readRepositoryArticles } from '~/server/kit/repository-articles';
import { ISSUE_LIMITS, type ArticleChoice } from './issues-console-contract';

export type { ArticleChoice } from './issues-console-contract';

export type IssueFromArticle = { subject: string; preheader: string; body: string; articleSlug: string };

type StoredArticle = ArticleChoice & { markdown: string };

async function readAll(): Promise<Map<string, StoredArticle>> {
  return new Map(
    (await readRepositoryArticles()).map(({ slug, title, summary, date, body }) => [
      slug,
      { slug, title, summary, date, markdown: body },
    ]),
  );
}

let cache: Promise<Map<string, StoredArticle>> | undefined;

function articles(): Promise<Map<string, StoredArticle>> {
  // A failed read is not kept, so that the next request tries again.
  cache ??= readAll().catch((error: unknown) => {
    cache = undefined;
    throw error;
  });
  return cache;
}

/** Every article, newest first. */
export async function articleChoices(): Promise<ArticleChoice[]> {
  return [...(await articles()).values()].map(({ slug, title, summary, date }) => ({
    slug,
    title,
    summary,
    date,
  }));
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
 * article's Markdown (without front matter) followed by a line linking to the article.
 * undefined for an unknown slug.
 */
export async function issueFromArticle(
  slug: string,
  publicUrl: string,
): Promise<IssueFromArticle | undefined> {
  // Only a slug that names one of the files read is ever used; nothing is built from the input.
  const article = (await articles()).get(slug);
  if (!article) return undefined;
  const site = publicUrl.replace(/\/+$/, '');
  const url = `${site}${articlePath(article.slug)}`;
  // The articles link to each other by site path, which means nothing in a mailbox.
  const body = article.markdown.replace(/\]\(\/(?!\/)/g, `](${site}/`);
  return {
    subject: clip(article.title, ISSUE_LIMITS.subject),
    preheader: clip(article.summary, ISSUE_LIMITS.preheader),
    body: `${body}\n\nRead this article on our website: [${linkText(article.title)}](${url})`,
    articleSlug: article.slug,
  };
}
