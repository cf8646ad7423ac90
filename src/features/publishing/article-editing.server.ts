/**
 * The owner's work on the articles (decision 047), for the console's area
 * (articles-console.server.ts): drafts, saves (each a revision; a save naming an older version is
 * refused), slugs (unique among the articles and the old slugs of the others; a published
 * article's old slug kept as a redirect), publishing now or at a UK time, unpublishing, and
 * restoring a revision. Each action writes its audit row in its own transaction, and raises the
 * publication counter there when the public site changes (`raised`: the area tells the renderer
 * after the commit).
 */
import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, inArray, isNotNull, ne, sql } from 'drizzle-orm';
import { articlePath } from '~/content/articles';
import { ukLocalInput, ukWallTimeToInstant } from '~/lib/uk-dates';
import { isBeforeCurrentTaxYear, ukTaxYearOf } from '~/lib/uk-tax-year';
import { audit } from '~/server/kit/audit';
import type { Db, Queryable, Tx } from '~/server/kit/db/client';
import { readingMinutes, renderArticleMarkdown } from './article-markdown.server';
import { raisePublicationVersion } from '~/server/kit/publication';
import { ARTICLE_SLUG_LOCK } from './articles.server';
import type {
  ArticleDetail,
  ArticleFields,
  ArticlePreview,
  ArticleRevisionDetail,
  ArticleRevisionSummary,
  ArticleStatus,
  ArticleSummary,
} from './articles-console-contract';
import { articleRedirects, articleRevisions, articles } from './tables.server';

/** Why an action was refused, as the console says it (409 unless said otherwise), and the field it is about. */
export class ArticleRefusal extends Error {
  constructor(
    message: string,
    readonly status: 400 | 404 | 409 = 409,
    readonly field?: 'slug' | 'at' | 'data',
  ) {
    super(message);
  }
}

export const NOT_FOUND = 'There is no such article.';
const REVISION_NOT_FOUND = 'There is no such saved version of this article.';
/** A save (or publish, schedule, restore) naming an older version than the stored one. */
export const STALE =
  'This article was saved in another tab or window after you opened it, so this save was refused to keep that one. Your text is still on this page: copy what you want to keep, then reload the page to see the other save.';
const SLUG_TAKEN = 'Another article already has this address. Please choose another.';
const SLUG_WAS_OTHERS =
  'This address belonged to another article before its address changed, and still leads to it. Please choose another.';

type ArticleRow = typeof articles.$inferSelect;

/** The result of an action: the article as it now stands, and whether the public site changed. */
export type Outcome = { detail: ArticleDetail; raised: boolean };

const iso = (value: Date | null) => (value ? value.toISOString() : null);

export function summaryOf(row: ArticleRow, now: Date): ArticleSummary {
  return {
    id: row.id,
    title: row.title,
    slug: row.slug,
    status: row.status as ArticleStatus,
    date: row.date,
    taxYear: row.taxYear,
    datedFigures: isBeforeCurrentTaxYear(row.taxYear, now),
    publishAt: row.status === 'scheduled' ? iso(row.publishAt) : null,
    publishedAt: iso(row.publishedAt),
    updatedAt: row.updatedAt.toISOString(),
    // Made here, so that the console's pages do not carry the site's article paths.
    publicPath: row.status === 'published' ? articlePath(row.slug) : null,
  };
}

export function detailOf(row: ArticleRow, now: Date): ArticleDetail {
  const summary = summaryOf(row, now);
  return {
    ...summary,
    summary: row.summary,
    body: row.body,
    version: row.version,
    createdAt: row.createdAt.toISOString(),
    publishAtLocal: row.status === 'scheduled' && row.publishAt ? ukLocalInput(row.publishAt) : null,
    currentTaxYear: ukTaxYearOf(now),
  };
}

async function find(db: Queryable, id: string): Promise<ArticleRow> {
  const [row] = await db.select().from(articles).where(eq(articles.id, id));
  if (!row) throw new ArticleRefusal(NOT_FOUND, 404);
  return row;
}

