/**
 * Signed tokens: the one way the server proves that a link or a form token came from it
 * (decision 018). Each is a compact JWT (HS256, signed by `jose`) with
 * - a purpose (`aud`): a token made for one purpose never verifies for another;
 * - a subject (`sub`): what it names (a subscriber id, a form type);
 * - an expiry (`exp`) unless it must stay valid for good (RFC 8058 unsubscribe links);
 * - a random id (`jti`) when it is single use: `consume` records it in `used_tokens`, and a
 *   second use finds it there.
 * The key is derived from APP_SECRET for tokens only, so no other HMAC made with the secret
 * (hashed addresses, Message-IDs) can ever pass for a token.
 *
 * Two narrow readers of formats made before these tokens remain, each for the links of that
 * format still out in e-mails: `verifyLegacy` (newsletter unsubscribe, for good) and
 * `verifyLegacyBookingLink` (booking links, until the last one expires).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { decodeJwt, errors, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import type { Queryable } from '../db/client';
import { usedTokens } from '../db/schema';

export type SignOptions = {
  /**
   * Lifetime in seconds; omitted (and no `expiresAt`), the token never expires (use only where
   * a standard says so).
   */
  expiresInSeconds?: number;
  /** An expiry at a given moment (the end of a session's day) instead of a lifetime. */
  expiresAt?: Date;
  /** Gives the token a random id that `consume` can record, so it works once. */
  singleUse?: boolean;
  /** Further claims of the token's own (short names, no personal data: a token travels in URLs). */
  claims?: Record<string, string | number>;
  /** The issue time (tests and renewals); now by default. */
  now?: Date;
};

export type VerifiedToken = {
  subject: string;
  /** Present on single-use tokens. */
  tokenId?: string;
  /** Absent on a booking link of the old format (it carried no issue time). */
  issuedAt?: Date;
  expiresAt?: Date;
  claims: Record<string, unknown>;
};

export type VerifyResult =
  | ({ ok: true } & VerifiedToken)
  | { ok: false; reason: 'invalid' }
  /** Authentic but past its expiry: the claims are given so a caller may renew it. */
  | ({ ok: false; reason: 'expired' } & VerifiedToken);

export type SignedTokens = {
  sign(purpose: string, subject: string, options?: SignOptions): Promise<string>;
  verify(purpose: string, token: unknown, options?: { now?: Date }): Promise<VerifyResult>;
  /**
   * Records a single-use token as used, in the caller's transaction. True the first time,
   * false on every later try (and for a token with no id).
   */
  consume(db: Queryable, purpose: string, token: VerifiedToken): Promise<boolean>;
  /**
   * Links signed before these tokens existed (`<id>.<HMAC(secret, purpose:id)>`). Only the
   * newsletter's unsubscribe links still accept them: those must keep working for good.
   */
  verifyLegacy(purpose: string, token: unknown): string | undefined;
  /**
   * Booking links signed before they moved onto these tokens (decision 018, addendum):
   * `<base64url JSON {b, a, e, j}>.<HMAC-SHA256>` under a key of their own. Read as a token of
   * purpose `booking-link`: the booking id is the subject, `j` the token id, `e` the expiry and
   * the action the claim `a`. Every such link expires by the end of the last day its booking
   * could take place (at most a year after it was made; the owner's within 14 days), so this
   * can go once no booking made before the change has a choice date still to come.
   */
  verifyLegacyBookingLink(token: unknown, options?: { now?: Date }): VerifyResult;
};

/** Longest token accepted: far above any we make, far below anything costly to check. */
export const MAX_TOKEN_LENGTH = 1024;
/**
 * A 32-byte HMAC is 43 base64url characters, the last carrying 2 unused bits. Decoders ignore
 * them, so 4 spellings would pass for each signature; only the canonical one (those bits zero)
 * is accepted: a token has exactly one spelling, and changing its last character forges nothing.
 */
const SIGNATURE = '[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]';
const TOKEN_SHAPE = new RegExp(`^[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.${SIGNATURE}$`);
const REGISTERED = new Set(['aud', 'sub', 'iat', 'exp', 'jti', 'nbf', 'iss']);
const LEGACY_BOOKING_LINK = new RegExp(`^([A-Za-z0-9_-]{1,400})\\.(${SIGNATURE})$`);

