/**
 * An article's cover image in the owner's console (decision 050), as the browser and the server
 * (article-covers.server.ts) agree on it: the limits of an upload (checked by the one checker of
 * uploaded images, src/lib/image-upload.ts), its alt text (required with a cover), and the routes
 * that show, upload, describe and remove it.
 */
import { route } from '~/contract/route';
import { base64Length, imageData, type ImageLimits } from '~/lib/image-upload';
import { UUID_PATTERN } from '~/lib/patterns';
import { text } from '~/lib/validation';
import { z } from '~/lib/zod';

/**
 * JPEG, PNG or WebP by its magic bytes; at most 5 MB; at least 1200 × 630 pixels (what a page
 * shared on a social network shows, and sharp on a wide screen), at most 8000 a side; landscape or
 * square, at most three times as wide as tall (a cover is shown the width of the article's column).
 */
export const COVER_LIMITS = {
  bytes: 5 * 1024 * 1024,
  maxSide: 8000,
  minWidth: 1200,
  minHeight: 630,
  ratio: { min: 1, max: 3 },
} as const satisfies ImageLimits;

export const COVER_ALT_MAX = 250;

/** A save with no file, for an article that has no cover yet. */
export const COVER_NO_FILE = 'Please choose an image for the cover.';

const ALT = text({
  required: 'Please describe the image for readers who cannot see it (its alt text): a cover needs one.',
  max: COVER_ALT_MAX,
  tooLong: `The description can be at most ${COVER_ALT_MAX} characters.`,
});

/**
 * A new cover (`data`, the file's bytes as base64, with its alt text), or a new alt text for the
 * cover the article has (no `data`).
 */
export const CoverUploadSchema = z.object({
  alt: ALT,
  data: imageData('image', COVER_LIMITS).optional(),
});
export type CoverUpload = z.input<typeof CoverUploadSchema>;

/** The request's largest body: the file's base64 and its alt text (three bytes a character at most). */
export const COVER_REQUEST_BYTES = base64Length(COVER_LIMITS.bytes) + COVER_ALT_MAX * 3 + 1024;

// --- Answers --------------------------------------------------------------------------------------

/** The article's cover as the console shows it. */
export type CoverDetail = {
  version: number;
  alt: string;
  /** Its widest file's size. */
  width: number;
  height: number;
  /** A file of it for the console's own preview (WebP). */
  preview: string;
  updatedBy: string;
  updatedAt: string;
};

/** GET /api/owner/articles/:id/cover, and each action's answer: the cover as it now stands. */
export type CoverAnswer = { cover: CoverDetail | null };

// --- Routes -------------------------------------------------------------------------------------

const article = {
  params: z.object({ id: z.string().regex(UUID_PATTERN) }),
  notFound: 'There is no such article.',
} as const;

/** The articles are the owner's (decision 032); so are their covers. */
export const coverRoutes = {
  view: route<CoverAnswer>()({ method: 'GET', path: '/articles/:id/cover', ...article }),
  /**
   * A new cover (400 with the reason when the file is refused: its type by its bytes, its size, its
   * dimensions, a missing alt text), or a new alt text alone.
   */
  save: route<CoverAnswer>()({
    method: 'POST',
    path: '/articles/:id/cover',
    ...article,
    body: CoverUploadSchema,
    invalid: 'Please correct the highlighted fields.',
    bodyLimit: COVER_REQUEST_BYTES,
  }),
  remove: route<CoverAnswer>()({ method: 'POST', path: '/articles/:id/cover/remove', ...article }),
};