/** The article's row, locked for the transaction; refused when `version` is not the stored one. */
async function locked(tx: Tx, id: string, version?: number): Promise<ArticleRow> {
  const [row] = await tx.select().from(articles).where(eq(articles.id, id)).for('update');
  if (!row) throw new ArticleRefusal(NOT_FOUND, 404);
  if (version !== undefined && row.version !== version) throw new ArticleRefusal(STALE);
  return row;
}

/** Every article, newest date first (then the latest saved). */
export async function listArticles(db: Queryable, now: Date): Promise<ArticleSummary[]> {
  const rows = await db
    .select()
    .from(articles)
    .orderBy(desc(articles.date), desc(articles.updatedAt), asc(articles.id))
    .limit(1000);
  return rows.map((row) => summaryOf(row, now));
}

export async function articleDetail(db: Queryable, id: string, now: Date): Promise<ArticleDetail> {
  return detailOf(await find(db, id), now);
}

/** The editor's Markdown as the article's page shows it. */
export function previewArticle(body: string): ArticlePreview {
  const { html, words } = renderArticleMarkdown(body);
  return { html, words, readingMinutes: readingMinutes(words) };
}

/**
 * The article (new when `row` is null) takes `slug`: refused when another article has it, or had
 * it (an old slug of another, which still leads there). Once the article has been published, the
 * slug it leaves becomes one of its redirects; a slug it had before and takes back is no longer
 * one. Runs under the slugs' lock, so two saves cannot take the same slug between check and write.
 */
async function takeSlug(tx: Tx, row: ArticleRow | null, slug: string): Promise<void> {
  if (row?.slug === slug) return;
  await tx.execute(sql`select pg_advisory_xact_lock(${ARTICLE_SLUG_LOCK})`);
  const [other] = await tx
    .select({ id: articles.id })
    .from(articles)
    .where(row ? and(eq(articles.slug, slug), ne(articles.id, row.id)) : eq(articles.slug, slug))
    .limit(1);
  if (other) throw new ArticleRefusal(SLUG_TAKEN, 409, 'slug');
  const [redirect] = await tx
    .select({ articleId: articleRedirects.articleId })
    .from(articleRedirects)
    .where(eq(articleRedirects.fromSlug, slug));
  if (redirect && redirect.articleId !== row?.id) throw new ArticleRefusal(SLUG_WAS_OTHERS, 409, 'slug');
  if (!row) return;
  if (redirect) await tx.delete(articleRedirects).where(eq(articleRedirects.fromSlug, slug));
  if (row.publishedAt) {
    await tx
      .insert(articleRedirects)
      .values({ fromSlug: row.slug, articleId: row.id })
      .onConflictDoUpdate({
        target: articleRedirects.fromSlug,
        set: { articleId: row.id, createdAt: sql`now()` },
      });
  }
}

const fieldsOf = (input: ArticleFields) => ({
  title: input.title,
  summary: input.summary,
  slug: input.slug,
  body: input.body,
  date: input.date,
  taxYear: input.taxYear || null,
});

type Fields = ReturnType<typeof fieldsOf>;

/** Writes the fields as the article's next version, with its revision; raises the counter when it is published. */
async function writeVersion(
  tx: Tx,
  row: ArticleRow,
  fields: Fields,
  savedBy: string,
  now: Date,
): Promise<{ saved: ArticleRow; raised: boolean }> {
  await takeSlug(tx, row, fields.slug);
  const [saved] = await tx
    .update(articles)
    .set({ ...fields, version: row.version + 1, updatedAt: now })
    .where(eq(articles.id, row.id))
    .returning();
  await tx.insert(articleRevisions).values({
    id: randomUUID(),
    articleId: row.id,
    version: saved!.version,
    ...fields,
    savedBy,
    savedAt: now,
  });
  const raised = saved!.status === 'published';
  if (raised) await raisePublicationVersion(tx);
  return { saved: saved!, raised };
}

/** A new draft, version 1, with its first revision. */
export async function createArticle(
  db: Db,
  input: ArticleFields,
  actor: string,
  now: Date,
): Promise<ArticleDetail> {
  const id = randomUUID();
  const fields = fieldsOf(input);
  const row = await db.transaction(async (tx) => {
    await takeSlug(tx, null, fields.slug);
    const [created] = await tx
      .insert(articles)
      .values({ id, ...fields, status: 'draft', version: 1, createdAt: now, updatedAt: now })
      .returning();
    await tx
      .insert(articleRevisions)
      .values({ id: randomUUID(), articleId: id, version: 1, ...fields, savedBy: actor, savedAt: now });
    await audit(tx, actor, 'article.create', id);
    return created!;
  });
  return detailOf(row, now);
}

