/**
 * Serves the founder's photo (decision 048): `/media/founder-<version>.<ext>`, with the type read
 * from its bytes when it was uploaded, cached for a year (a new upload has a new address), never
 * sniffed. An old version's address, or none stored, is not found.
 */
import type { FastifyInstance } from 'fastify';
import type { Queryable } from '~/server/kit/db/client';
import { PHOTO_PATH_PREFIX } from './business-console-contract';
import { founderPhoto } from './business.server';

export function registerFounderPhoto(app: FastifyInstance, db: Queryable): void {
  app.get<{ Params: { file: string } }>(`${PHOTO_PATH_PREFIX}:file`, async (request, reply) => {
    const match = /^(\d{1,9})\.(jpg|png|webp)$/.exec(request.params.file);
    const photo = match ? await founderPhoto(db, Number(match[1])) : null;
    if (!photo) return reply.callNotFound();
    return reply
      .header('content-type', photo.type)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .send(Buffer.from(photo.bytes));
  });
}
