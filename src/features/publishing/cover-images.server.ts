/**
 * An article's cover made into the files the site serves (decision 050). The upload is checked by
 * the server kit's one checker of uploaded images before any decoder sees it (its type by its magic
 * bytes, its size, its dimensions: COVER_LIMITS); then sharp turns it upright, checks its shape
 * upright, flattens any transparency onto white and resizes it once to the widest file (never
 * wider than it is), and writes each width of src/content/article-cover.ts in AVIF, WebP and JPEG.
 * Nothing of the file's metadata is kept (a phone's photo carries where it was taken).
 */
import { COVER_FORMATS, COVER_MAX_WIDTH, coverWidths, type CoverFormat } from '~/content/article-cover';
import { checkDimensions, checkImage, decodeImage } from '~/server/kit/images';
import { COVER_LIMITS } from './article-covers-console-contract';

export type CoverFile = { width: number; format: CoverFormat; bytes: Uint8Array };
export type CoverFiles = { width: number; height: number; files: CoverFile[] };

/** Makes a cover's files from an upload (`makeCoverFiles`, here or in another process). */
export type MakeCover = (upload: Uint8Array) => Promise<CoverFiles>;

/**
 * The qualities: AVIF at 50 and WebP at 75 look alike and weigh little (the cover is the article
 * page's largest paint); the JPEG, for browsers that read neither and for social networks, at 75.
 * AVIF's effort 2 encodes a 1600-pixel cover in a fraction of a second (4, the default, takes
 * seconds on a small server) for files a few per cent larger.
 */
const ENCODE = {
  avif: { quality: 50, effort: 2 },
  webp: { quality: 75 },
  jpeg: { quality: 75, mozjpeg: true },
} as const;

/** The cover's files, widest last; an ImageRefusal says why a file is refused. */
export async function makeCoverFiles(upload: Uint8Array): Promise<CoverFiles> {
  const facts = checkImage(upload, COVER_LIMITS, 'image');
  return decodeImage(upload, COVER_LIMITS, 'image', async (image, open) => {
    // Orientations 5 to 8 turn the image a quarter: its upright width is the header's height.
    const { orientation = 1 } = await image.metadata();
    const upright = orientation >= 5 ? { width: facts.height, height: facts.width } : facts;
    checkDimensions(upright.width, upright.height, COVER_LIMITS, 'image');
    const { data, info } = await image
      .rotate()
      .resize({ width: Math.min(upright.width, COVER_MAX_WIDTH), withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const raw = { width: info.width, height: info.height, channels: info.channels };
    const files: CoverFile[] = [];
    for (const width of coverWidths(info.width)) {
      for (const format of COVER_FORMATS) {
        const resized = open(data, { raw }).resize({ width });
        const encoded =
          format === 'avif'
            ? resized.avif(ENCODE.avif)
            : format === 'webp'
              ? resized.webp(ENCODE.webp)
              : resized.jpeg(ENCODE.jpeg);
        files.push({ width, format, bytes: await encoded.toBuffer() });
      }
    }
    return { width: info.width, height: info.height, files };
  });
}
