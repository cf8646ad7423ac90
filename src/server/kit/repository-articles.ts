/**
 * The Markdown articles of the repository (src/content/articles), read at run time: what a new
 * database imports once as its published articles (decision 047). The build reads the same
 * files through Vite (src/app/articles.server.ts); the server is bundled by esbuild, which knows
 * nothing of `import.meta.glob`, so it reads them from the project directory (the server is
 * started from there, and the files are part of every checkout).
 */
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
