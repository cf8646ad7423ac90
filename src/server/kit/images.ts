/**
 * The one checker of the images the owner uploads (the founder's photo: decision 048; an article's
 * cover: decision 050). A file is checked by its own bytes before any decoder sees it: its type by
 * its magic bytes (JPEG, PNG or WebP, whatever its name or the request says), its width and height
 * from its header (PNG IHDR, JPEG SOF, WebP VP8/VP8L/VP8X), then the upload's limits
 * (src/lib/image-upload.ts). Only then does `decodeImage` hand it to a kept image library (sharp,
 * loaded by the first upload, never at start); a file whose header passed but whose image cannot
 * be decoded is refused with a sentence too.
 */
import type { Sharp, SharpOptions } from 'sharp';
import { imageRefusals, type ImageLimits, type ImageNoun, type ImageType } from '~/lib/image-upload';

export type ImageFacts = { type: ImageType; width: number; height: number };

/** Why an upload was refused, in words the owner can act on (the console answers 400 with them). */
export class ImageRefusal extends Error {
  // Its name crosses a process boundary with its message (the image process: decision 050).
  override name = 'ImageRefusal';
}

/** An ImageRefusal that came back from another process as a plain Error of that name, as it was. */
export function asImageRefusal(error: unknown): unknown {
  return error instanceof Error && !(error instanceof ImageRefusal) && error.name === 'ImageRefusal'
    ? new ImageRefusal(error.message)
    : error;
}

const be16 = (b: Uint8Array, i: number) => ((b[i] ?? 0) << 8) | (b[i + 1] ?? 0);
const be32 = (b: Uint8Array, i: number) => ((be16(b, i) << 16) | be16(b, i + 2)) >>> 0;
const le16 = (b: Uint8Array, i: number) => (b[i] ?? 0) | ((b[i + 1] ?? 0) << 8);
const le24 = (b: Uint8Array, i: number) => le16(b, i) | ((b[i + 2] ?? 0) << 16);
const ascii = (b: Uint8Array, i: number, n: number) => String.fromCharCode(...b.subarray(i, i + n));

function jpegSize(b: Uint8Array): { width: number; height: number } | null {
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1] ?? 0;
    if (marker === 0xff) {
      i += 1;
      continue;
    }
    // SOF0-SOF15 but DHT (C4), JPG (C8) and DAC (CC): the frame's height, then its width.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: be16(b, i + 5), width: be16(b, i + 7) };
    }
    if (marker === 0xd9 || marker === 0xda) return null;
    i += 2 + be16(b, i + 2);
  }
  return null;
}

/** The image's type and size, read from its bytes; null when it is none of the three. */
export function imageFacts(b: Uint8Array): ImageFacts | null {
  if (b.length > 24 && be32(b, 0) === 0x89504e47 && be32(b, 4) === 0x0d0a1a0a && ascii(b, 12, 4) === 'IHDR') {
    return { type: 'image/png', width: be32(b, 16), height: be32(b, 20) };
  }
  if (b.length > 4 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) {
    const size = jpegSize(b);
    return size ? { type: 'image/jpeg', ...size } : null;
  }
  if (b.length > 30 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 4) === 'WEBP') {
    const chunk = ascii(b, 12, 4);
    if (chunk === 'VP8 ')
      return { type: 'image/webp', width: le16(b, 26) & 0x3fff, height: le16(b, 28) & 0x3fff };
    if (chunk === 'VP8L' && b[20] === 0x2f) {
      const bits = (le16(b, 21) | (le16(b, 23) << 16)) >>> 0;
      return { type: 'image/webp', width: 1 + (bits & 0x3fff), height: 1 + ((bits >>> 14) & 0x3fff) };
    }
    if (chunk === 'VP8X') return { type: 'image/webp', width: 1 + le24(b, 24), height: 1 + le24(b, 27) };
  }
  return null;
}

/**
 * Refuses a width and height outside the limits: the header's before decoding, and again the
 * image's upright (a phone's photo may be stored on its side, with its orientation in EXIF).
 */
export function checkDimensions(width: number, height: number, limits: ImageLimits, noun: ImageNoun): void {
  if (width > limits.maxSide || height > limits.maxSide)
    throw new ImageRefusal(imageRefusals.tooLarge(noun, limits, width, height));
  if (width < limits.minWidth || height < limits.minHeight)
    throw new ImageRefusal(imageRefusals.tooSmall(noun, limits, width, height));
  if (limits.ratio && width < height * limits.ratio.min)
    throw new ImageRefusal(imageRefusals.tooTall(noun, limits, width, height));
  if (limits.ratio && width > height * limits.ratio.max)
    throw new ImageRefusal(imageRefusals.tooWide(noun, limits, width, height));
}

/** The image's facts, or a refusal in words the owner can act on; nothing is decoded. */
export function checkImage(bytes: Uint8Array, limits: ImageLimits, noun: ImageNoun): ImageFacts {
  if (bytes.length === 0) throw new ImageRefusal(imageRefusals.empty(noun));
  if (bytes.length > limits.bytes) throw new ImageRefusal(imageRefusals.tooHeavy(noun, limits));
  const facts = imageFacts(bytes);
  if (!facts) throw new ImageRefusal(imageRefusals.notImage(noun));
  checkDimensions(facts.width, facts.height, limits, noun);
  return facts;
}

/**
 * The checked file opened by sharp, for `work`. Its decoder refuses an image of more pixels than
 * the limits allow, whatever its header said; any failure to read it is refused with a sentence (an
 * ImageRefusal thrown by `work` is passed on as it is).
 */
export async function decodeImage<T>(
  bytes: Uint8Array,
  limits: ImageLimits,
  noun: ImageNoun,
  work: (image: Sharp, open: (input: Buffer, options: SharpOptions) => Sharp) => Promise<T>,
): Promise<T> {
  const { default: sharp } = await import('sharp');
  try {
    const image = sharp(bytes, { failOn: 'error', limitInputPixels: limits.maxSide * limits.maxSide });
    return await work(image, (input, options) => sharp(input, options));
  } catch (error) {
    if (error instanceof ImageRefusal) throw error;
    throw new ImageRefusal(imageRefusals.unreadable(noun));
  }
}
