/**
 * What the owner publishes from the console (decision 047): the articles, every saved revision of
 * each, and the old addresses of an article whose slug changed.
 */
import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const articles = pgTable(
  'articles',
  {
    id: uuid('id').primaryKey(),
    /** Its address under /resources/articles/; kept once published (a change leaves a redirect). */
    slug: text('slug').notNull().unique(),
    title: text('title').notNull(),
    summary: text('summary').notNull(),
    /** Markdown. */
    body: text('body').notNull(),
    /** The date the article shows, YYYY-MM-DD. */
    date: text('date').notNull(),
    /** The UK tax year its figures speak of, as 2025-26; null when it quotes none. */
    taxYear: text('tax_year'),
    /** draft | scheduled | published | unpublished */
    status: text('status').notNull().default('draft'),
    /** When a scheduled article goes live. */
    publishAt: timestamp('publish_at', { withTimezone: true }),
    /** When it first went live. */
    publishedAt: timestamp('published_at', { withTimezone: true }),
    /** Raised by every save: a save that names an older one is refused (two tabs). */
    version: integer('version').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('articles_due')
      .on(t.publishAt)
      .where(sql`${t.status} = 'scheduled'`),
  ],
);

/** Every save of an article, newest last: what the owner can look at and restore. */
export const articleRevisions = pgTable(
  'article_revisions',
  {
    id: uuid('id').primaryKey(),
    articleId: uuid('article_id')
      .notNull()
      .references(() => articles.id, { onDelete: 'cascade' }),
    /** The article's version this revision saved. */
    version: integer('version').notNull(),
    slug: text('slug').notNull(),
    title: text('title').notNull(),
    summary: text('summary').notNull(),
    body: text('body').notNull(),
    date: text('date').notNull(),
    taxYear: text('tax_year'),
    /** The console person who saved it. */
    savedBy: text('saved_by').notNull(),
    savedAt: timestamp('saved_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('article_revisions_article').on(t.articleId, t.version)],
);

/** An address an article had before its slug changed: answered with a permanent redirect. */
export const articleRedirects = pgTable('article_redirects', {
  fromSlug: text('from_slug').primaryKey(),
  articleId: uuid('article_id')
    .notNull()
    .references(() => articles.id, { onDelete: 'cascade' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

// The publication counter (site_publication) is the server kit's (src/server/kit/publication.ts):
// every feature that publishes raises it.
