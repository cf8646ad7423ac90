/**
 * The business's own details in the owner's console (./business-console-contract.ts): each save
 * written to the audit log and the publication counter raised in its own transaction
 * (./business.server.ts); after the commit `onPublished` is called, so this instance renders the
 * public pages again at once (the others see the counter move).
 */
import type { FastifyRequest } from 'fastify';
import type { ConsoleArea } from '~/server/kit/http/owner-routes';
import { Refusal } from '~/server/kit/http/request-checks';
import { ImageRefusal } from '~/server/kit/images';
import { businessRoutes, STALE_BUSINESS_SAVE } from './business-console-contract';
import {
  businessAnswer,
  removeFounderPhoto,
  saveBusiness,
  saveFounderPhoto,
  StaleBusinessSave,
} from './business.server';
import { cleanUpload, type CleanUpload } from './photo.server';

/** `clean`: checks and writes an uploaded photo again (the composition root runs it in a process of its own). */
export const businessArea =
  (onPublished: () => void = () => {}, clean: CleanUpload = cleanUpload): ConsoleArea =>
  (routes, { db }) => {
    const told = <T>(answer: T, request: FastifyRequest): T => {
      try {
        onPublished();
      } catch (error) {
        request.log.warn({ errorName: (error as Error).name }, 'the site was not told of a publication');
      }
      return answer;
    };

    routes.on(businessRoutes.view, () => businessAnswer(db));
    routes.on(businessRoutes.save, async ({ body, owner, request }) => {
      try {
        return told(await saveBusiness(db, body, owner.email), request);
      } catch (error) {
        if (error instanceof StaleBusinessSave) throw new Refusal(409, { error: STALE_BUSINESS_SAVE });
        throw error;
      }
    });
    routes.on(businessRoutes.photo, async ({ body, owner, request }) => {
      const bytes = new Uint8Array(Buffer.from(body.data, 'base64'));
      try {
        return told(await saveFounderPhoto(db, bytes, owner.email, clean), request);
      } catch (error) {
        if (error instanceof ImageRefusal) throw new Refusal(400, { error: error.message });
        throw error;
      }
    });
    routes.on(businessRoutes.removePhoto, async ({ owner, request }) =>
      told(await removeFounderPhoto(db, owner.email), request),
    );
  };
