import { describe, expect, it } from 'vitest';
import { articles } from '~/content/resources';
import { formatShortDate } from './article-list';
import { formatLongDate } from './legal-document';

describe('date formatting', () => {
  it('formats ISO dates the same in every time zone', () => {
    expect(formatShortDate('2025-01-01')).toBe('1 Jan 2025');
    expect(formatLongDate('2025-12-31')).toBe('31 December 2025');
  });

  it('shows the articles with the spec dates, newest first', () => {
    expect(articles.map((a) => formatShortDate(a.date))).toEqual([
      '15 Jun 2025',
      '8 Jun 2025',
      '28 May 2025',
    ]);
    expect(articles.every((a) => a.type === 'Article')).toBe(true);
  });
});
