/**
 * The VERP envelope sender of a visitor e-mail (decision 045): `bounce+<row id>-<tag>@<bounce
 * domain>`, the tag a keyed hash of the row id and its recipient. Whatever a relay sends back to
 * that address names the outbox row it is about, nobody without APP_SECRET can make such an address
 * for a row of their choosing, and an address made for one recipient never names another's row
 * (a database started afresh under the same secret numbers its rows from 1 again). The signed tokens of e-mail links (../http/signed-tokens.ts) are too long for a
 * local part, which may hold 64 characters: this one holds at most 40.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The local part's fixed start; the row id and the tag follow. */
const LOCAL_PREFIX = 'bounce+';
/** Characters of the tag: 16 of base32, 80 bits of the HMAC. */
export const VERP_TAG_LENGTH = 16;
/** RFC 4648 base32, lower-cased: a relay that changes the case of a local part changes nothing. */
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
/** The row id: digits with no leading zero, within what a JavaScript number holds exactly. */
const VERP_LOCAL = new RegExp(`^bounce\\+([1-9][0-9]{0,15})-([a-z2-7]{${VERP_TAG_LENGTH}})$`);

function base32(bytes: Buffer, length: number): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5 && out.length < length) {
      out += BASE32.charAt((value >>> (bits - 5)) & 31);
      bits -= 5;
    }
    value &= (1 << bits) - 1;
    if (out.length === length) break;
  }
  return out;
}

/**
 * The tag of a row: HMAC-SHA256 of its id and its recipient (lower-cased) under APP_SECRET, with a
 * purpose of its own (a Message-ID tag or a suppression hash of the same secret never matches it),
 * truncated.
 */
function verpTag(secret: string, rowId: number, recipient: string): string {
  const digest = createHmac('sha256', secret)
    .update(`verp:${rowId}:${recipient.trim().toLowerCase()}`)
    .digest();
  return base32(digest, VERP_TAG_LENGTH);
}

/**
 * The envelope sender (SMTP MAIL FROM, the Return-Path) of an outbox row's e-mail: what a relay
 * sends a bounce to. At most 7 + 16 + 1 + 16 = 40 characters before the `@`: a local part may hold
 * 64.
 */
export function verpSender(secret: string, domain: string, rowId: number, recipient: string): string {
  return `${LOCAL_PREFIX}${rowId}-${verpTag(secret, rowId, recipient)}@${domain.toLowerCase()}`;
}

/**
 * The row id and tag of a well-formed VERP address of `domain` (any case), before the tag is
 * checked against the row's recipient (`verpMatches`); otherwise undefined.
 */
export function parseVerp(domain: string, address: string): { rowId: number; tag: string } | undefined {
  const at = address.lastIndexOf('@');
  if (at < 1) return undefined;
  const local = address.slice(0, at).toLowerCase();
  if (address.slice(at + 1).toLowerCase() !== domain.toLowerCase()) return undefined;
  const match = VERP_LOCAL.exec(local);
  if (!match) return undefined;
  const rowId = Number(match[1]);
  if (!Number.isSafeInteger(rowId)) return undefined;
  return { rowId, tag: match[2]! };
}

/** Whether `tag` is the one of row `rowId` sent to `recipient` (compared in constant time). */
export function verpMatches(secret: string, rowId: number, recipient: string, tag: string): boolean {
  const expected = Buffer.from(verpTag(secret, rowId, recipient));
  const given = Buffer.from(tag);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * The outbox row an address names, when it is a well-formed VERP address of `domain` whose tag is
 * the one of that row sent to `recipient`; otherwise undefined.
 */
export function verpRowId(
  secret: string,
  domain: string,
  address: string,
  recipient: string,
): number | undefined {
  const parsed = parseVerp(domain, address);
  return parsed && verpMatches(secret, parsed.rowId, recipient, parsed.tag) ? parsed.rowId : undefined;
}

// --- The mailto of List-Unsubscribe --------------------------------------------------------------

/** The local part of an unsubscribe address: `unsubscribe+<subject>-<tag>`, at most 12 + 32 + 1 + 16 = 61. */
const UNSUBSCRIBE_LOCAL = new RegExp(`^unsubscribe\\+([0-9a-f]{32})-([a-z2-7]{${VERP_TAG_LENGTH}})$`);

function unsubscribeTag(secret: string, subject: string): string {
  return base32(createHmac('sha256', secret).update(`unsubscribe:${subject}`).digest(), VERP_TAG_LENGTH);
}

/**
 * The mailto address of a reader's List-Unsubscribe header (RFC 2369; decision 046), at the bounce
 * domain, whose listener unsubscribes the reader when any message reaches it: `subject` is the
 * reader's id as 32 hexadecimal digits (a UUID without its hyphens), signed like a VERP address.
 */
export function unsubscribeAddress(secret: string, domain: string, subject: string): string {
  return `unsubscribe+${subject}-${unsubscribeTag(secret, subject)}@${domain.toLowerCase()}`;
}

/** The subject an unsubscribe address of `domain` names, when its tag verifies; otherwise undefined. */
export function unsubscribeSubject(secret: string, domain: string, address: string): string | undefined {
  const at = address.lastIndexOf('@');
  if (at < 1 || address.slice(at + 1).toLowerCase() !== domain.toLowerCase()) return undefined;
  const match = UNSUBSCRIBE_LOCAL.exec(address.slice(0, at).toLowerCase());
  if (!match) return undefined;
  const expected = Buffer.from(unsubscribeTag(secret, match[1]!));
  const given = Buffer.from(match[2]!);
  return given.length === expected.length && timingSafeEqual(given, expected) ? match[1] : undefined;
}
