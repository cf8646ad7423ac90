/**
 * Signed e-mail links: the owner's confirm/decline links and the applicant's cancel link.
 * A token names one booking, one action, an expiry and a random id; it is signed with a key
 * derived from APP_SECRET (HMAC-SHA256), so nobody can make or alter one without the secret.
 * Expiry is checked here; single use is enforced by the database (the id is stored when used).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const LINK_ACTIONS = ['confirm-first', 'confirm-second', 'decline', 'cancel'] as const;
export type LinkAction = (typeof LINK_ACTIONS)[number];

export type LinkPayload = {
  /** Booking id. */
  b: string;
  a: LinkAction;
  /** Expiry, Unix seconds. */
  e: number;
  /** Random token id, stored once the link is used. */
  j: string;
};

export type VerifyResult = { ok: true; payload: LinkPayload } | { ok: false; reason: 'invalid' | 'expired' };

// A key of its own, so a signature made for something else with APP_SECRET never verifies here.
function linkKey(appSecret: string): Buffer {
  return createHmac('sha256', appSecret).update('booking-links/v1').digest();
}

function sign(appSecret: string, body: string): Buffer {
  return createHmac('sha256', linkKey(appSecret)).update(body).digest();
}

export function signLink(
  appSecret: string,
  link: { bookingId: string; action: LinkAction; expiresAt: Date },
): { token: string; tokenId: string } {
  const payload: LinkPayload = {
    b: link.bookingId,
    a: link.action,
    e: Math.floor(link.expiresAt.getTime() / 1000),
    j: randomBytes(12).toString('base64url'),
  };
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return { token: `${body}.${sign(appSecret, body).toString('base64url')}`, tokenId: payload.j };
}

function isPayload(value: unknown): value is LinkPayload {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.b === 'string' &&
    v.b.length > 0 &&
    v.b.length <= 64 &&
    typeof v.a === 'string' &&
    (LINK_ACTIONS as readonly string[]).includes(v.a) &&
    typeof v.e === 'number' &&
    Number.isSafeInteger(v.e) &&
    typeof v.j === 'string' &&
    /^[A-Za-z0-9_-]{16}$/.test(v.j)
  );
}

export function verifyLink(appSecret: string, token: unknown, now: Date = new Date()): VerifyResult {
  if (typeof token !== 'string' || token.length > 512) return { ok: false, reason: 'invalid' };
  const parts = token.split('.');
  if (parts.length !== 2) return { ok: false, reason: 'invalid' };
  const [body, signature] = parts as [string, string];
  if (!/^[A-Za-z0-9_-]+$/.test(body) || !/^[A-Za-z0-9_-]{43}$/.test(signature))
    return { ok: false, reason: 'invalid' };
  const given = Buffer.from(signature, 'base64url');
  const expected = sign(appSecret, body);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { ok: false, reason: 'invalid' };
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'invalid' };
  }
  if (!isPayload(payload)) return { ok: false, reason: 'invalid' };
  if (payload.e * 1000 <= now.getTime()) return { ok: false, reason: 'expired' };
  return { ok: true, payload };
}
