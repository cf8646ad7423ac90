/**
 * The founder's photo checked by its own bytes (decision 048): its type by its magic bytes (JPEG,
 * PNG or WebP, whatever the file's name or the request says), its width and height from its
 * header, and the limits of the contract, all before anything is decoded. Then `cleanPhoto`
 * decodes it with a kept image library (sharp, loaded by the first upload) and writes it again in
 * its own format: turned upright by its orientation, and without its metadata (a phone's photo
 * carries where and when it was taken, which a public page must not give away).
 */
import { PHOTO_LIMITS, type PhotoType } from './business-console-contract';

export type PhotoFacts = { type: PhotoType; width: number; height: number };

export class PhotoRefusal extends Error {}

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

/** The photo's type and size, read from its bytes; null when it is none of the three. */
export function photoFacts(b: Uint8Array): PhotoFacts | null {
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

/** The photo's facts, or a refusal in words the owner can act on. */
export function checkPhoto(bytes: Uint8Array): PhotoFacts {
  if (bytes.length === 0) throw new PhotoRefusal('The file is empty. Please choose a photo.');
  if (bytes.length > PHOTO_LIMITS.bytes)
    throw new PhotoRefusal('The photo can be at most 2 MB. Please choose a smaller one.');
  const facts = photoFacts(bytes);
  if (!facts)
    throw new PhotoRefusal(
      'That file is not a JPEG, PNG or WebP image. Please choose a photo in one of those.',
    );
  const { width, height } = facts;
  if (width > PHOTO_LIMITS.maxSide || height > PHOTO_LIMITS.maxSide) {
    throw new PhotoRefusal(
      `The photo is ${width} × ${height} pixels; it can be at most ${PHOTO_LIMITS.maxSide} pixels a side. Please choose a smaller one.`,
    );
  }
  if (width < PHOTO_LIMITS.minSide || height < PHOTO_LIMITS.minSide) {
    throw new PhotoRefusal(
      `The photo is ${width} × ${height} pixels; it needs at least ${PHOTO_LIMITS.minSide} pixels a side to look sharp.`,
    );
  }
  return facts;
}

/**
 * The photo written again by sharp in its own format, upright, with no metadata (EXIF with its
 * GPS position, XMP, IPTC); its size as written. A file whose header passed `checkPhoto` but whose
 * image cannot be decoded is refused with a sentence.
 */
export async function cleanPhoto(bytes: Uint8Array, facts: PhotoFacts): Promise<{ bytes: Buffer } & PhotoFacts> {
  const { default: sharp } = await import('sharp');
  try {
    const image = sharp(bytes, { failOn: 'error' }).rotate();
    const written =
      facts.type === 'image/png'
        ? image.png()
        : facts.type === 'image/webp'
          ? image.webp({ quality: 85 })
          : image.jpeg({ quality: 85 });
    const { data, info } = await written.toBuffer({ resolveWithObject: true });
    return { bytes: data, type: facts.type, width: info.width, height: info.height };
  } catch {
    throw new PhotoRefusal(
      'That photo could not be read. Please choose another, or save it again as a JPEG or PNG.',
    );
  }
}
