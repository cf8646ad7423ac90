import { describe, expect, it } from 'vitest';
import { formatShortDate } from './article-list';
import { formatLongDate } from './legal-document';

describe('date formatting', () => {
  it('formats ISO dates the same in every time zone', () => {
    expect(formatShortDate('2025-01-01')).toBe('1 Jan 2025');
    expect(formatLongDate('2025-12-31')).toBe('31 December 2025');
    // The articles' dates as the spec shows them.
    expect(['2025-06-15', '2025-06-08', '2025-05-28'].map(formatShortDate)).toEqual([
      '15 Jun 2025',
      '8 Jun 2025',
      '28 May 2025',
    ]);
  });
});