/** A save of what the editor loaded as `version` (refused when another save came since). */
export async function saveArticle(
  db: Db,
  id: string,
  input: ArticleFields & { version: number },
  actor: string,
  now: Date,
): Promise<Outcome> {
  return db.transaction(async (tx) => {
    const row = await locked(tx, id, input.version);
    const { saved, raised } = await writeVersion(tx, row, fieldsOf(input), actor, now);
    await audit(tx, actor, 'article.save', id, { version: saved.version });
    return { detail: detailOf(saved, now), raised };
  });
}

/** Every save of the article, newest first. */
export async function listRevisions(db: Queryable, id: string): Promise<ArticleRevisionSummary[]> {
  await find(db, id);
  const rows = await db
    .select({
      id: articleRevisions.id,
      version: articleRevisions.version,
      title: articleRevisions.title,
      slug: articleRevisions.slug,
      savedBy: articleRevisions.savedBy,
      savedAt: articleRevisions.savedAt,
    })
    .from(articleRevisions)
    .where(eq(articleRevisions.articleId, id))
    .orderBy(desc(articleRevisions.version), desc(articleRevisions.savedAt))
    .limit(500);
  return rows.map((r) => ({ ...r, savedAt: r.savedAt.toISOString() }));
}

async function findRevision(db: Queryable, id: string, revisionId: string) {
  const [revision] = await db
    .select()
    .from(articleRevisions)
    .where(and(eq(articleRevisions.id, revisionId), eq(articleRevisions.articleId, id)));
  if (!revision) throw new ArticleRefusal(REVISION_NOT_FOUND, 404);
  return revision;
}

export async function revisionDetail(
  db: Queryable,
  id: string,
  revisionId: string,
): Promise<ArticleRevisionDetail> {
  const revision = await findRevision(db, id, revisionId);
  return {
    id: revision.id,
    version: revision.version,
    title: revision.title,
    slug: revision.slug,
    savedBy: revision.savedBy,
    savedAt: revision.savedAt.toISOString(),
    summary: revision.summary,
    body: revision.body,
    date: revision.date,
    taxYear: revision.taxYear,
    html: renderArticleMarkdown(revision.body).html,
  };
}

/** A revision's fields become a new save (refused, as a save is, when `version` is not the stored one). */
export async function restoreRevision(
  db: Db,
  id: string,
  revisionId: string,
  version: number,
  actor: string,
  now: Date,
): Promise<Outcome> {
  return db.transaction(async (tx) => {
    const row = await locked(tx, id, version);
    const revision = await findRevision(tx, id, revisionId);
    const fields = {
      title: revision.title,
      summary: revision.summary,
      slug: revision.slug,
      body: revision.body,
      date: revision.date,
      taxYear: revision.taxYear,
    };
    const { saved, raised } = await writeVersion(tx, row, fields, actor, now);
    await audit(tx, actor, 'article.restore', id, { from: revision.version, version: saved.version });
    return { detail: detailOf(saved, now), raised };
  });
}

const CAN_GO_LIVE: readonly ArticleStatus[] = ['draft', 'scheduled', 'unpublished'];
const ALREADY_PUBLISHED = 'This article is already published.';

/** Live now, as saved at `version`. */
/** Publishing (now or at a time) an article whose text has no words. */
const NO_WORDS = 'This article has no words to publish yet. Please write it and save it first.';

export async function publishArticle(
  db: Db,
  id: string,
  version: number,
  actor: string,
  now: Date,
): Promise<Outcome> {
  return db.transaction(async (tx) => {
    const row = await locked(tx, id, version);
    if (!CAN_GO_LIVE.includes(row.status as ArticleStatus)) throw new ArticleRefusal(ALREADY_PUBLISHED);
    if (renderArticleMarkdown(row.body).words === 0) throw new ArticleRefusal(NO_WORDS);
    const [published] = await tx
      .update(articles)
      .set({
        status: 'published',
        publishedAt: row.publishedAt ?? now,
        publishAt: null,
        updatedAt: now,
      })
      .where(eq(articles.id, id))
      .returning();
    await raisePublicationVersion(tx);
    await audit(tx, actor, 'article.publish', id);
    return { detail: detailOf(published!, now), raised: true };
  });
}

