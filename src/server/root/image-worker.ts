/**
 * The process that makes the owner's uploaded images (decision 050): an article's cover in its
 * sizes and formats, the founder's photo written again without its metadata. sharp's decoders,
 * encoders and their buffers (some 70 MB for a cover, measured) live here, never in the server's
 * memory; the process is started by an upload and ended a while after the last
 * (`src/server/kit/worker-process.ts`). A refusal comes back as an ImageRefusal.
 */
import { cleanUpload } from '~/features/business/photo.server';
import { makeCoverFiles } from '~/features/publishing/cover-images.server';
import { serveJobs } from '../kit/worker-process';
import type { ImageJob } from './images';

serveJobs<ImageJob, unknown>((job) => (job.kind === 'cover' ? makeCoverFiles(job.bytes) : cleanUpload(job.bytes)));
