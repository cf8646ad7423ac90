/**
 * The articles read from their files in Node (the build scripts, the config, the tests), the
 * same way the route loaders read them through Vite (src/app/articles.server.ts).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readArticles } from '../src/content/articles.server';

export const ARTICLES_DIR = fileURLToPath(new URL('../src/content/articles/', import.meta.url));

/** Every article file's slug (its name without .md), in name order. */
export function articleSlugs(): string[] {
  return readdirSync(ARTICLES_DIR)
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => name.slice(0, -3));
}

/** Every article, parsed and rendered, newest first. */
export function readArticleFiles() {
  return readArticles(
    Object.fromEntries(
      articleSlugs().map((slug) => [`${slug}.md`, readFileSync(`${ARTICLES_DIR}${slug}.md`, 'utf8')]),
    ),
  );
}
