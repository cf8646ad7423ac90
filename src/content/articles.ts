/**
 * Where the articles live and what a list shows of one. The articles themselves are Markdown
 * files in src/content/articles, read at build time (src/content/articles.server.ts).
 */
export type ArticleMeta = {
  readonly slug: string;
  readonly title: string;
  /** YYYY-MM-DD. */
  readonly date: string;
  readonly summary: string;
  readonly words: number;
  /** At 200 words a minute, rounded up. */
  readonly readingMinutes: number;
  /** The UK tax year its figures speak of, as 2025-26, when it quotes any. */
  readonly taxYear?: string;
};

/**
 * An article's cover image (decision 050): its version (in its files' addresses), its alt text, and
 * the size of its widest file (src/content/article-cover.ts names the files).
 */
export type ArticleCover = {
  readonly version: number;
  readonly alt: string;
  readonly width: number;
  readonly height: number;
};

/** An article as its page shows it: its text rendered, and its cover when it has one. */
export type ArticleDoc = ArticleMeta & { readonly html: string; readonly cover?: ArticleCover };

export const ARTICLES_PATH = '/resources/articles';
export const articlePath = (slug: string) => `${ARTICLES_PATH}/${slug}`;
