import { describe, expect, it } from 'vitest';
import { readArticleFiles } from '../../scripts/articles';
import { parseArticle, readArticles } from './articles.server';

const page = (front: string, body = 'Some words of text.') => `---\n${front}\n---\n\n${body}\n`;

describe('the articles in the repository', () => {
  const articles = readArticleFiles();

  it('are the three the Resources page lists, with the spec dates, newest first', () => {
    expect(articles.map((a) => a.date)).toEqual(['2025-06-15', '2025-06-08', '2025-05-28']);
    expect(articles.map((a) => a.title)).toEqual([
      'The 1-5% Question: Sizing a Bitcoin Allocation',
      'Bitcoin and UK Tax: What Every Higher-Rate Taxpayer Should Know',
      'Lifestyle Creep: Why £100k Can Feel Like Not Enough',
    ]);
  });

  it('are each at least 800 words, with a reading time', () => {
    for (const article of articles) {
      expect(article.words, article.slug).toBeGreaterThanOrEqual(800);
      expect(article.readingMinutes).toBe(Math.ceil(article.words / 200));
    }
  });

  it('state the tax year their figures are for and send the reader to HMRC to check', () => {
    for (const article of articles) {
      expect(article.html, article.slug).toContain('2025/26');
      expect(article.html, article.slug).toMatch(/not (personal )?(financial|tax)/);
      // Each states UK tax figures, so each points to HMRC's Cryptoassets Manual to check them.
      expect(article.html, article.slug).toContain(
        'href="https://www.gov.uk/hmrc-internal-manuals/cryptoassets-manual"',
      );
    }
    const tax = articles.find((a) => a.slug === 'bitcoin-and-uk-tax-for-higher-rate-taxpayers')!;
    // The 2025/26 figures each article relies on.
    for (const figure of [
      '£3,000',
      '<strong>18%</strong>',
      '<strong>24%</strong>',
      '30 October 2024',
      '£50,270',
    ])
      expect(tax.html).toContain(figure);
    const creep = articles.find((a) => a.slug === 'lifestyle-creep-why-100k-can-feel-like-not-enough')!;
    for (const figure of ['£12,570', '£1 for every £2', '£100,000', '£125,140'])
      expect(creep.html).toContain(figure);
  });

  it('link only to pages that exist', () => {
    const slugs = new Set(articles.map((a) => a.slug));
    for (const article of articles) {
      for (const [, href] of article.html.matchAll(/href="([^"]+)"/g)) {
        if (href!.startsWith('/resources/articles/'))
          expect(slugs.has(href!.split('/').pop()!), href).toBe(true);
        else expect(href, article.slug).toMatch(/^https:\/\/www\.gov\.uk\//);
      }
    }
  });
});

describe('reading an article file', () => {
  it('takes the slug from the file name and renders the Markdown', () => {
    const article = parseArticle(
      'src/content/articles/a-first-post.md',
      page(
        "title: 'A: first'\ndate: 2025-01-02\nsummary: Short.",
        '## Heading\n\nA [link](https://example.org) and **bold**.',
      ),
    );
    expect(article).toMatchObject({
      slug: 'a-first-post',
      title: 'A: first',
      date: '2025-01-02',
      summary: 'Short.',
    });
    expect(article.html).toContain('<h2>Heading</h2>');
    expect(article.html).toContain('<a href="https://example.org" rel="noopener noreferrer">link</a>');
    expect(article.html).toContain('<strong>bold</strong>');
  });

  it('refuses a file without a title, a date or a summary, or with a name that is not a slug', () => {
    expect(() => parseArticle('x.md', page('date: 2025-01-02\nsummary: S'))).toThrow(
      'Article x.md: its front matter needs a title',
    );
    expect(() => parseArticle('x.md', page('title: T\nsummary: S'))).toThrow('needs a date as YYYY-MM-DD');
    expect(() => parseArticle('x.md', page("title: T\ndate: '15 June 2025'\nsummary: S"))).toThrow(
      'needs a date as YYYY-MM-DD',
    );
    expect(() => parseArticle('x.md', page('title: T\ndate: 2025-01-02'))).toThrow('needs a summary');
    expect(() => parseArticle('Not A Slug.md', page('title: T\ndate: 2025-01-02\nsummary: S'))).toThrow(
      'must be a slug',
    );
    expect(() => parseArticle('x.md', page('title: T\ndate: 2025-01-02\nsummary: S', ''))).toThrow('no text');
  });

  it('lists newest first', () => {
    const list = readArticles({
      'older.md': page('title: Older\ndate: 2024-05-01\nsummary: S'),
      'newer.md': page('title: Newer\ndate: 2025-05-01\nsummary: S'),
    });
    expect(list.map((a) => a.slug)).toEqual(['newer', 'older']);
  });
});
