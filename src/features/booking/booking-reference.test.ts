import { describe, expect, it } from 'vitest';
import { REFERENCE_PATTERN, generateReference } from './booking-reference';

describe('generateReference', () => {
  it('makes BK- and six unambiguous characters', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i += 1) {
      const ref = generateReference();
      expect(ref).toMatch(REFERENCE_PATTERN);
      expect(ref).not.toMatch(/[01ILO]/);
      seen.add(ref);
    }
    expect(seen.size).toBe(2000);
  });

  it('skips bytes that would bias the alphabet', () => {
    // 255 is above the largest multiple of 31; 0 maps to '2', 30 to 'Z'.
    const bytes = [255, 0, 30, 255, 1, 2, 3, 4, 5, 6, 7, 8];
    const ref = generateReference((b) => {
      b.set(bytes.slice(0, b.length));
      return b;
    });
    expect(ref).toBe('BK-2Z3456');
  });
});