/** Live at a UK wall-clock time (`YYYY-MM-DDTHH:MM`) in the future, as saved at `version`. */
export async function scheduleArticle(
  db: Db,
  id: string,
  at: string,
  version: number,
  actor: string,
  now: Date,
): Promise<Outcome> {
  const [date = '', time = ''] = at.split('T');
  const when = ukWallTimeToInstant(date, time);
  // A day or time that does not exist (31 February, 25:75, an hour skipped in March) is refused,
  // not rolled over into another.
  if (Number.isNaN(when.getTime()) || ukLocalInput(when) !== at) {
    throw new ArticleRefusal('That date and time do not exist in the UK. Please choose another.', 400, 'at');
  }
  if (when.getTime() <= now.getTime()) {
    throw new ArticleRefusal('Please choose a time in the future, or publish the article now.', 400, 'at');
  }
  return db.transaction(async (tx) => {
    const row = await locked(tx, id, version);
    if (!CAN_GO_LIVE.includes(row.status as ArticleStatus)) {
      throw new ArticleRefusal('This article is published. Unpublish it first to publish it again later.');
    }
    // Refused now, as publishing now is: at its time it would go live with nothing to read.
    if (renderArticleMarkdown(row.body).words === 0) throw new ArticleRefusal(NO_WORDS);
    const [scheduled] = await tx
      .update(articles)
      .set({ status: 'scheduled', publishAt: when, updatedAt: now })
      .where(eq(articles.id, id))
      .returning();
    await audit(tx, actor, 'article.schedule', id);
    return { detail: detailOf(scheduled!, now), raised: false };
  });
}

/** Moves the article from one status to another, or refuses with `refusal`. */
async function move(
  db: Db,
  id: string,
  from: ArticleStatus,
  to: ArticleStatus,
  refusal: string,
  action: 'unschedule' | 'unpublish',
  actor: string,
  now: Date,
): Promise<Outcome> {
  return db.transaction(async (tx) => {
    const row = await locked(tx, id);
    if (row.status !== from) throw new ArticleRefusal(refusal);
    const [moved] = await tx
      .update(articles)
      .set({ status: to, publishAt: null, updatedAt: now })
      .where(eq(articles.id, id))
      .returning();
    const raised = from === 'published';
    if (raised) await raisePublicationVersion(tx);
    await audit(tx, actor, `article.${action}`, id);
    return { detail: detailOf(moved!, now), raised };
  });
}

export const unscheduleArticle = (db: Db, id: string, actor: string, now: Date) =>
  move(
    db,
    id,
    'scheduled',
    'draft',
    'Only a scheduled article can be unscheduled.',
    'unschedule',
    actor,
    now,
  );

/** Off the site: its page, the list, the feed and the sitemap (its old slugs stop redirecting). */
export const unpublishArticle = (db: Db, id: string, actor: string, now: Date) =>
  move(
    db,
    id,
    'published',
    'unpublished',
    'Only a published article can be unpublished.',
    'unpublish',
    actor,
    now,
  );

/**
 * The published and scheduled articles whose figures are of a tax year before the current UK tax
 * year, for the console's overview: title and tax year each.
 */
export async function articlesWithDatedFigures(
  db: Queryable,
  now: Date = new Date(),
): Promise<{ id: string; title: string; taxYear: string }[]> {
  const rows = await db
    .select({ id: articles.id, title: articles.title, taxYear: articles.taxYear })
    .from(articles)
    .where(and(inArray(articles.status, ['published', 'scheduled']), isNotNull(articles.taxYear)))
    .orderBy(asc(articles.taxYear), asc(articles.title));
  return rows.flatMap((row) =>
    row.taxYear && isBeforeCurrentTaxYear(row.taxYear, now) ? [{ ...row, taxYear: row.taxYear }] : [],
  );
}
