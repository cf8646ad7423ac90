import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSignedTokens } from '~/server/kit/http/signed-tokens';
import { signLink, verifyLink, type LinkAction } from './booking-links.server';

const SECRET = 'a-test-secret-that-is-long-enough-0123456789';
const NOW = new Date('2026-03-02T12:00:00Z');
const LATER = new Date('2026-03-10T12:00:00Z');
const tokens = createSignedTokens(SECRET);

/** A link as booking e-mails carried them before they were signed tokens (`<JSON>.<HMAC>`). */
function signOldFormatLink(secret: string, link: { bookingId: string; action: LinkAction; expiresAt: Date }) {
  const payload = {
    b: link.bookingId,
    a: link.action,
    e: Math.floor(link.expiresAt.getTime() / 1000),
    j: randomBytes(12).toString('base64url'),
  };
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  const key = createHmac('sha256', secret).update('booking-links/v1').digest();
  const signature = createHmac('sha256', key).update(body).digest('base64url');
  return { token: `${body}.${signature}`, tokenId: payload.j };
}

describe('signed booking links', () => {
  it('verifies its own token and gives back what was signed', async () => {
    const { token, tokenId } = await signLink(tokens, {
      bookingId: 'b-1',
      action: 'confirm-first',
      expiresAt: LATER,
    });
    const result = await verifyLink(tokens, token, NOW);
    expect(result).toEqual({
      ok: true,
      payload: { b: 'b-1', a: 'confirm-first', e: LATER.getTime() / 1000, j: tokenId },
    });
  });

  it('gives every link its own id', async () => {
    const a = await signLink(tokens, { bookingId: 'b-1', action: 'cancel', expiresAt: LATER });
    const b = await signLink(tokens, { bookingId: 'b-1', action: 'cancel', expiresAt: LATER });
    expect(a.tokenId).not.toBe(b.tokenId);
  });

  it('refuses an expired token', async () => {
    const { token } = await signLink(tokens, { bookingId: 'b-1', action: 'decline', expiresAt: NOW });
    expect(await verifyLink(tokens, token, NOW)).toEqual({ ok: false, reason: 'expired' });
  });

  it('refuses a token signed with another secret', async () => {
    const { token } = await signLink(createSignedTokens(`${SECRET}x`), {
      bookingId: 'b-1',
      action: 'decline',
      expiresAt: LATER,
    });
    expect(await verifyLink(tokens, token, NOW)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('refuses a payload changed after signing (another booking, another action, a later expiry)', async () => {
    const { token } = await signLink(tokens, { bookingId: 'b-1', action: 'decline', expiresAt: LATER });
    const [header, body, sig] = token.split('.') as [string, string, string];
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString()) as Record<string, unknown>;
    for (const change of [{ sub: 'b-2' }, { a: 'confirm-first' }, { exp: 9_999_999_999 }]) {
      const forged = Buffer.from(JSON.stringify({ ...payload, ...change })).toString('base64url');
      expect(await verifyLink(tokens, `${header}.${forged}.${sig}`, NOW)).toEqual({
        ok: false,
        reason: 'invalid',
      });
    }
  });

  it('refuses a token of another purpose, even with the same claims', async () => {
    const token = await tokens.sign('newsletter-confirm', 'b-1', {
      expiresAt: LATER,
      singleUse: true,
      claims: { a: 'decline' },
    });
    expect(await verifyLink(tokens, token, NOW)).toEqual({ ok: false, reason: 'invalid' });
  });

  it.each([undefined, '', 'abc', 'a.b', 'a.b.c', `${'x'.repeat(600)}.y`, 42, { token: 'x' }])(
    'refuses garbage %j',
    async (token) => {
      expect(await verifyLink(tokens, token, NOW)).toEqual({ ok: false, reason: 'invalid' });
    },
  );

  describe('links of the format sent before', () => {
    it('still verifies one until it expires, giving back what was signed', async () => {
      const { token, tokenId } = signOldFormatLink(SECRET, {
        bookingId: 'b-1',
        action: 'confirm-second',
        expiresAt: LATER,
      });
      expect(await verifyLink(tokens, token, NOW)).toEqual({
        ok: true,
        payload: { b: 'b-1', a: 'confirm-second', e: LATER.getTime() / 1000, j: tokenId },
      });
      expect(await verifyLink(tokens, token, LATER)).toEqual({ ok: false, reason: 'expired' });
    });

    it('refuses one signed with another secret or changed after signing', async () => {
      const { token } = signOldFormatLink(`${SECRET}x`, {
        bookingId: 'b-1',
        action: 'cancel',
        expiresAt: LATER,
      });
      expect(await verifyLink(tokens, token, NOW)).toEqual({ ok: false, reason: 'invalid' });
      const genuine = signOldFormatLink(SECRET, {
        bookingId: 'b-1',
        action: 'cancel',
        expiresAt: LATER,
      }).token;
      const [body, sig] = genuine.split('.') as [string, string];
      const payload = JSON.parse(Buffer.from(body, 'base64url').toString()) as Record<string, unknown>;
      for (const change of [{ b: 'b-2' }, { a: 'confirm-first' }, { e: 9_999_999_999 }, { a: 'delete' }]) {
        const forged = Buffer.from(JSON.stringify({ ...payload, ...change })).toString('base64url');
        expect(await verifyLink(tokens, `${forged}.${sig}`, NOW)).toEqual({ ok: false, reason: 'invalid' });
      }
    });
  });
});
