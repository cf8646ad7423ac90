/**
 * The images the owner uploads in the console (the founder's photo: decision 048; an article's
 * cover: decision 050), as the browser and the server agree on them: the types the site takes
 * (read on the server from the file's own bytes, src/server/kit/images.ts), the limits each upload
 * sets, and the sentence each refusal says. One checker for every upload: the console's page says
 * the same sentence before it sends a file the server would refuse.
 */
import { z } from './zod';

/** The types the site takes, read from the file's magic bytes (never from its name or the request). */
export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];

export type ImageLimits = {
  /** The file's size at most, in bytes. */
  readonly bytes: number;
  /** The longest side at most, in pixels. */
  readonly maxSide: number;
  readonly minWidth: number;
  readonly minHeight: number;
  /** The widest and the tallest shape taken (width divided by height, the image upright); none: any. */
  readonly ratio?: { readonly min: number; readonly max: number };
};

/** What the upload is called in its sentences: 'photo', 'image'. */
export type ImageNoun = 'photo' | 'image';

const an = (noun: ImageNoun) => (noun === 'image' ? 'an image' : 'a photo');
const megabytes = (bytes: number) => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
const times = (n: number) => (n === 2 ? 'twice' : `${n} times`);
const pixels = (width: number, height: number) => `${width} × ${height} pixels`;

/** The sentence of each refusal, for the server's checker and the console's own check before sending. */
export const imageRefusals = {
  empty: (noun: ImageNoun) => `The file is empty. Please choose ${an(noun)}.`,
  tooHeavy: (noun: ImageNoun, limits: ImageLimits) =>
    `The ${noun} can be at most ${megabytes(limits.bytes)}. Please choose a smaller one.`,
  notImage: (noun: ImageNoun) =>
    `That file is not a JPEG, PNG or WebP image. Please choose ${an(noun)} in one of those.`,
  tooLarge: (noun: ImageNoun, limits: ImageLimits, width: number, height: number) =>
    `The ${noun} is ${pixels(width, height)}; it can be at most ${limits.maxSide} pixels a side. Please choose a smaller one.`,
  tooSmall: (noun: ImageNoun, limits: ImageLimits, width: number, height: number) =>
    `The ${noun} is ${pixels(width, height)}; it needs at least ${
      limits.minWidth === limits.minHeight
        ? `${limits.minWidth} pixels a side`
        : pixels(limits.minWidth, limits.minHeight)
    } to look sharp.`,
  tooTall: (noun: ImageNoun, limits: ImageLimits, width: number, height: number) => {
    const min = limits.ratio?.min ?? 0;
    const need =
      min === 1
        ? 'taller than it is wide; it needs to be landscape or square'
        : min > 1
          ? `too tall; it needs to be at least ${times(min)} as wide as it is tall`
          : `too tall; it can be at most ${times(Math.round(1 / min))} as tall as it is wide`;
    return `The ${noun} is ${pixels(width, height)}, ${need}. Please crop it.`;
  },
  tooWide: (noun: ImageNoun, limits: ImageLimits, width: number, height: number) =>
    `The ${noun} is ${pixels(width, height)}, too wide; it can be at most ${times(
      limits.ratio?.max ?? 1,
    )} as wide as it is tall. Please crop it.`,
  unreadable: (noun: ImageNoun) =>
    `That ${noun} could not be read. Please choose another, or save it again as a JPEG or PNG.`,
};

/** What the limits are, in words for the form's hint: "JPEG, PNG or WebP, at most 5 MB, at least …". */
export function imageLimitsHint(limits: ImageLimits): string {
  const least =
    limits.minWidth === limits.minHeight
      ? `${limits.minWidth} pixels a side`
      : pixels(limits.minWidth, limits.minHeight);
  const shape =
    limits.ratio?.min === 1
      ? `; landscape or square, at most ${times(limits.ratio.max)} as wide as tall`
      : '';
  return `JPEG, PNG or WebP, at most ${megabytes(limits.bytes)}, at least ${least} and at most ${limits.maxSide} pixels a side${shape}`;
}

/** The upload travels as base64 in JSON: four characters for three bytes, and some room. */
export const base64Length = (bytes: number) => Math.ceil((bytes * 4) / 3) + 4096;

/**
 * The file's bytes as a request's field, base64. Its length allows the limit's bytes and some
 * room, so that a file a little over the limit is refused by the checker's sentence, not this one.
 */
export function imageData(noun: ImageNoun, limits: ImageLimits) {
  const choose = `Please choose ${an(noun)}.`;
  return z
    .string({ error: choose })
    .min(1, choose)
    .max(base64Length(limits.bytes), imageRefusals.tooHeavy(noun, limits))
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, `The ${noun} did not arrive whole. Please choose it again.`);
}

/** A chosen file's bytes as base64, as the upload's request carries them (in the browser). */
export async function fileAsBase64(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
