import { describe, expect, it } from 'vitest';
import { EVENT_SLUG, eventSlug } from './event-slug';

const ID = '3f2a9c4e-1b2d-4c5e-8f90-123456789abc';

describe('eventSlug', () => {
  it('is the title in lower-case words, then the id’s first eight characters', () => {
    expect(eventSlug('Bitcoin for High Earners: December 2026', ID)).toBe('bitcoin-for-high-earners-december-2026-3f2a9c4e');
  });

  it('drops accents and punctuation, and never starts or ends with a hyphen', () => {
    expect(eventSlug('  Café & Crypto — Q&A!  ', ID)).toBe('cafe-crypto-q-a-3f2a9c4e');
    expect(eventSlug('£££', ID)).toBe('masterclass-3f2a9c4e');
  });

  it('keeps a long title to 80 characters before the id', () => {
    const slug = eventSlug('word '.repeat(40), ID);
    expect(slug.length).toBeLessThanOrEqual(80 + 9);
    expect(slug).toMatch(EVENT_SLUG);
  });
});
