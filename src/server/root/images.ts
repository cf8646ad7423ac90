/**
 * The owner's uploaded images made in a process of their own (`image-worker.ts`, decision 050),
 * so that an upload never raises the server's own memory: the console's areas are given these in
 * place of the features' in-process functions.
 */
import type { CleanUpload } from '~/features/business/photo.server';
import type { MakeCover } from '~/features/publishing/cover-images.server';
import { asImageRefusal } from '../kit/images';
import { programBeside, workerProcess } from '../kit/worker-process';

export type ImageJob = { kind: 'cover' | 'photo'; bytes: Uint8Array };

/** How long the image process is kept after an upload, for the owner's next one. */
export const IMAGE_IDLE_MS = 30_000;

export type ImageProcess = { cover: MakeCover; photo: CleanUpload; stop(): Promise<void> };

export function imageProcess(idleMs = IMAGE_IDLE_MS): ImageProcess {
  const work = workerProcess<ImageJob, unknown>(programBeside(import.meta.url, 'image-worker'), 'image', idleMs);
  const run = async <T>(job: ImageJob): Promise<T> => {
    try {
      return (await work.run(job)) as T;
    } catch (error) {
      throw asImageRefusal(error);
    }
  };
  return {
    cover: (bytes) => run({ kind: 'cover', bytes }),
    photo: (bytes) => run({ kind: 'photo', bytes }),
    stop: () => work.stop(),
  };
}
