/**
 * The articles: one Markdown file each in src/content/articles, named by its slug, with front
 * matter (title, date as YYYY-MM-DD, summary, and taxYear as 2025-26 when it quotes a tax year's figures). They are read and rendered at build time only:
 * the route loaders that prerender the pages (src/app/articles.server.ts), the sitemap and the
 * Atom feed (scripts/build-assets.ts) and the prerendered paths (react-router.config.ts). The
 * Markdown library never reaches the browser. Adding an article is adding one file.
 */
import matter from 'gray-matter';
import { Marked } from 'marked';
import type { ArticleDoc, ArticleMeta } from './articles';

export type { ArticleDoc, ArticleMeta } from './articles';

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
/** A UK tax year as 2025-26. */
const TAX_YEAR = /^\d{4}-\d{2}$/;

/** The file's own text is trusted (it is in the repository); its links are made safe all the same. */
const markdown = new Marked({ gfm: true, async: false });
markdown.use({
  renderer: {
    link({ href, title, tokens }) {
      const text = this.parser.parseInline(tokens);
      const external = /^https?:\/\//.test(href);
      const attrs = [
        `href="${escapeAttr(href)}"`,
        title ? `title="${escapeAttr(title)}"` : '',
        external ? 'rel="noopener noreferrer"' : '',
      ].filter(Boolean);
      return `<a ${attrs.join(' ')}>${text}</a>`;
    },
  },
});

function escapeAttr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

function dateOf(value: unknown): string | undefined {
  // YAML reads an unquoted 2025-06-15 as a date (midnight UTC).
  if (value instanceof Date && !Number.isNaN(value.getTime())) return value.toISOString().slice(0, 10);
  if (typeof value === 'string' && ISO_DATE.test(value) && !Number.isNaN(Date.parse(value))) return value;
  return undefined;
}

/** Words of running text: the Markdown without its markup. */
function countWords(body: string): number {
  const text = body
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[#*_>`|-]+/g, ' ')
    .trim();
  return text === '' ? 0 : text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}

/** One article from its file name and text; a clear error names the file and what is wrong. */
export function parseArticle(fileName: string, source: string): ArticleDoc {
  const slug = fileName.replace(/^.*\//, '').replace(/\.md$/, '');
  const fail = (problem: string) => new Error(`Article ${fileName}: ${problem}`);
  if (!SLUG.test(slug)) throw fail('the file name must be a slug: lower-case words joined by hyphens');
  const { data, content } = matter(source);
  const title = typeof data.title === 'string' ? data.title.trim() : '';
  const summary = typeof data.summary === 'string' ? data.summary.trim() : '';
  const date = dateOf(data.date);
  if (!title) throw fail('its front matter needs a title');
  if (!date) throw fail('its front matter needs a date as YYYY-MM-DD');
  if (!summary) throw fail('its front matter needs a summary');
  const words = countWords(content);
  if (words === 0) throw fail('it has no text');
  const taxYear = typeof data.taxYear === 'string' ? data.taxYear.trim() : undefined;
  if (taxYear !== undefined && !TAX_YEAR.test(taxYear)) throw fail('its taxYear must read like 2025-26');
  return {
    slug,
    title,
    date,
    summary,
    words,
    readingMinutes: Math.max(1, Math.ceil(words / 200)),
    ...(taxYear ? { taxYear } : {}),
    html: markdown.parse(content) as string,
  };
}

/** Every article from its files (path -> text), newest first. Slugs are unique by file name. */
export function readArticles(files: Record<string, string>): ArticleDoc[] {
  return Object.entries(files)
    .map(([name, source]) => parseArticle(name, source))
    .sort((a, b) => b.date.localeCompare(a.date) || a.slug.localeCompare(b.slug));
}

/** What a list shows of an article: everything but its body and its cover (the lists show none). */
export function metaOf({ html: _html, cover: _cover, ...meta }: ArticleDoc): ArticleMeta {
  return meta;
}
