/**
 * Short human references for bookings, e.g. BK-7F3K2Q: easy to read aloud and type from an
 * e-mail, so the alphabet leaves out 0/O, 1/I/L. 31^6 (about 887 million) values; the
 * database's unique index catches the rare collision and the caller draws again.
 */
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const LENGTH = 6;

export const REFERENCE_PATTERN = /^BK-[2-9A-HJKMNP-Z]{6}$/;

export function generateReference(
  random: (bytes: Uint8Array) => Uint8Array = (b) => crypto.getRandomValues(b),
): string {
  let out = '';
  // Rejection sampling: 248 is the largest multiple of 31 below 256, so every letter is equally likely.
  const limit = 256 - (256 % ALPHABET.length);
  while (out.length < LENGTH) {
    for (const byte of random(new Uint8Array(LENGTH * 2))) {
      if (byte < limit && out.length < LENGTH) out += ALPHABET[byte % ALPHABET.length];
    }
  }
  return `BK-${out}`;
}
