/**
 * An article's cover image as the site serves it (decision 050): each upload is resized by the
 * server to a few widths (never wider than the image itself), each in AVIF and WebP with a JPEG
 * for the browsers that take neither, at an address that names the cover's version, so that each
 * file is cached for good. Read by the article's route (its `<picture>`, its og:image) and by the
 * server that makes and serves the files.
 */
import type { ArticleCover } from './articles';

/** The formats of each width, the smallest first; the last (JPEG) is the `<img>`'s own and the og:image. */
export const COVER_FORMATS = ['avif', 'webp', 'jpeg'] as const;
export type CoverFormat = (typeof COVER_FORMATS)[number];
export const COVER_MIME: Record<CoverFormat, string> = {
  avif: 'image/avif',
  webp: 'image/webp',
  jpeg: 'image/jpeg',
};
const EXTENSION: Record<CoverFormat, string> = { avif: 'avif', webp: 'webp', jpeg: 'jpg' };

/** The widest file made: 1600 pixels, or the image's own width when it is narrower. */
export const COVER_MAX_WIDTH = 1600;
/** The widths made of a cover: a phone's, a laptop's, a wide or dense screen's. */
export const COVER_WIDTHS = [480, 960, COVER_MAX_WIDTH] as const;

/** The widths made of a cover whose widest file is `largest` pixels wide, smallest first. */
export const coverWidths = (largest: number): number[] => [
  ...COVER_WIDTHS.filter((width) => width < largest),
  largest,
];

export const COVER_PATH_PREFIX = '/media/cover-';
/** `/media/cover-<version>-<width>.<avif|webp|jpg>` */
export const coverPath = (version: number, width: number, format: CoverFormat) =>
  `${COVER_PATH_PREFIX}${version}-${width}.${EXTENSION[format]}`;
/** The parts of a cover file's name (after the prefix), or null. */
export function coverFileOf(name: string): { version: number; width: number; format: CoverFormat } | null {
  const match = /^([1-9]\d{0,8})-([1-9]\d{0,4})\.(avif|webp|jpg)$/.exec(name);
  if (!match) return null;
  const format = COVER_FORMATS.find((f) => EXTENSION[f] === match[3])!;
  return { version: Number(match[1]), width: Number(match[2]), format };
}

/**
 * How wide the cover is shown: the article's column (max-w-3xl, less its padding), or the
 * screen's width less the padding on a phone.
 */
export const COVER_SIZES = '(min-width: 48rem) 46rem, calc(100vw - 2rem)';

/** The cover's files as a `<picture>` names them: one srcset per format, the `<img>`'s src. */
export function coverSources(cover: ArticleCover) {
  const widths = coverWidths(cover.width);
  const srcSet = (format: CoverFormat) =>
    widths.map((width) => `${coverPath(cover.version, width, format)} ${width}w`).join(', ');
  // The `<img>`'s own src, for a browser that reads no srcset: the middle width.
  const fallback = widths[Math.min(1, widths.length - 1)]!;
  return {
    avif: srcSet('avif'),
    webp: srcSet('webp'),
    jpeg: srcSet('jpeg'),
    src: coverPath(cover.version, fallback, 'jpeg'),
    /** The widest JPEG: what a page shared on a social network shows (they read no AVIF). */
    shared: coverPath(cover.version, cover.width, 'jpeg'),
  };
}
