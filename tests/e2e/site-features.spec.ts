import { expect, gotoHydrated, test } from './support/fixtures';

test.describe('the AI coaching page', () => {
  test("shows Elliot's avatar, and its buttons lead to /book and /contact", async ({ page }) => {
    await gotoHydrated(page, '/ai-coaching');
    const avatar = page.getByRole('img', { name: /Elliot/ });
    await expect(avatar).toBeVisible();
    expect(await avatar.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    await expect(avatar).toHaveAttribute('width', '96');
    await expect(avatar).toHaveAttribute('height', '96');
    await expect(page.getByRole('link', { name: 'Request Demo Access' }).first()).toHaveAttribute(
      'href',
      '/contact',
    );
    await page.getByRole('link', { name: 'Book Your Free Strategy Call' }).first().click();
    await expect(page).toHaveURL('/book');
  });

  test.describe('when the avatar fails to load', () => {
    test.use({ allowConsoleErrors: /Failed to load resource: the server responded with a status of 404/ });

    test('the avatar is hidden and the caption stays', async ({ page }) => {
      await page.route('**/images/elliot.svg', (route) => route.fulfill({ status: 404, body: 'missing' }));
      await gotoHydrated(page, '/ai');
      await expect(page.getByTestId('elliot-caption')).toHaveText('Elliot, Bitcoin Consultant');
      await expect(page.locator('img[src="/images/elliot.svg"]')).toHaveCount(0);
    });

    test('also when it fails after the page has hydrated', async ({ page }) => {
      await gotoHydrated(page, '/');
      await page.route('**/images/elliot.svg', (route) => route.fulfill({ status: 404, body: 'missing' }));
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'AI Coaching' }).click();
      await expect(page.getByTestId('elliot-caption')).toBeVisible();
      await expect(page.locator('img[src="/images/elliot.svg"]')).toHaveCount(0);
    });
  });
});

test.describe('page links', () => {
  test('the home plan cards lead to /book, /ai and /contact, with a link to /services', async ({ page }) => {
    await gotoHydrated(page, '/');
    const plans = page.locator('section[aria-labelledby="plans-title"]');
    const hrefs = await plans
      .locator('article a')
      .evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    expect(hrefs).toEqual(['/book', '/ai', '/contact']);
    await expect(plans.getByRole('link', { name: /Compare all our services/ })).toHaveAttribute(
      'href',
      '/services',
    );
    await expect(page.getByRole('link', { name: 'Book Your Free Strategy Session' }).first()).toHaveAttribute(
      'href',
      '/book',
    );
    await expect(page.getByRole('link', { name: 'Explore Our Services' })).toHaveAttribute(
      'href',
      '/services',
    );
  });

  test('the services cards: Strategy Session and Team & Enterprise to /book, Learn More to /ai', async ({
    page,
  }) => {
    await gotoHydrated(page, '/services');
    const hrefs = await page
      .locator('main article a')
      .evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    expect(hrefs).toEqual(['/book', '/ai', '/book']);
    await expect(page.getByRole('link', { name: 'Learn More' })).toHaveAttribute('href', '/ai');
  });

  test('contact: with no business e-mail set, Discuss Partnerships and Book a Call lead to the form', async ({
    page,
  }) => {
    // Once the owner sets the business's details they are mailto links to it (owner-business.spec.ts).
    await gotoHydrated(page, '/contact');
    await expect(page.getByRole('link', { name: 'Discuss Partnerships' })).toHaveAttribute(
      'href',
      '#message-title',
    );
    await expect(page.getByRole('link', { name: 'Book a Call' })).toHaveAttribute('href', '#message-title');
  });

  test("the booking page keeps What's Included and the FAQ below the form", async ({ page }) => {
    await gotoHydrated(page, '/book');
    const slot = page.locator('[data-testid="book-included"]');
    await expect(slot).toBeVisible();
    await expect(page.getByTestId('book-faq')).toBeVisible();
    await page.getByText('What if I need to cancel or reschedule?').click();
    await expect(page.getByText('up to 48 hours before')).toBeVisible();
  });
});

test.describe('content before code (decision 008)', () => {
  test('every route paints its prerendered text before asking for any JavaScript, then hydrates', async ({
    page,
  }) => {
    for (const path of ['/', '/book', '/ai', '/contact']) {
      await gotoHydrated(page, path);
      // The browser's own word on what the first paint waited for: no script is render-blocking.
      // (Whether a script's fetch starts before or after the paint depends on the machine's load;
      // whether the paint waits for it does not.)
      const timing = await page.evaluate(() => {
        const paint = performance.getEntriesByName('first-contentful-paint')[0]?.startTime;
        const scripts = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
          .filter((entry) => new URL(entry.name).pathname.endsWith('.js'))
          .map((entry) => (entry as PerformanceResourceTiming & { renderBlockingStatus?: string }).renderBlockingStatus);
        return { painted: paint !== undefined, scripts };
      });
      expect(timing.painted, path).toBe(true);
      expect(timing.scripts.length, path).toBeGreaterThan(0);
      expect(new Set(timing.scripts), path).toEqual(new Set(['non-blocking']));
      // The head names no module preload: the stylesheet is the only thing the first paint waits for.
      const html = await (await page.request.get(path)).text();
      expect(html, path).not.toContain('<link rel="modulepreload"');
      expect(html, path).toMatch(/<link rel="stylesheet" href="\/assets\/[^"]+\.css"\/>/);
    }
  });
});

test.describe('sections below the first screen (decision 011)', () => {
  test('are laid out on approach, and nothing shifts while loading or scrolling to the footer', async ({
    page,
  }) => {
    await page.addInitScript(() => {
      const w = window as unknown as { __shift: number };
      w.__shift = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as unknown as Array<{ value: number; hadRecentInput: boolean }>)
          if (!entry.hadRecentInput) w.__shift += entry.value;
      }).observe({ type: 'layout-shift', buffered: true });
    });
    for (const path of ['/', '/resources', '/services']) {
      await gotoHydrated(page, path);
      const styles = await page
        .locator('main > section + section, body > footer')
        .evaluateAll((els) => els.map((el) => getComputedStyle(el).contentVisibility));
      expect(styles.length, path).toBeGreaterThan(0);
      expect(new Set(styles), path).toEqual(new Set(['auto']));
      for (let y = 0; y < 12; y += 1) {
        const before = await page.evaluate(() => window.scrollY);
        await page.mouse.wheel(0, 700);
        // The wheel scrolls in a later frame: the next turn waits for it, or for the page's end.
        await page.waitForFunction(
          (from) =>
            window.scrollY !== from ||
            window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 1,
          before,
        );
      }
      await expect(page.locator('body > footer')).toBeInViewport();
      expect(await page.evaluate(() => (window as unknown as { __shift: number }).__shift), path).toBe(0);
    }
  });
});
