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

export type ArticleDoc = ArticleMeta & { readonly html: string };

export const ARTICLES_PATH = '/resources/articles';
export const articlePath = (slug: string) => `${ARTICLES_PATH}/${slug}`;
