/**
 * Signed e-mail links: the owner's confirm/decline links (and confirm-move/keep-time when an
 * applicant asks to move), and the applicant's cancel and reschedule links. Each
 * is a signed token of the server's one kind (`~/server/kit/http/signed-tokens.ts`, purpose
 * `booking-link`): the booking id as its subject, the action as the claim `a`, an expiry and a
 * random id. Nobody can make or alter one without APP_SECRET. Expiry is checked here; single
 * use is the booking's own record (`booking_link_uses`, which also keeps which action was taken
 * and when, so a link's page can say "already used" before anything is done).
 * Links of the format sent before (decision 018, addendum) are still read until they expire.
 */
import {
  tokenIdOf,
  type SignedTokens,
  type VerifyResult as TokenResult,
} from '~/server/kit/http/signed-tokens';

export const BOOKING_LINK_PURPOSE = 'booking-link';

export const LINK_ACTIONS = [
  'confirm-first',
  'confirm-second',
  'decline',
  'cancel',
  // The applicant asks to move their confirmed session; the owner confirms the new time or keeps the current one.
  'reschedule',
  'confirm-move',
  'keep-time',
] as const;
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

export async function signLink(
  tokens: SignedTokens,
  link: { bookingId: string; action: LinkAction; expiresAt: Date },
): Promise<{ token: string; tokenId: string }> {
  const token = await tokens.sign(BOOKING_LINK_PURPOSE, link.bookingId, {
    expiresAt: link.expiresAt,
    singleUse: true,
    claims: { a: link.action },
  });
  return { token, tokenId: tokenIdOf(token) ?? '' };
}

/** What a verified token says, if it says it as a booking link must. */
function payloadOf(token: Extract<TokenResult, { subject: string }>): LinkPayload | undefined {
  const { subject, tokenId, expiresAt, claims } = token;
  const action = claims.a;
  if (subject.length === 0 || subject.length > 64) return undefined;
  if (typeof action !== 'string' || !(LINK_ACTIONS as readonly string[]).includes(action)) return undefined;
  if (!expiresAt || !tokenId || !/^[A-Za-z0-9_-]{16}$/.test(tokenId)) return undefined;
  return { b: subject, a: action as LinkAction, e: expiresAt.getTime() / 1000, j: tokenId };
}

export async function verifyLink(
  tokens: SignedTokens,
  token: unknown,
  now: Date = new Date(),
): Promise<VerifyResult> {
  let result = await tokens.verify(BOOKING_LINK_PURPOSE, token, { now });
  if (!result.ok && result.reason === 'invalid') result = tokens.verifyLegacyBookingLink(token, { now });
  if (result.ok) {
    const payload = payloadOf(result);
    return payload ? { ok: true, payload } : { ok: false, reason: 'invalid' };
  }
  return result.reason === 'expired' && payloadOf(result)
    ? { ok: false, reason: 'expired' }
    : { ok: false, reason: 'invalid' };
}
