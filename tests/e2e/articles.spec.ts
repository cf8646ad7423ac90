/**
 * The articles: the Resources page's links lead to them, the list shows all of them newest
 * first, each page describes itself as an Article, and the Atom feed lists them and is linked
 * from every page's head. Their h1, copy, axe and narrow-screen checks run with every page's
 * (support/site-routes.ts).
 */
import { CONSOLE_PATH } from '../../src/content/routes';
import { expect, gotoHydrated, test } from './support/fixtures';
import { ARTICLES, SITE_ROUTES } from './support/site-routes';

const ATOM = 'http://www.w3.org/2005/Atom';

test("'Read Article' on the Resources page opens the article", async ({ page }) => {
  await gotoHydrated(page, '/resources');
  const newest = ARTICLES[0]!;
  const section = page.getByRole('region', { name: 'Latest Articles' });
  await expect(section.getByRole('article')).toHaveCount(3);
  const read = section.getByRole('link', { name: newest.title });
  await expect(read).toContainText('Read Article');
  await read.click();
  await expect(page).toHaveURL(`/resources/articles/${newest.slug}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(newest.title);
  await expect(page.getByRole('main')).toContainText(`${newest.readingMinutes} min read`);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
    'href',
    `http://localhost:3000/resources/articles/${newest.slug}`,
  );
});

test("'View All' opens the list of every article, newest first, and each opens", async ({ page }) => {
  await gotoHydrated(page, '/resources');
  await page.getByRole('link', { name: 'View All articles' }).click();
  await expect(page).toHaveURL('/resources/articles');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Articles');
  const cards = page.getByRole('main').getByRole('article');
  await expect(cards.getByRole('heading', { level: 2 })).toHaveText(ARTICLES.map((a) => a.title));
  const oldest = ARTICLES.at(-1)!;
  await cards.getByRole('link', { name: oldest.title }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(oldest.title);
  await page.getByRole('link', { name: 'All articles' }).click();
  await expect(page).toHaveURL('/resources/articles');
});

test('each article describes itself as an Article in its structured data', async ({ page }) => {
  for (const article of ARTICLES) {
    await page.goto(`/resources/articles/${article.slug}`);
    const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
    expect(blocks.map((b) => JSON.parse(b) as Record<string, unknown>)).toEqual([
      expect.objectContaining({
        '@type': 'Article',
        headline: article.title,
        datePublished: article.date,
        url: `http://localhost:3000/resources/articles/${article.slug}`,
      }),
    ]);
  }
});

test('an unknown article is the 404 page', async ({ request }) => {
  const response = await request.get('/resources/articles/no-such-article');
  expect(response.status()).toBe(404);
});

test('the Atom feed lists every article and parses as Atom', async ({ page, request }) => {
  const response = await request.get('/feed.xml');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toBe('application/atom+xml; charset=utf-8');
  const xml = await response.text();
  await page.goto('/');
  const feed = await page.evaluate(
    ({ xml, ns }) => {
      const doc = new DOMParser().parseFromString(xml, 'application/xml');
      const error = doc.getElementsByTagName('parsererror')[0]?.textContent ?? null;
      const root = doc.documentElement;
      const text = (el: Element, name: string) => el.getElementsByTagNameNS(ns, name)[0]?.textContent ?? null;
      const link = (el: Element, rel: string) =>
        [...el.getElementsByTagNameNS(ns, 'link')]
          .filter((l) => l.parentElement === el && (l.getAttribute('rel') ?? 'alternate') === rel)
          .map((l) => l.getAttribute('href'))[0] ?? null;
      return {
        error,
        root: `${root.namespaceURI} ${root.localName}`,
        title: text(root, 'title'),
        id: text(root, 'id'),
        updated: text(root, 'updated'),
        author: text(root.getElementsByTagNameNS(ns, 'author')[0]!, 'name'),
        self: link(root, 'self'),
        alternate: link(root, 'alternate'),
        entries: [...root.getElementsByTagNameNS(ns, 'entry')].map((entry) => ({
          title: text(entry, 'title'),
          id: text(entry, 'id'),
          link: link(entry, 'alternate'),
          published: text(entry, 'published'),
          updated: text(entry, 'updated'),
          summary: text(entry, 'summary'),
        })),
      };
    },
    { xml, ns: ATOM },
  );
  expect(feed.error).toBeNull();
  expect(feed.root).toBe(`${ATOM} feed`);
  expect(feed.title).toBe('Sterling Sats articles');
  expect(feed.id).toBe('http://localhost:3000/resources/articles');
  expect(feed.self).toBe('http://localhost:3000/feed.xml');
  expect(feed.alternate).toBe('http://localhost:3000/resources/articles');
  expect(feed.author).toBe('Sterling Sats');
  expect(feed.updated).toBe(`${ARTICLES[0]!.date}T00:00:00.000Z`);
  expect(feed.entries).toEqual(
    ARTICLES.map((a) => ({
      title: a.title,
      id: `http://localhost:3000/resources/articles/${a.slug}`,
      link: `http://localhost:3000/resources/articles/${a.slug}`,
      published: `${a.date}T00:00:00.000Z`,
      updated: `${a.date}T00:00:00.000Z`,
      summary: a.summary,
    })),
  );
});

test("every page's head links the feed, and keeps it after hydration", async ({ page, request }) => {
  for (const path of SITE_ROUTES.map((r) => r.path)) {
    await gotoHydrated(page, path);
    await expect(
      page.locator('head link[rel="alternate"][type="application/atom+xml"]'),
      path,
    ).toHaveAttribute('href', '/feed.xml');
  }
  // The console's shell and the 404 page too (as served; the console is tested signed in elsewhere).
  for (const path of [CONSOLE_PATH, '/no-such-page']) {
    const html = await (await request.get(path)).text();
    expect(html, path).toMatch(
      /<head>[\s\S]*<link rel="alternate" type="application\/atom\+xml"[^>]*href="\/feed\.xml"[\s\S]*<\/head>/,
    );
  }
});

test('the sitemap lists the list of articles and every article', async ({ request }) => {
  const sitemap = await (await request.get('/sitemap.xml')).text();
  for (const path of ['/resources/articles', ...ARTICLES.map((a) => `/resources/articles/${a.slug}`)]) {
    expect(sitemap).toContain(`<loc>http://localhost:3000${path}</loc>`);
  }
});
