import { describe, expect, it } from 'vitest';
import { readRepositoryArticles } from '~/server/kit/repository-articles';
import { articleChoices, issueFromArticle } from './issue-articles.server';

// The repository's articles, as a new database imports them and publishes them.
const ARTICLES = await readRepositoryArticles();

describe('articleChoices', () => {
  it('lists the three articles of the site, newest first', async () => {
    const choices = articleChoices(ARTICLES);
    expect(choices.map((c) => c.slug)).toEqual([
      'sizing-a-bitcoin-allocation',
      'bitcoin-and-uk-tax-for-higher-rate-taxpayers',
      'lifestyle-creep-why-100k-can-feel-like-not-enough',
    ]);
    expect(choices.map((c) => c.date)).toEqual(['2025-06-15', '2025-06-08', '2025-05-28']);
    expect(choices[0]).toEqual({
      slug: 'sizing-a-bitcoin-allocation',
      title: 'The 1-5% Question: Sizing a Bitcoin Allocation',
      summary: expect.stringMatching(/^Why most long-term frameworks start small/),
      date: '2025-06-15',
    });
  });
});

describe('issueFromArticle', () => {
  it('fills an issue from the article, with a link to it on the site', async () => {
    const issue = issueFromArticle(ARTICLES, 'sizing-a-bitcoin-allocation', 'https://www.example.com/');
    expect(issue).toBeDefined();
    const { subject, preheader, body, articleSlug } = issue!;
    expect(subject).toBe('The 1-5% Question: Sizing a Bitcoin Allocation');
    expect(preheader).toMatch(/^Why most long-term frameworks start small.*running your plan\.$/);
    expect(articleSlug).toBe('sizing-a-bitcoin-allocation');
    // The Markdown without its front matter.
    expect(body).not.toMatch(/^---/);
    expect(body).not.toContain('summary:');
    expect(body.startsWith('Most conversations about Bitcoin')).toBe(true);
    expect(body).toContain('## Start with the foundations, not the allocation');
    expect(body.trimEnd().split('\n').at(-1)).toBe(
      'Read this article on our website: [The 1-5% Question: Sizing a Bitcoin Allocation](https://www.example.com/resources/articles/sizing-a-bitcoin-allocation)',
    );
  });

  it('makes the article’s links to the site absolute', async () => {
    const issue = issueFromArticle(ARTICLES, 'sizing-a-bitcoin-allocation', 'https://www.example.com');
    expect(issue!.body).toContain(
      '](https://www.example.com/resources/articles/bitcoin-and-uk-tax-for-higher-rate-taxpayers)',
    );
    expect(issue!.body).not.toMatch(/\]\(\/(?!\/)/);
  });

  it('gives nothing for a slug that names no article', async () => {
    for (const slug of [
      'no-such-article',
      '../etc',
      '../../package',
      'sizing-a-bitcoin-allocation.md',
      '',
      '__proto__',
    ])
      expect(issueFromArticle(ARTICLES, slug, 'https://www.example.com'), slug).toBeUndefined();
  });
});
