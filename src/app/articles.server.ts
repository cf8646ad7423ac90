/**
 * The articles as the route loaders read them at build time: every Markdown file of
 * src/content/articles, bundled into the prerender's server build by Vite (never the browser's).
 */
import { readArticles } from '~/content/articles.server';

const files = import.meta.glob<string>('../content/articles/*.md', {
  query: '?raw',
  import: 'default',
  eager: true,
});

/** Every article, newest first. */
export const ARTICLES = readArticles(files);
