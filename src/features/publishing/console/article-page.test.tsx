/**
 * An article's page by status: what a draft, a scheduled, a published and an unpublished article
 * offer; the dated-figures warning; the preview in the site's `.article-body` style; the paths
 * and the form's values made from the contract; the address suggested from a title.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { articlesCopy as copy } from '~/content/publishing-console';
import { NoticeProvider } from '~/components/console/notices';
import {
  ArticleInputSchema,
  articleRoutes,
  slugFromTitle,
  type ArticleDetail,
  type ArticleStatus,
} from '../articles-console-contract';
import { apiPath, differs, inputOf, valuesOf } from './article-api';
import { ArticleEditor } from './article-page';
import { ArticleBody } from './article-preview';

const ID = '0b6f2b0e-8a4c-4f7e-9d51-3c2a1e0f9b7d';

function articleOf(status: ArticleStatus, more: Partial<ArticleDetail> = {}): ArticleDetail {
  return {
    id: ID,
    title: 'Bitcoin and UK tax',
    slug: 'bitcoin-and-uk-tax',
    summary: 'Capital gains, explained.',
    body: '## Hello\n\nThe rules, explained.',
    date: '2030-03-01',
    taxYear: null,
    datedFigures: false,
    status,
    version: 3,
    publishAt: status === 'scheduled' ? '2030-03-01T09:00:00.000Z' : null,
    publishAtLocal: status === 'scheduled' ? '2030-03-01T09:00' : null,
    publishedAt: status === 'published' || status === 'unpublished' ? '2030-02-01T09:00:00.000Z' : null,
    publicPath: status === 'published' ? '/resources/articles/bitcoin-and-uk-tax' : null,
    createdAt: '2030-02-20T10:00:00.000Z',
    updatedAt: '2030-02-21T10:00:00.000Z',
    currentTaxYear: '2029-30',
    ...more,
  };
}

const render = (article: ArticleDetail) =>
  renderToStaticMarkup(
    <MemoryRouter>
      <NoticeProvider resetKey="k" initial={null}>
        <ArticleEditor article={article} onChange={() => {}} />
      </NoticeProvider>
    </MemoryRouter>,
  );

const button = (label: string) => new RegExp(`<button[^>]*>${label}</button>`);

describe('an article’s page by status', () => {
  it('a draft: the form with its values, the preview, "Publish now" (asking first) and the schedule', () => {
    const html = render(articleOf('draft'));
    expect(html).toContain(copy.draftNote);
    expect(html).toMatch(/<input[^>]*name="title"[^>]*value="Bitcoin and UK tax"/);
    expect(html).toMatch(/<input[^>]*name="slug"[^>]*value="bitcoin-and-uk-tax"/);
    expect(html).toMatch(/<input[^>]*type="date"[^>]*name="date"[^>]*value="2030-03-01"/);
    expect(html).toContain('The rules, explained.</textarea>');
    expect(html).toMatch(button(copy.save));
    expect(html).toMatch(button(copy.publishNow));
    expect(html).toContain(copy.publishTitle);
    expect(html).toContain('type="datetime-local"');
    expect(html).toMatch(button(copy.schedule));
    expect(html).not.toMatch(button(copy.unschedule));
    expect(html).not.toMatch(button(copy.unpublish));
    expect(html).toContain(`aria-label="${copy.previewLabel}"`);
    expect(html).toContain(copy.revisionsHeading);
    expect(html).not.toContain(copy.publicLink);
  });

  it('a scheduled article: its UK time and "Unschedule"', () => {
    const html = render(articleOf('scheduled'));
    expect(html).toContain('Scheduled: it goes live on');
    expect(html).toMatch(button(copy.unschedule));
    expect(html).toMatch(button(copy.publishNow));
    expect(html).toMatch(/<input[^>]*type="datetime-local"[^>]*value="2030-03-01T09:00"/);
  });

  it('a published article: its page on the site and "Unpublish" (asking first); no schedule', () => {
    const html = render(articleOf('published'));
    expect(html).toContain(copy.publishedNote);
    expect(html).toContain('href="/resources/articles/bitcoin-and-uk-tax"');
    expect(html).toMatch(button(copy.unpublish));
    expect(html).toContain(copy.unpublishTitle);
    expect(html).not.toMatch(button(copy.publishNow));
    expect(html).not.toContain('type="datetime-local"');
    // A new address keeps the old one leading to it.
    expect(html).toContain('a new address keeps the old one leading to it');
  });

  it('an unpublished article: it can be published again', () => {
    const html = render(articleOf('unpublished'));
    expect(html).toContain(copy.unpublishedNote);
    expect(html).toMatch(button(copy.publishNow));
    expect(html).not.toMatch(button(copy.unpublish));
  });

  it('an article of an earlier tax year: the warning and the badge', () => {
    const html = render(articleOf('published', { taxYear: '2027-28', datedFigures: true }));
    expect(html).toContain(copy.datedNote('2027-28', '2029-30'));
    expect(html).toContain(copy.datedFigures);
    expect(render(articleOf('published', { taxYear: '2029-30' }))).not.toContain(copy.datedFigures);
  });
});

describe('the preview and the form’s values', () => {
  it('shows rendered text in the site’s .article-body style', () => {
    const html = renderToStaticMarkup(<ArticleBody html="<h2>Hi</h2><p>Text</p>" className="mt-8" />);
    expect(html).toBe('<div class="article-body mt-8"><h2>Hi</h2><p>Text</p></div>');
  });

  it('fills the paths from the contract', () => {
    expect(apiPath(articleRoutes.detail, { id: ID })).toBe(`/articles/${ID}`);
    expect(apiPath(articleRoutes.restore, { id: ID, revisionId: 'r1' })).toBe(
      `/articles/${ID}/revisions/r1/restore`,
    );
    expect(apiPath(articleRoutes.list)).toBe('/articles');
  });

  it('reads the form’s values as the server does, and says when they differ from the saved ones', () => {
    const saved = valuesOf(articleOf('draft'));
    expect(saved.taxYear).toBe('');
    expect(differs({ ...saved, title: ' Bitcoin and UK tax  ' }, saved)).toBe(false);
    expect(differs({ ...saved, body: `${saved.body}!` }, saved)).toBe(true);
    expect(ArticleInputSchema.safeParse(inputOf(saved)).success).toBe(true);
  });

  it('suggests an address from a title', () => {
    expect(slugFromTitle('Bitcoin & UK Tax: What Every Higher-Rate Taxpayer Should Know')).toBe(
      'bitcoin-uk-tax-what-every-higher-rate-taxpayer-should-know',
    );
    expect(slugFromTitle('Lifestyle Creep: Why £100k Can Feel Like Not Enough')).toBe(
      'lifestyle-creep-why-100k-can-feel-like-not-enough',
    );
    expect(slugFromTitle('Café über naïve')).toBe('cafe-uber-naive');
    expect(slugFromTitle('  —  ')).toBe('');
    expect(slugFromTitle('a'.repeat(99) + ' b c')).toMatch(/^a{99}$/);
  });
});
