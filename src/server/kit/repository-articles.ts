/**
 * The Markdown articles of the repository (src/content/articles), read at run time: what a new
 * database imports once as its published articles (decision 047). The build reads the same
 * files through Vite (src/app/articles.server.ts); the server is bundled by esbuild, which knows
 * nothing of `import.meta.glob`, so it reads them from the project directory (the server is
 * started from there, and the files are part of every checkout).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import matter from 'gray-matter';
import { readArticles } from '~/content/articles.server';

export type RepositoryArticle = {
  slug: string;
  title: string;
  date: string;
  summary: string;
  body: string;
  taxYear?: string;
};

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

/** Every article of the repository, newest first, checked by the build's own parser. */
export async function readRepositoryArticles(): Promise<RepositoryArticle[]> {
  const directory = await articlesDirectory();
  const names = (await readdir(directory)).filter((name) => name.endsWith('.md')).sort();
  const files = Object.fromEntries(
    await Promise.all(names.map(async (name) => [name, await readFile(join(directory, name), 'utf8')] as const)),
  );
  return readArticles(files).map(({ slug, title, summary, date, taxYear }) => ({
    slug,
    title,
    summary,
    date,
    ...(taxYear ? { taxYear } : {}),
    body: matter(files[`${slug}.md`] ?? '').content.trim(),
  }));
}

/**
 * The build's record of the articles its pages were prerendered from (written by
 * scripts/build-assets.ts, beside the client build): while what is published is exactly these
 * articles and nothing else, the build's pages are already the published pages, and the server's
 * start renders nothing (decision 049).
 */
export const BUILT_ARTICLES_FILE = 'prerendered-articles.json';

/** One digest of articles' own text, whatever their order: equal digests, the same articles. */
export function articlesDigest(articles: readonly RepositoryArticle[]): string {
  const canonical = [...articles]
    .sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0))
    .map((a) => [a.slug, a.title, a.date, a.summary, a.taxYear ?? null, a.body.trim()]);
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}

/** The digest of the articles the build prerendered, or undefined when the build has no record. */
export function builtArticlesDigest(buildDir: string): string | undefined {
  try {
    const record = JSON.parse(readFileSync(join(buildDir, BUILT_ARTICLES_FILE), 'utf8')) as { digest?: unknown };
    return typeof record.digest === 'string' ? record.digest : undefined;
  } catch {
    return undefined;
  }
}
