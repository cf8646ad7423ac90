/**
 * An article's cover image (decision 050): uploaded by the owner with its alt text (its files made
 * by cover-images.server.ts before the transaction), its alt text changed, removed; each audited,
 * in a transaction that locks the article's row first (the order every writer of articles keeps)
 * and, when the article is published, raises the publication counter so that every instance
 * renders its page again. The cover is not part of the article's saves or revisions: restoring a
 * revision keeps the cover the article has. Its files are served at an address with the cover's
 * version in it, cached for a year; a cover of an article that is not published only to a console
 * person (the editor's preview).
 */
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { COVER_MIME, COVER_PATH_PREFIX, coverFileOf, coverPath } from '~/content/article-cover';
import { audit } from '~/server/kit/audit';
import type { Db, Queryable, Tx } from '~/server/kit/db/client';
import { raisePublicationVersion } from '~/server/kit/publication';
import { COVER_NO_FILE, type CoverAnswer } from './article-covers-console-contract';
import { ArticleRefusal, NOT_FOUND } from './article-editing.server';
import { makeCoverFiles, type MakeCover } from './cover-images.server';
import { articleCoverFiles, articleCovers, articles } from './tables.server';

/** The result of an action: the cover as it now stands, and whether the public site changed. */
export type CoverOutcome = { answer: CoverAnswer; raised: boolean };

/** What the console shows of the article's cover (a 404 when there is no such article). */
export async function coverAnswer(db: Queryable, articleId: string): Promise<CoverAnswer> {
  const [row] = await db
    .select({ id: articles.id, cover: articleCovers })
    .from(articles)
    .leftJoin(articleCovers, eq(articleCovers.articleId, articles.id))
    .where(eq(articles.id, articleId));
  if (!row) throw new ArticleRefusal(NOT_FOUND, 404);
  const { cover } = row;
  return {
    cover: cover && {
      version: cover.version,
      alt: cover.alt,
      width: cover.width,
      height: cover.height,
      preview: coverPath(cover.version, cover.width, 'webp'),
      updatedBy: cover.updatedBy,
      updatedAt: cover.updatedAt.toISOString(),
    },
  };
}

/** The article's row locked for the transaction, with its cover's version (null: none). */
async function lockedArticle(tx: Tx, articleId: string) {
  const [row] = await tx
    .select({ status: articles.status })
    .from(articles)
    .where(eq(articles.id, articleId))
    .for('update');
  if (!row) throw new ArticleRefusal(NOT_FOUND, 404);
  const [cover] = await tx
    .select({ version: articleCovers.version })
    .from(articleCovers)
    .where(eq(articleCovers.articleId, articleId));
  return { published: row.status === 'published', cover: cover?.version ?? null };
}

/** Ends a cover action: raised when the article's page shows the cover. */
async function settle(tx: Tx, published: boolean): Promise<boolean> {
  if (published) await raisePublicationVersion(tx);
  return published;
}

/**
 * A new cover from the uploaded file (an ImageRefusal says why not), with its alt text; or, with
 * no file, a new alt text for the cover the article has.
 */
export async function saveCover(
  db: Db,
  articleId: string,
  input: { alt: string; data?: string | undefined },
  actor: string,
  now: Date,
  make: MakeCover = makeCoverFiles,
): Promise<CoverOutcome> {
  if (input.data === undefined) return describeCover(db, articleId, input.alt, actor, now);
  const upload = new Uint8Array(Buffer.from(input.data, 'base64'));
  // The files are made before the transaction: no row is held while sharp works.
  await coverAnswer(db, articleId);
  const made = await make(upload);
  const raised = await db.transaction(async (tx) => {
    const { published, cover } = await lockedArticle(tx, articleId);
    if (cover !== null) await tx.delete(articleCovers).where(eq(articleCovers.version, cover));
    const [inserted] = await tx
      .insert(articleCovers)
      .values({
        articleId,
        alt: input.alt,
        width: made.width,
        height: made.height,
        updatedBy: actor,
        updatedAt: now,
      })
      .returning({ version: articleCovers.version });
    await tx
      .insert(articleCoverFiles)
      .values(made.files.map((file) => ({ version: inserted!.version, ...file })));
    await audit(tx, actor, 'article.cover', articleId, {
      width: made.width,
      height: made.height,
      bytes: made.files.reduce((sum, file) => sum + file.bytes.length, 0),
    });
    return settle(tx, published);
  });
  return { answer: await coverAnswer(db, articleId), raised };
}

async function describeCover(
  db: Db,
  articleId: string,
  alt: string,
  actor: string,
  now: Date,
): Promise<CoverOutcome> {
  const raised = await db.transaction(async (tx) => {
    const { published, cover } = await lockedArticle(tx, articleId);
    if (cover === null) throw new ArticleRefusal(COVER_NO_FILE, 400, 'data');
    const [before] = await tx
      .select({ alt: articleCovers.alt })
      .from(articleCovers)
      .where(eq(articleCovers.version, cover));
    if (before?.alt === alt) return false;
    await tx
      .update(articleCovers)
      .set({ alt, updatedBy: actor, updatedAt: now })
      .where(eq(articleCovers.version, cover));
    await audit(tx, actor, 'article.cover-alt', articleId);
    return settle(tx, published);
  });
  return { answer: await coverAnswer(db, articleId), raised };
}

/** The article without a cover (nothing changes when it has none). */
export async function removeCover(db: Db, articleId: string, actor: string): Promise<CoverOutcome> {
  const raised = await db.transaction(async (tx) => {
    const { published, cover } = await lockedArticle(tx, articleId);
    if (cover === null) return false;
    await tx.delete(articleCovers).where(eq(articleCovers.version, cover));
    await audit(tx, actor, 'article.cover-remove', articleId);
    return settle(tx, published);
  });
  return { answer: await coverAnswer(db, articleId), raised };
}

/**
 * Serves a cover's files: `/media/cover-<version>-<width>.<avif|webp|jpg>`, with its type, never
 * sniffed, cached for a year (a new cover is a new version, so a new address). A cover of an
 * article that is not published is answered only to a console person (`signedIn`), and cached only
 * by their browser; otherwise, like an address that names no file, it is not found.
 */
export function registerArticleCovers(
  app: FastifyInstance,
  db: Queryable,
  /** Whether the request comes from someone who may read drafts (the owner). */
  mayReadDrafts: (request: FastifyRequest) => Promise<boolean>,
): void {
  app.get<{ Params: { file: string } }>(`${COVER_PATH_PREFIX}:file`, async (request, reply) => {
    const file = coverFileOf(request.params.file);
    if (!file) return reply.callNotFound();
    // The version, width and format in the query: an address that names no file reads no bytes.
    const [row] = await db
      .select({ bytes: articleCoverFiles.bytes, status: articles.status })
      .from(articleCoverFiles)
      .innerJoin(articleCovers, eq(articleCovers.version, articleCoverFiles.version))
      .innerJoin(articles, eq(articles.id, articleCovers.articleId))
      .where(
        and(
          eq(articleCoverFiles.version, file.version),
          eq(articleCoverFiles.width, file.width),
          eq(articleCoverFiles.format, file.format),
        ),
      );
    if (!row) return reply.callNotFound();
    const published = row.status === 'published';
    if (!published && !(await mayReadDrafts(request))) return reply.callNotFound();
    return reply
      .header('content-type', COVER_MIME[file.format])
      .header('cache-control', `${published ? 'public' : 'private'}, max-age=31536000, immutable`)
      .header('x-content-type-options', 'nosniff')
      .send(Buffer.from(row.bytes));
  });
}
