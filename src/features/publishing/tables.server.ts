/**
 * What the owner publishes from the console (decision 047): the articles, every saved revision of
 * each, the old addresses of an article whose slug changed, and each article's cover image with
 * its resized files (decision 050).
 */
import { sql } from 'drizzle-orm';
import { customType, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

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

/**
 * An article's cover: at most one an article. Each upload is a new row (the old one and its files
 * deleted), so its version, which its files' addresses name, is never an earlier cover's.
 */
export const articleCovers = pgTable('article_covers', {
  version: integer('version').primaryKey().generatedAlwaysAsIdentity(),
  articleId: uuid('article_id')
    .notNull()
    .unique()
    .references(() => articles.id, { onDelete: 'cascade' }),
  /** What the image shows, for a reader who cannot see it. */
  alt: text('alt').notNull(),
  /** The widest file's size, the image upright (at most 1600 pixels wide, never more than uploaded). */
  width: integer('width').notNull(),
  height: integer('height').notNull(),
  /** The console person who uploaded it, or last changed its alt text, and when. */
  updatedBy: text('updated_by').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A cover's files: each width in AVIF, WebP and JPEG (src/content/article-cover.ts). */
export const articleCoverFiles = pgTable(
  'article_cover_files',
  {
    version: integer('version')
      .notNull()
      .references(() => articleCovers.version, { onDelete: 'cascade' }),
    width: integer('width').notNull(),
    /** avif | webp | jpeg */
    format: text('format').notNull(),
    bytes: bytea('bytes').notNull(),
  },
  (t) => [primaryKey({ columns: [t.version, t.width, t.format] })],
);

// The publication counter (site_publication) is the server kit's (src/server/kit/publication.ts):
// every feature that publishes raises it.
