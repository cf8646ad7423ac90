/** The VERP envelope sender of a row, and the row of an address (decision 045). */
import { describe, expect, it } from 'vitest';
import { VERP_TAG_LENGTH, verpRowId, verpSender } from './verp';

const SECRET = 'test-secret-test-secret-test-secret-0123';
const DOMAIN = 'bounce.example.org';
const TO = 'visitor@example.org';

describe('a VERP address', () => {
  it('names its row, and only under the same secret and domain', () => {
    for (const id of [1, 42, 987_654_321, Number.MAX_SAFE_INTEGER]) {
      const address = verpSender(SECRET, DOMAIN, id, TO);
      expect(address).toMatch(/^bounce\+\d+-[a-z2-7]{16}@bounce\.example\.org$/);
      expect(verpRowId(SECRET, DOMAIN, address, TO)).toBe(id);
      expect(verpRowId(`${SECRET}x`, DOMAIN, address, TO)).toBeUndefined();
      expect(verpRowId(SECRET, 'other.example.org', address, TO)).toBeUndefined();
    }
  });

  it('fits in a local part (64 characters at most) for the largest row id', () => {
    const address = verpSender(SECRET, DOMAIN, Number.MAX_SAFE_INTEGER, TO);
    const local = address.slice(0, address.lastIndexOf('@'));
    expect(local.length).toBeLessThanOrEqual(64);
    expect(local.length).toBe('bounce+'.length + 16 + 1 + VERP_TAG_LENGTH);
  });

  it('names its row only for the recipient it was made for', () => {
    const address = verpSender(SECRET, DOMAIN, 9, TO);
    expect(verpRowId(SECRET, DOMAIN, address, 'VISITOR@example.org')).toBe(9);
    expect(verpRowId(SECRET, DOMAIN, address, 'someone.else@example.org')).toBeUndefined();
  });

  it('survives a relay that changes the case of the address', () => {
    const address = verpSender(SECRET, DOMAIN, 7, TO);
    expect(verpRowId(SECRET, DOMAIN, address.toUpperCase(), TO)).toBe(7);
    expect(verpRowId(SECRET, 'BOUNCE.Example.ORG', address, TO)).toBe(7);
  });

  it('is refused when any character of its tag or id is changed', () => {
    const address = verpSender(SECRET, DOMAIN, 1234, TO);
    const local = address.slice(0, address.indexOf('@'));
    const tagStart = local.indexOf('-') + 1;
    for (let i = tagStart; i < local.length; i += 1) {
      const swapped = local[i] === 'a' ? 'b' : 'a';
      const forged = `${local.slice(0, i)}${swapped}${local.slice(i + 1)}@${DOMAIN}`;
      expect(verpRowId(SECRET, DOMAIN, forged, TO)).toBeUndefined();
    }
    // Another row's id with this row's tag.
    expect(verpRowId(SECRET, DOMAIN, address.replace('+1234-', '+1235-'), TO)).toBeUndefined();
  });

  it('is refused when malformed', () => {
    const good = verpSender(SECRET, DOMAIN, 5, TO);
    const tag = good.slice(good.indexOf('-') + 1, good.indexOf('@'));
    for (const address of [
      '',
      '@',
      DOMAIN,
      `@${DOMAIN}`,
      `bounce@${DOMAIN}`,
      `bounce+5@${DOMAIN}`,
      `bounce+5-@${DOMAIN}`,
      `bounce+05-${tag}@${DOMAIN}`,
      `bounce+5-${tag}x@${DOMAIN}`,
      `bounce+5-${tag.slice(1)}@${DOMAIN}`,
      `xbounce+5-${tag}@${DOMAIN}`,
      `bounce+5-${tag}@${DOMAIN}.evil.test`,
      `bounce+5-${tag}@sub.${DOMAIN}`,
      `bounce+99999999999999999-${tag}@${DOMAIN}`,
      `bounce+-5-${tag}@${DOMAIN}`,
    ]) {
      expect(verpRowId(SECRET, DOMAIN, address, TO), address).toBeUndefined();
    }
  });
});
