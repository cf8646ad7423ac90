import { describe, expect, it } from 'vitest';
import { createSignedTokens } from './signed-tokens';

const tokens = createSignedTokens('s'.repeat(32));
const other = createSignedTokens('t'.repeat(32));

function tamper(token: string): string {
  const last = token.at(-2) === 'A' ? 'B' : 'A';
  return token.slice(0, -2) + last + token.at(-1);
}

describe('signed tokens', () => {
  it('verifies a token for its own purpose only', async () => {
    const token = await tokens.sign('confirm', 'abc');
    expect(await tokens.verify('confirm', token)).toMatchObject({ ok: true, subject: 'abc' });
    expect(await tokens.verify('unsubscribe', token)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('refuses a tampered token, another key, and anything that is not a token', async () => {
    const token = await tokens.sign('confirm', 'abc');
    expect(await tokens.verify('confirm', tamper(token))).toEqual({ ok: false, reason: 'invalid' });
    expect(await other.verify('confirm', token)).toEqual({ ok: false, reason: 'invalid' });
    for (const bad of ['abc', 42, undefined, '', 'a.b.c', `${token}x`.repeat(40)]) {
      expect(await tokens.verify('confirm', bad)).toEqual({ ok: false, reason: 'invalid' });
    }
    // An unsigned token ("alg": "none") with the same claims.
    const [, body] = token.split('.');
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${body}.`;
    expect(await tokens.verify('confirm', none)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('accepts only the canonical spelling of a signature', async () => {
    // The last of 43 characters holds 2 unused bits: each of its 3 other spellings decodes to
    // the same bytes, and must still be refused.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const token = await tokens.sign('confirm', 'abc');
    const legacy = Buffer.from('{"b":"x","a":"confirm","e":9999999999,"j":"y"}').toString('base64url');
    const last = alphabet.indexOf(token.at(-1)!);
    expect(last % 4).toBe(0);
    for (const spare of [1, 2, 3]) {
      const respelt = token.slice(0, -1) + alphabet[last + spare];
      expect(Buffer.from(respelt.split('.')[2]!, 'base64url')).toEqual(
        Buffer.from(token.split('.')[2]!, 'base64url'),
      );
      expect(await tokens.verify('confirm', respelt)).toEqual({ ok: false, reason: 'invalid' });
    }
    expect(tokens.verifyLegacyBookingLink(`${legacy}.${'A'.repeat(42)}B`)).toEqual({
      ok: false,
      reason: 'invalid',
    });
  });

  it('expires, and still names what an expired token was made for', async () => {
    const issued = new Date('2026-01-01T12:00:00Z');
    const token = await tokens.sign('form-start', 'contact', {
      expiresInSeconds: 60,
      claims: { st: 123 },
      now: issued,
    });
    const before = await tokens.verify('form-start', token, { now: new Date('2026-01-01T12:00:59Z') });
    expect(before).toMatchObject({ ok: true, subject: 'contact', claims: { st: 123 } });
    const after = await tokens.verify('form-start', token, { now: new Date('2026-01-01T12:01:01Z') });
    expect(after).toMatchObject({ ok: false, reason: 'expired', subject: 'contact', claims: { st: 123 } });
    // An expired token of another purpose is simply invalid.
    expect(await tokens.verify('confirm', token, { now: new Date('2026-01-01T12:01:01Z') })).toEqual({
      ok: false,
      reason: 'invalid',
    });
  });

  it('gives a single-use token a random id', async () => {
    const one = await tokens.verify('x', await tokens.sign('x', 'x', { singleUse: true }));
    const two = await tokens.verify('x', await tokens.sign('x', 'x', { singleUse: true }));
    expect(one).toMatchObject({ ok: true, tokenId: expect.stringMatching(/^[A-Za-z0-9_-]{16}$/) });
    expect(two).toMatchObject({ ok: true, tokenId: expect.stringMatching(/^[A-Za-z0-9_-]{16}$/) });
    expect(one.ok && two.ok && one.tokenId !== two.tokenId).toBe(true);
    const plain = await tokens.verify('x', await tokens.sign('x', 'x'));
    expect(plain).toMatchObject({ ok: true, tokenId: undefined });
  });

  it('expires at a given moment when asked', async () => {
    const expiresAt = new Date('2026-01-02T00:00:00Z');
    const token = await tokens.sign('x', 'y', { expiresAt, now: new Date('2026-01-01T00:00:00Z') });
    expect(await tokens.verify('x', token, { now: new Date('2026-01-01T23:59:59Z') })).toMatchObject({
      ok: true,
      expiresAt,
    });
    expect(await tokens.verify('x', token, { now: expiresAt })).toMatchObject({
      ok: false,
      reason: 'expired',
    });
  });

  it('still reads the booking links signed before these tokens, until they expire', () => {
    // `<base64url JSON {b, a, e, j}>.<HMAC>` under HMAC(secret, 'booking-links/v1'), expiring in 2100.
    const legacy =
      'eyJiIjoiN2M5ZTY2NzktNzQyNS00MGRlLTk0NGItZTA3ZmMxZjkwYWU3IiwiYSI6ImNvbmZpcm0tZmlyc3QiLCJlIjo0MTAyNDQ0ODAwLCJqIjoiWU5RT3ZwNzB6UDhRU3hCMCJ9.PbxBe28H4KwMINtEK46WGFv5MNsDdj4zYazrJf03TtE';
    const read = {
      subject: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
      tokenId: 'YNQOvp70zP8QSxB0',
      expiresAt: new Date('2100-01-01T00:00:00Z'),
      claims: { a: 'confirm-first' },
    };
    expect(tokens.verifyLegacyBookingLink(legacy)).toEqual({ ok: true, ...read });
    expect(tokens.verifyLegacyBookingLink(legacy, { now: new Date('2100-01-01T00:00:00Z') })).toEqual({
      ok: false,
      reason: 'expired',
      ...read,
    });
    expect(other.verifyLegacyBookingLink(legacy)).toEqual({ ok: false, reason: 'invalid' });
    expect(tokens.verifyLegacyBookingLink(tamper(legacy))).toEqual({ ok: false, reason: 'invalid' });
    for (const bad of [undefined, '', 'a.b', 'a.b.c', 42]) {
      expect(tokens.verifyLegacyBookingLink(bad)).toEqual({ ok: false, reason: 'invalid' });
    }
  });

  it('still reads the links signed before these tokens, for their purpose only', () => {
    // `<id>.<HMAC-SHA256(secret, purpose:id)>`, as the newsletter's first unsubscribe links were made.
    const legacy = 'sub-1.KROQNJ40GDsUrjMKOAi3l7vlsKT7RZVna9RmSv6Pc6o';
    expect(tokens.verifyLegacy('newsletter-unsubscribe', legacy)).toBe('sub-1');
    expect(tokens.verifyLegacy('newsletter-confirm', legacy)).toBeUndefined();
    expect(other.verifyLegacy('newsletter-unsubscribe', legacy)).toBeUndefined();
    expect(tokens.verifyLegacy('newsletter-unsubscribe', tamper(legacy))).toBeUndefined();
  });
});
