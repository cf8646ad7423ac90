import { describe, expect, it } from 'vitest';
import { GUIDE_PDF_FILE, renderGuidePdf } from './guide-pdf';
import { PAGES } from './guide-pdf-content';

describe('the Wealth Building Guide PDF', () => {
  it('renders at least 8 pages covering every topic, with its title and the advice notice', async () => {
    const bytes = await renderGuidePdf({ brand: 'Sterling Sats', siteUrl: 'https://www.example.com' });
    const text = Buffer.from(bytes).toString('latin1');
    expect(text.startsWith('%PDF-')).toBe(true);
    const pages = text.match(/\/Type \/Page\b/g) ?? [];
    expect(pages.length).toBeGreaterThanOrEqual(8);
    expect(text).toContain('The Bitcoin Wealth Building Guide');
    expect(GUIDE_PDF_FILE).toBe('guides/wealth-building-guide.pdf');
    const titles = PAGES.map((p) => p.title).join(' | ');
    for (const topic of [
      '£100k',
      'Budgeting',
      'Pensions and ISAs',
      'Bitcoin is',
      '1-5 %',
      'Custody',
      'tax',
    ]) {
      expect(titles).toContain(topic);
    }
  });

  it('is the same file on every build (stable ETag)', async () => {
    const a = await renderGuidePdf({ brand: 'Sterling Sats', siteUrl: 'https://www.example.com' });
    const b = await renderGuidePdf({ brand: 'Sterling Sats', siteUrl: 'https://www.example.com' });
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });
});
