import { expect, gotoHydrated, test } from './support/fixtures';
import { NOT_FOUND, SITE_ROUTES } from './support/site-routes';

test.describe('every page', () => {
  for (const route of SITE_ROUTES) {
    test(`${route.path} shows its h1 and key copy, requesting nothing from another origin`, async ({
      page,
      baseURL,
    }) => {
      const foreign: string[] = [];
      page.on('request', (request) => {
        const url = request.url();
        if (!url.startsWith(`${baseURL}/`) && !url.startsWith('data:')) foreign.push(url);
      });
      await gotoHydrated(page, route.path);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(route.h1);
      await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
      const main = page.getByRole('main');
      for (const text of route.copy) await expect(main, text).toContainText(text);
      await expect(page.getByTestId('disclaimer')).toContainText(
        'educational content only and not regulated financial advice',
      );
      expect(foreign).toEqual([]);
    });
  }

  test('each page has its own title, description, canonical URL and Open Graph tags', async ({ page }) => {
    const titles = new Set<string>();
    for (const route of SITE_ROUTES) {
      await page.goto(route.path);
      const title = await page.title();
      const canonicalPath = route.path === '/ai-coaching' ? '/ai' : route.path;
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
        'href',
        `http://localhost:3000${canonicalPath}`,
      );
      await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /.{50,}/);
      await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', title);
      await expect(page.locator('meta[property="og:image"]')).toHaveAttribute(
        'content',
        'http://localhost:3000/og-image.png',
      );
      if (route.path !== '/ai-coaching') {
        expect(titles.has(title), `${route.path} repeats the title ${title}`).toBe(false);
        titles.add(title);
      }
    }
  });

  test('structured data: Organization on home, FAQPage on book; no Event on resources without a masterclass', async ({
    page,
  }) => {
    const jsonLd = async (path: string) => {
      await page.goto(path);
      const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
      return blocks.map((b) => JSON.parse(b) as Record<string, unknown>);
    };
    expect((await jsonLd('/')).map((d) => d['@type'])).toEqual(['Organization']);
    // The Event is written by the masterclass card from the real next event (events-public.spec.ts);
    // this server has none, and the prerendered page never has one.
    expect(await jsonLd('/resources')).toEqual([]);
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
    await expect(page.getByTestId('masterclass')).toHaveAttribute('data-state', 'none');
    expect(await page.locator('script[type="application/ld+json"]').count()).toBe(0);
    const [faq] = await jsonLd('/book');
    expect(faq?.['@type']).toBe('FAQPage');
    expect(faq?.mainEntity).toHaveLength(4);
  });

  test('the open graph image and the avatar are served by the site', async ({ request }) => {
    const og = await request.get('/og-image.png');
    expect(og.status()).toBe(200);
    expect(og.headers()['content-type']).toBe('image/png');
    const avatar = await request.get('/images/elliot.svg');
    expect(avatar.status()).toBe(200);
    expect(avatar.headers()['content-type']).toBe('image/svg+xml');
  });
});

test.describe('the 404 page', () => {
  test.use({
    allowConsoleErrors:
      /^404 Error: User attempted to access non-existent route: \/no-such-page$|Failed to load resource: the server responded with a status of 404/,
  });

  test('an unknown path answers 404 with the page and logs the path', async ({ page }) => {
    const logged: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error') logged.push(msg.text());
    });
    const response = await page.goto('/no-such-page');
    expect(response?.status()).toBe(404);
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(NOT_FOUND.h1);
    await expect(page.getByRole('main')).toContainText(NOT_FOUND.code);
    await expect
      .poll(() => logged)
      .toContain('404 Error: User attempted to access non-existent route: /no-such-page');
    await page.getByRole('link', { name: NOT_FOUND.cta }).click();
    await expect(page).toHaveURL('/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(SITE_ROUTES[0]!.h1);
  });
});

test.describe('without JavaScript', () => {
  test("every page's HTML shows its h1 and main copy", async ({ browser, baseURL }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
    const page = await context.newPage();
    for (const route of SITE_ROUTES) {
      const response = await page.goto(route.path);
      expect(response?.status(), route.path).toBe(200);
      await expect(page.getByRole('heading', { level: 1 }), route.path).toHaveText(route.h1);
      for (const text of route.copy)
        await expect(page.getByRole('main'), `${route.path}: ${text}`).toContainText(text);
    }
    const missing = await page.goto('/no-such-page');
    expect(missing?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(NOT_FOUND.h1);
    await context.close();
  });
});
