import { describe, expect, it } from 'vitest';
import { signLink, verifyLink } from './booking-links.server';

const SECRET = 'a-test-secret-that-is-long-enough-0123456789';
const NOW = new Date('2026-03-02T12:00:00Z');
const LATER = new Date('2026-03-10T12:00:00Z');

describe('signed booking links', () => {
  it('verifies its own token and gives back what was signed', () => {
    const { token, tokenId } = signLink(SECRET, {
      bookingId: 'b-1',
      action: 'confirm-first',
      expiresAt: LATER,
    });
    const result = verifyLink(SECRET, token, NOW);
    expect(result).toEqual({
      ok: true,
      payload: { b: 'b-1', a: 'confirm-first', e: LATER.getTime() / 1000, j: tokenId },
    });
  });

  it('gives every link its own id', () => {
    const a = signLink(SECRET, { bookingId: 'b-1', action: 'cancel', expiresAt: LATER });
    const b = signLink(SECRET, { bookingId: 'b-1', action: 'cancel', expiresAt: LATER });
    expect(a.tokenId).not.toBe(b.tokenId);
  });

  it('refuses an expired token', () => {
    const { token } = signLink(SECRET, { bookingId: 'b-1', action: 'decline', expiresAt: NOW });
    expect(verifyLink(SECRET, token, NOW)).toEqual({ ok: false, reason: 'expired' });
  });

  it('refuses a token signed with another secret', () => {
    const { token } = signLink(`${SECRET}x`, { bookingId: 'b-1', action: 'decline', expiresAt: LATER });
    expect(verifyLink(SECRET, token, NOW)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('refuses a payload changed after signing (another booking, another action, a later expiry)', () => {
    const { token } = signLink(SECRET, { bookingId: 'b-1', action: 'decline', expiresAt: LATER });
    const [body, sig] = token.split('.') as [string, string];
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString()) as Record<string, unknown>;
    for (const change of [{ b: 'b-2' }, { a: 'confirm-first' }, { e: 9_999_999_999 }]) {
      const forged = Buffer.from(JSON.stringify({ ...payload, ...change })).toString('base64url');
      expect(verifyLink(SECRET, `${forged}.${sig}`, NOW)).toEqual({ ok: false, reason: 'invalid' });
    }
  });

  it.each([undefined, '', 'abc', 'a.b', 'a.b.c', `${'x'.repeat(600)}.y`, 42, { token: 'x' }])(
    'refuses garbage %j',
    (token) => {
      expect(verifyLink(SECRET, token, NOW)).toEqual({ ok: false, reason: 'invalid' });
    },
  );
});
