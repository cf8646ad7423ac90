/**
 * The founder's photo checked by its own bytes (decision 048), with the server kit's one checker
 * of uploaded images (src/server/kit/images.ts): its type by its magic bytes, its width and height
 * from its header and the limits of the contract, all before anything is decoded. Then
 * `cleanPhoto` decodes it with a kept image library (sharp) and writes it again in its own format:
 * turned upright by its orientation, no larger than the pages need (`PHOTO_SHORT_SIDE`), and
 * without its metadata (a phone's photo carries where and when it was taken, which a public page
 * must not give away).
 */
import { checkImage, decodeImage, type ImageFacts } from '~/server/kit/images';
import { PHOTO_LIMITS } from './business-console-contract';

/**
 * The photo's shorter side as written, at most: the pages show it in a square of 160 CSS pixels
 * at the most (About; smaller beside an article's date), cropped to the square, so 480 is sharp on
 * a screen of three device pixels to the CSS pixel. A phone's 4000 x 3000 photo of 2 MB would
 * otherwise be every article page's heaviest file. Never enlarged; the shape is kept.
 */
export const PHOTO_SHORT_SIDE = 480;

/** The photo's facts, or an ImageRefusal in words the owner can act on. */
export const checkPhoto = (bytes: Uint8Array): ImageFacts => checkImage(bytes, PHOTO_LIMITS, 'photo');

/**
 * The photo written again by sharp in its own format, upright, its shorter side at most
 * `PHOTO_SHORT_SIDE`, with no metadata (EXIF with its
 * GPS position, XMP, IPTC); its size as written. A file whose header passed `checkPhoto` but whose
 * image cannot be decoded is refused with a sentence.
 */
export async function cleanPhoto(
  bytes: Uint8Array,
  facts: ImageFacts,
): Promise<{ bytes: Buffer } & ImageFacts> {
  return decodeImage(bytes, PHOTO_LIMITS, 'photo', async (photo) => {
    // `outside`: the shorter side comes down to the limit and the longer keeps the photo's shape.
    const image = photo.rotate().resize({
      width: PHOTO_SHORT_SIDE,
      height: PHOTO_SHORT_SIDE,
      fit: 'outside',
      withoutEnlargement: true,
    });
    const written =
      facts.type === 'image/png'
        ? image.png()
        : facts.type === 'image/webp'
          ? image.webp({ quality: 85 })
          : image.jpeg({ quality: 85 });
    const { data, info } = await written.toBuffer({ resolveWithObject: true });
    return { bytes: data, type: facts.type, width: info.width, height: info.height };
  });
}

/** The photo checked by its header before anything decodes it, then written again without its metadata. */
export type CleanUpload = (upload: Uint8Array) => Promise<{ bytes: Uint8Array } & ImageFacts>;
export const cleanUpload: CleanUpload = (upload) => cleanPhoto(upload, checkPhoto(upload));