function verified(payload: JWTPayload): VerifiedToken | undefined {
  if (typeof payload.sub !== 'string' || typeof payload.iat !== 'number') return undefined;
  const claims = Object.fromEntries(Object.entries(payload).filter(([k]) => !REGISTERED.has(k)));
  return {
    subject: payload.sub,
    tokenId: typeof payload.jti === 'string' ? payload.jti : undefined,
    issuedAt: new Date(payload.iat * 1000),
    expiresAt: typeof payload.exp === 'number' ? new Date(payload.exp * 1000) : undefined,
    claims,
  };
}

/** The id of a single-use token this server has just signed (read, not verified). */
export function tokenIdOf(token: string): string | undefined {
  const { jti } = decodeJwt(token);
  return typeof jti === 'string' ? jti : undefined;
}

export function createSignedTokens(secret: string): SignedTokens {
  const key = createHmac('sha256', secret).update('signed-tokens/v2').digest();
  const legacyMac = (purpose: string, id: string) =>
    createHmac('sha256', secret).update(`${purpose}:${id}`).digest('base64url');
  const legacyBookingKey = createHmac('sha256', secret).update('booking-links/v1').digest();

  return {
    async sign(purpose, subject, options = {}) {
      const iat = Math.floor((options.now ?? new Date()).getTime() / 1000);
      const exp =
        options.expiresAt !== undefined
          ? Math.floor(options.expiresAt.getTime() / 1000)
          : options.expiresInSeconds !== undefined
            ? iat + options.expiresInSeconds
            : undefined;
      const jwt = new SignJWT({ ...options.claims })
        .setProtectedHeader({ alg: 'HS256' })
        .setAudience(purpose)
        .setSubject(subject)
        .setIssuedAt(iat);
      if (exp !== undefined) jwt.setExpirationTime(exp);
      if (options.singleUse) jwt.setJti(randomBytes(12).toString('base64url'));
      return jwt.sign(key);
    },

    async verify(purpose, token, options = {}) {
      if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH || !TOKEN_SHAPE.test(token)) {
        return { ok: false, reason: 'invalid' };
      }
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: ['HS256'],
          audience: purpose,
          currentDate: options.now,
        });
        const result = verified(payload);
        return result ? { ok: true, ...result } : { ok: false, reason: 'invalid' };
      } catch (error) {
        // jose checks the signature before any claim: an expired token's payload is authentic.
        if (error instanceof errors.JWTExpired) {
          const result = verified(error.payload);
          if (result && error.payload.aud === purpose) return { ok: false, reason: 'expired', ...result };
        }
        return { ok: false, reason: 'invalid' };
      }
    },

    async consume(db, purpose, token) {
      if (!token.tokenId) return false;
      // A token with no expiry is remembered for a year: longer than any link is kept in use.
      const expiresAt = token.expiresAt ?? new Date(Date.now() + 365 * 24 * 3600 * 1000);
      const inserted = await db
        .insert(usedTokens)
        .values({ tokenId: token.tokenId, purpose, expiresAt })
        .onConflictDoNothing()
        .returning({ tokenId: usedTokens.tokenId });
      return inserted.length > 0;
    },

    verifyLegacy(purpose, token) {
      if (typeof token !== 'string' || token.length > 200) return undefined;
      const dot = token.lastIndexOf('.');
      if (dot <= 0) return undefined;
      const id = token.slice(0, dot);
      const expected = Buffer.from(legacyMac(purpose, id));
      const given = Buffer.from(token.slice(dot + 1));
      return given.length === expected.length && timingSafeEqual(given, expected) ? id : undefined;
    },

    verifyLegacyBookingLink(token, options = {}) {
      const match = typeof token === 'string' ? LEGACY_BOOKING_LINK.exec(token) : null;
      if (!match) return { ok: false, reason: 'invalid' };
      const [, body, signature] = match as unknown as [string, string, string];
      const given = Buffer.from(signature, 'base64url');
      const expected = createHmac('sha256', legacyBookingKey).update(body).digest();
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        return { ok: false, reason: 'invalid' };
      }
      let payload: Record<string, unknown>;
      try {
        payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<string, unknown>;
      } catch {
        return { ok: false, reason: 'invalid' };
      }
      const { b, a, e, j } = payload ?? {};
      if (typeof b !== 'string' || typeof a !== 'string' || typeof j !== 'string')
        return { ok: false, reason: 'invalid' };
      if (typeof e !== 'number' || !Number.isSafeInteger(e)) return { ok: false, reason: 'invalid' };
      const read: VerifiedToken = { subject: b, tokenId: j, expiresAt: new Date(e * 1000), claims: { a } };
      const now = options.now ?? new Date();
      return e * 1000 <= now.getTime() ? { ok: false, reason: 'expired', ...read } : { ok: true, ...read };
    },
  };
}
