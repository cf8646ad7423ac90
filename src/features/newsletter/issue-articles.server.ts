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
import { readdir, readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import matter from 'gray-matter';
import { articlePath } from '~/content/articles';
import { readArticles } from '~/content/articles.server';
import { ISSUE_LIMITS, type ArticleChoice } from './issues-console-contract';

export type { ArticleChoice } from './issues-console-contract';

export type IssueFromArticle = { subject: string; preheader: string; body: string; articleSlug: string };

type StoredArticle = ArticleChoice & { markdown: string };

const ARTICLES = join('src', 'content', 'articles');

async function isDirectory(path: string): Promise<boolean> {
  return stat(path).then(
    (found) => found.isDirectory(),
    () => false,
  );
}

/**
 * The articles' folder: under the working directory when the server runs from the project (as
 * `npm start` and the tests do); otherwise under the nearest folder above this module that holds
 * a package.json, which is the project both for the sources and for a bundle built into it.
 */
async function articlesDirectory(): Promise<string> {
  const fromCwd = join(process.cwd(), ARTICLES);
  if (await isDirectory(fromCwd)) return fromCwd;
  let folder = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(folder, ARTICLES);
    if ((await stat(join(folder, 'package.json')).catch(() => undefined)) && (await isDirectory(candidate)))
      return candidate;
    const parent = dirname(folder);
    if (parent === folder) throw new Error(`The articles' folder (${ARTICLES}) was not found.`);
    folder = parent;
  }
}

async function readAll(): Promise<Map<string, StoredArticle>> {
  const directory = await articlesDirectory();
  const names = (await readdir(directory)).filter((name) => name.endsWith('.md')).sort();
  const files = Object.fromEntries(
    await Promise.all(
      names.map(async (name) => [name, await readFile(join(directory, name), 'utf8')] as const),
    ),
  );
  // The build's own parser checks each file (slug, title, date, summary) and orders them.
  return new Map(
    readArticles(files).map(({ slug, title, summary, date }) => [
      slug,
      { slug, title, summary, date, markdown: matter(files[`${slug}.md`] ?? '').content.trim() },
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
