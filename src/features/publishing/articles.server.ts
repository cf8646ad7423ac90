/**
 * The published articles as the public site reads them, and the publication counter (decision
 * 047). The console's area (articles-console.server.ts, through article-editing.server.ts) writes
 * the articles; the site's renderer reads what is published here, and renders its pages again when
 * `publicationVersion` moves. Every change to what the site shows raises the counter in the
 * transaction of the change.
 *
 * Locks are always taken in one order, so that two instances (or an owner and a chore) never wait
 * on each other in a circle: an article's row, then the slugs' lock (ARTICLE_SLUG_LOCK), then the
 * site_publication row.
 */
import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, lte, sql } from 'drizzle-orm';
import type { ArticleDoc } from '~/content/articles';
import { audit } from '~/server/kit/audit';
import type { Db, Queryable } from '~/server/kit/db/client';
import { readingMinutes, renderArticleMarkdown } from './article-markdown.server';
import { PUBLICATION, raisePublicationVersion, sitePublication } from '~/server/kit/publication';
import { articleCovers, articleRedirects, articleRevisions, articles } from './tables.server';

/** Held while an article takes a slug: no two take the same one, nor one another's old slug. */
export const ARTICLE_SLUG_LOCK = 727_047;

/** Who the site itself is in the audit log (a scheduled article going live, the import). */
const SYSTEM = 'system';

/** Who saved the first revision of an imported article. */
const IMPORT_AUTHOR = 'import';

type ArticleRow = typeof articles.$inferSelect;

type CoverRow = Pick<typeof articleCovers.$inferSelect, 'version' | 'alt' | 'width' | 'height'>;

/** A stored article as the site shows it: its Markdown rendered to safe HTML, its cover (decision 050). */
function articleDocOf(
  row: Pick<ArticleRow, 'slug' | 'title' | 'date' | 'summary' | 'body' | 'taxYear'> & {
    cover: CoverRow | null;
  },
): ArticleDoc {
  const { html, words } = renderArticleMarkdown(row.body);
  return {
    slug: row.slug,
    title: row.title,
    date: row.date,
    summary: row.summary,
    words,
    readingMinutes: readingMinutes(words),
    ...(row.taxYear ? { taxYear: row.taxYear } : {}),
    html,
    ...(row.cover ? { cover: row.cover } : {}),
  };
}

/** The published articles' rows (status 'published') with their covers, newest `date` first, then title. */
function publishedRows(db: Queryable) {
  return db
    .select({
      slug: articles.slug,
      title: articles.title,
      date: articles.date,
      summary: articles.summary,
      body: articles.body,
      taxYear: articles.taxYear,
      cover: {
        version: articleCovers.version,
        alt: articleCovers.alt,
        width: articleCovers.width,
        height: articleCovers.height,
      },
    })
    .from(articles)
    .leftJoin(articleCovers, eq(articleCovers.articleId, articles.id))
    .where(eq(articles.status, 'published'))
    .orderBy(desc(articles.date), asc(articles.title), asc(articles.slug));
}

/** Published articles, newest first, rendered to safe HTML. */
export async function publishedArticles(db: Queryable): Promise<ArticleDoc[]> {
  return (await publishedRows(db)).map(articleDocOf);
}

/** The published articles' own text (Markdown), newest first: what a newsletter issue may start from. */
export async function publishedArticleTexts(
  db: Queryable,
): Promise<{ slug: string; title: string; summary: string; date: string; body: string; taxYear?: string }[]> {
  return (await publishedRows(db)).map(({ slug, title, summary, date, body, taxYear }) => ({
    slug,
    title,
    summary,
    date,
    body,
    ...(taxYear ? { taxYear } : {}),
  }));
}

/** Every old slug -> the current slug of a published article (redirects of unpublished ones are left out). */
export async function articleRedirectList(db: Queryable): Promise<{ from: string; to: string }[]> {
  return db
    .select({ from: articleRedirects.fromSlug, to: articles.slug })
    .from(articleRedirects)
    .innerJoin(articles, eq(articles.id, articleRedirects.articleId))
    .where(eq(articles.status, 'published'))
    .orderBy(asc(articleRedirects.fromSlug));
}

/**
 * Scheduled articles whose publish_at has passed become published (status, published_at), the
 * counter raised, an audit row each (the site's own, 'system'); returns how many. Safe when two
 * instances run it at once: the due rows are locked, and rows another transaction holds are left
 * for it (or for the next run), so each goes live once.
 */
export async function publishDueArticles(db: Db, now: Date = new Date()): Promise<number> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: articles.id })
      .from(articles)
      .where(and(eq(articles.status, 'scheduled'), lte(articles.publishAt, now)))
      .orderBy(asc(articles.id))
      .for('update', { skipLocked: true });
    if (due.length === 0) return 0;
    let published = 0;
    for (const { id } of due) {
      const [row] = await tx
        .update(articles)
        .set({
          status: 'published',
          publishedAt: sql`coalesce(${articles.publishedAt}, ${now.toISOString()}::timestamptz)`,
          updatedAt: now,
        })
        .where(and(eq(articles.id, id), eq(articles.status, 'scheduled')))
        .returning({ id: articles.id });
      if (!row) continue;
      await audit(tx, SYSTEM, 'article.publish', id, { scheduled: true });
      published += 1;
    }
    if (published > 0) await raisePublicationVersion(tx);
    return published;
  });
}

/** An article file of the repository, as the renderer has read it. */
export type ArticleFile = {
  slug: string;
  title: string;
  date: string;
  summary: string;
  body: string;
  taxYear?: string;
};

/**
 * The one-time import: if site_publication.articles_imported_at is null, inserts each given article
 * as published (with its slug, a first revision saved by 'import'), sets articles_imported_at and
 * raises the counter; else does nothing. Returns how many were imported (a slug an article of the
 * console has already taken is left out). It writes no audit row: no person acts, and its rows say
 * it (articles_imported_at, each first revision saved by 'import'). Safe against two instances at once: the
 * site_publication row is locked, and the second finds the import done.
 */
export async function importArticles(db: Db, files: ArticleFile[]): Promise<number> {
  return db.transaction(async (tx) => {
    // The slugs' lock before the publication row, the order every writer keeps.
    await tx.execute(sql`select pg_advisory_xact_lock(${ARTICLE_SLUG_LOCK})`);
    await tx.insert(sitePublication).values({ id: PUBLICATION }).onConflictDoNothing();
    const [publication] = await tx
      .select({ importedAt: sitePublication.articlesImportedAt })
      .from(sitePublication)
      .where(eq(sitePublication.id, PUBLICATION))
      .for('update');
    if (publication?.importedAt) return 0;
    let imported = 0;
    for (const file of files) {
      const id = randomUUID();
      const fields = {
        slug: file.slug,
        title: file.title,
        summary: file.summary,
        body: file.body,
        date: file.date,
        taxYear: file.taxYear || null,
      };
      const [inserted] = await tx
        .insert(articles)
        .values({ id, ...fields, status: 'published', publishedAt: sql`now()` })
        .onConflictDoNothing({ target: articles.slug })
        .returning({ id: articles.id });
      if (!inserted) continue;
      await tx
        .insert(articleRevisions)
        .values({ id: randomUUID(), articleId: id, version: 1, ...fields, savedBy: IMPORT_AUTHOR });
      imported += 1;
    }
    await tx
      .update(sitePublication)
      .set({ articlesImportedAt: sql`now()` })
      .where(eq(sitePublication.id, PUBLICATION));
    await raisePublicationVersion(tx);
    return imported;
  });
}
