/**
 * The articles in the owner's console (./articles-console-contract.ts) and their cover images
 * (./article-covers-console-contract.ts): the routes, each owner action written to the audit log
 * in its own transaction (./article-editing.server.ts, ./article-covers.server.ts). After the
 * commit of an action that changed what the public site shows (the publication counter raised),
 * `onPublished` is called: the composition root hands in what renders the site's pages again.
 */
import type { FastifyRequest } from 'fastify';
import type { ConsoleArea } from '~/server/kit/http/owner-routes';
import { Refusal } from '~/server/kit/http/request-checks';
import { ImageRefusal } from '~/server/kit/images';
import { coverRoutes } from './article-covers-console-contract';
import { coverAnswer, removeCover, saveCover, type CoverOutcome } from './article-covers.server';
import { makeCoverFiles, type MakeCover } from './cover-images.server';
import {
  articleDetail,
  ArticleRefusal,
  createArticle,
  listArticles,
  listRevisions,
  previewArticle,
  publishArticle,
  restoreRevision,
  revisionDetail,
  saveArticle,
  scheduleArticle,
  unpublishArticle,
  unscheduleArticle,
  type Outcome,
} from './article-editing.server';
import { articleRoutes } from './articles-console-contract';

/**
 * An article's refusal as the console's answer (with the field it is about, for the form); a cover's
 * file refused by its bytes, with the sentence of why, by the file's field.
 */
async function answering<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof ImageRefusal) {
      throw new Refusal(400, { error: error.message, fieldErrors: { data: error.message } });
    }
    if (error instanceof ArticleRefusal) {
      throw new Refusal(error.status, {
        error: error.message,
        ...(error.field ? { fieldErrors: { [error.field]: error.message } } : {}),
      });
    }
    throw error;
  }
}

/**
 * `onPublished`: called after the commit of every action that raised the publication counter;
 * `makeCover`: makes a cover's files (the composition root runs it in a process of its own).
 */
export const articlesArea =
  (onPublished: () => void = () => {}, makeCover: MakeCover = makeCoverFiles): ConsoleArea =>
  (routes, { db, clock }) => {
    /**
     * The article as it now stands; the site is told after the commit when it changed. What the
     * site does with it is its own affair: a failure there is logged, and the action (committed)
     * still answers. Every instance sees the counter move anyway.
     */
    const told = (raised: boolean, request: FastifyRequest) => {
      if (!raised) return;
      try {
        onPublished();
      } catch (error) {
        request.log.warn({ errorName: (error as Error).name }, 'the site was not told of a publication');
      }
    };
    const settled = async (work: Promise<Outcome>, request: FastifyRequest) => {
      const { detail, raised } = await answering(work);
      told(raised, request);
      return detail;
    };
    const covered = async (work: Promise<CoverOutcome>, request: FastifyRequest) => {
      const { answer, raised } = await answering(work);
      told(raised, request);
      return answer;
    };

    routes.on(articleRoutes.list, async () => ({ items: await listArticles(db, clock()) }));
    routes.on(articleRoutes.create, ({ body, owner }) =>
      answering(createArticle(db, body, owner.email, clock())),
    );
    routes.on(articleRoutes.preview, async ({ body }) => previewArticle(body.body));
    routes.on(articleRoutes.detail, ({ params }) => answering(articleDetail(db, params.id, clock())));
    routes.on(articleRoutes.save, ({ params, body, owner, request }) =>
      settled(saveArticle(db, params.id, body, owner.email, clock()), request),
    );
    routes.on(articleRoutes.publish, ({ params, body, owner, request }) =>
      settled(publishArticle(db, params.id, body.version, owner.email, clock()), request),
    );
    routes.on(articleRoutes.schedule, ({ params, body, owner, request }) =>
      settled(scheduleArticle(db, params.id, body.at, body.version, owner.email, clock()), request),
    );
    routes.on(articleRoutes.unschedule, ({ params, owner, request }) =>
      settled(unscheduleArticle(db, params.id, owner.email, clock()), request),
    );
    routes.on(articleRoutes.unpublish, ({ params, owner, request }) =>
      settled(unpublishArticle(db, params.id, owner.email, clock()), request),
    );
    routes.on(articleRoutes.revisions, async ({ params }) => ({
      items: await answering(listRevisions(db, params.id)),
    }));
    routes.on(articleRoutes.revision, ({ params }) =>
      answering(revisionDetail(db, params.id, params.revisionId)),
    );
    routes.on(articleRoutes.restore, ({ params, body, owner, request }) =>
      settled(restoreRevision(db, params.id, params.revisionId, body.version, owner.email, clock()), request),
    );
    // The cover (decision 050): not part of the article's saves, so it names no version.
    routes.on(coverRoutes.view, ({ params }) => answering(coverAnswer(db, params.id)));
    routes.on(coverRoutes.save, ({ params, body, owner, request }) =>
      covered(saveCover(db, params.id, body, owner.email, clock(), makeCover), request),
    );
    routes.on(coverRoutes.remove, ({ params, owner, request }) =>
      covered(removeCover(db, params.id, owner.email), request),
    );
  };
