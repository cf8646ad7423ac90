/**
 * What a visitor sees once the owner publishes (issue #25, decision 047), in real Chromium against
 * the running server, with no rebuild and no restart: the article's page (the author, the date, the
 * tax year, the closing invitation, other articles), hydrated under the page's own CSP; the list
 * and Resources link to it and a link followed inside the app opens it; the feed and the sitemap
 * name it; a script in its Markdown runs nothing; unpublished, it is the 404 page.
 */
import type { ArticleDetail } from '../../src/features/publishing/articles-console-contract';
import { expect, gotoHydrated } from './support/fixtures';
import { EXPECTED_CONSOLE_ERRORS, sameOrigin, test, uniqueTag } from './owner-support';

test.use({ allowConsoleErrors: EXPECTED_CONSOLE_ERRORS });

test('a published article is live on its page, the list, Resources, the feed and the sitemap; unpublished it is gone', async ({
  ownerPage: page,
}) => {
  test.setTimeout(90_000);
  const tag = uniqueTag('live');
  const slug = `live-article-${tag.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  const title = `A live article ${tag}`;
  const created = await page.request.post('/api/owner/articles', {
    data: {
      title,
      summary: 'What the new tax year means for a Bitcoin allocation.',
      slug,
      // Tomorrow's date: the newest article, first on the list and on Resources.
      date: new Date(Date.now() + 24 * 3_600_000).toISOString().slice(0, 10),
      taxYear: '2026-27',
      body: `## The allowance\n\nThe words of ${tag}.\n\n<script>window.leaked = true</script>\n\n<img src="x" onerror="window.leaked = true">`,
    },
    headers: sameOrigin,
  });
  expect(created.status(), await created.text()).toBe(200);
  const article = (await created.json()) as ArticleDetail;
  const published = await page.request.post(`/api/owner/articles/${article.id}/publish`, {
    data: { version: article.version },
    headers: sameOrigin,
  });
  expect(published.status(), await published.text()).toBe(200);
  const path = `/resources/articles/${slug}`;
  await expect.poll(async () => (await page.request.get(path)).status(), { timeout: 30_000 }).toBe(200);

  // The page, hydrated (its inline scripts allowed by its own CSP), as an article reads.
  await gotoHydrated(page, path);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
  const main = page.getByRole('main');
  await expect(main).toContainText(`The words of ${tag}.`);
  await expect(main).toContainText('Figures for the 2026-27 tax year');
  // The author's line: the founder (as Business details name them, when another test has set them).
  await expect(main).toContainText('Founder and Lead Educator');
  // The Markdown's raw HTML is text on the page, and ran nothing.
  await expect(main).toContainText('<script>window.leaked = true</script>');
  expect(await page.evaluate(() => (window as { leaked?: boolean }).leaked)).toBeUndefined();
  await expect(page.locator('.article-body img')).toHaveCount(0);
  const closing = page.getByRole('complementary', { name: 'Want to talk it through?' });
  await expect(closing.getByRole('link', { name: 'Book Your Free Strategy Session' })).toHaveAttribute('href', '/book');
  await expect(page.getByRole('navigation', { name: 'More articles' }).getByRole('link')).not.toHaveCount(0);

  // Resources shows it among the newest; the list too, and its link opens it inside the app.
  await gotoHydrated(page, '/resources');
  await expect(page.getByRole('region', { name: 'Latest Articles' }).getByRole('link', { name: title })).toBeVisible();
  await gotoHydrated(page, '/resources/articles');
  await page.getByRole('main').getByRole('link', { name: title }).click();
  await expect(page).toHaveURL(path);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);

  const feed = await (await page.request.get('/feed.xml')).text();
  expect(feed).toContain(title);
  expect(feed).toContain(`${path}</id>`);
  const sitemap = await (await page.request.get('/sitemap.xml')).text();
  expect(sitemap).toContain(`${path}</loc>`);

  // Taken off the site: the 404 page, off the list, out of the feed.
  const unpublished = await page.request.post(`/api/owner/articles/${article.id}/unpublish`, {
    data: {},
    headers: sameOrigin,
  });
  expect(unpublished.status(), await unpublished.text()).toBe(200);
  await expect.poll(async () => (await page.request.get(path)).status(), { timeout: 30_000 }).toBe(404);
  await gotoHydrated(page, '/resources/articles');
  await expect(page.getByRole('main').getByRole('link', { name: title })).toHaveCount(0);
  expect(await (await page.request.get('/feed.xml')).text()).not.toContain(title);
});
