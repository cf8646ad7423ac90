import { expect, gotoHydrated, test } from './support/fixtures';
import { fakeEvent, routeNextEvent } from './support/next-event';

test.describe('navbar', () => {
  test('is transparent at the top and solid once scrolled more than 10 px', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await gotoHydrated(page, '/');
    const header = page.getByRole('banner');
    await expect(header).toHaveAttribute('data-solid', 'false');
    await page.evaluate(() => window.scrollTo(0, 10));
    await expect(header).toHaveAttribute('data-solid', 'false');
    await page.evaluate(() => window.scrollTo(0, 11));
    await expect(header).toHaveAttribute('data-solid', 'true');
    await expect(header).toHaveCSS('background-color', 'rgb(255, 255, 255)');
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect(header).toHaveAttribute('data-solid', 'false');
  });

  test("lists the spec's links and the Book Training button at desktop width", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await gotoHydrated(page, '/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const [name, href] of [
      ['Home', '/'],
      ['About', '/about'],
      ['Our Services', '/services'],
      ['AI Coaching', '/ai'],
      ['Book a Session', '/book'],
      ['Resources', '/resources'],
      ['Contact', '/contact'],
      ['Book Training', '/book'],
    ] as const) {
      await expect(nav.getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
    }
    await nav.getByRole('link', { name: 'Our Services' }).click();
    await expect(page).toHaveURL('/services');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Our Services');
  });

  test('at 375 px the menu button opens the menu; a link navigates and closes it; Escape closes it', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await gotoHydrated(page, '/');
    const open = page.getByRole('button', { name: 'Open menu' });
    await expect(open).toHaveAttribute('aria-expanded', 'false');
    await expect(page.getByRole('banner').getByRole('link', { name: 'Resources', exact: true })).toBeHidden();

    await open.click();
    const close = page.getByRole('button', { name: 'Close menu' });
    await expect(close).toHaveAttribute('aria-expanded', 'true');
    await page.getByRole('banner').getByRole('link', { name: 'Resources', exact: true }).click();
    await expect(page).toHaveURL('/resources');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Wealth Building Resources');
    await expect(page.getByRole('button', { name: 'Open menu' })).toHaveAttribute('aria-expanded', 'false');
    await expect(page.getByRole('banner').getByRole('link', { name: 'Resources', exact: true })).toBeHidden();

    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(page.getByRole('banner').getByRole('link', { name: 'Contact', exact: true })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('banner').getByRole('link', { name: 'Contact', exact: true })).toBeHidden();
    // Focus goes back to the button that opened the menu.
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeFocused();
  });

  test('the menu works from the keyboard alone', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await gotoHydrated(page, '/about');
    await page.getByRole('button', { name: 'Open menu' }).focus();
    await page.keyboard.press('Enter');
    const link = page.getByRole('banner').getByRole('link', { name: 'Book a Session', exact: true });
    await expect(link).toBeVisible();
    await link.focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL('/book');
    await expect(link).toBeHidden();
  });
});

test.describe('footer', () => {
  test('every footer link navigates to its page', async ({ page }) => {
    await gotoHydrated(page, '/');
    const footer = page.getByRole('contentinfo');
    const links = [
      ['Our Services', '/services', 'Our Services'],
      ['AI Coaching', '/ai', 'AI-Powered Bitcoin Coaching'],
      ['Book a Session', '/book', 'Book Your Strategy Session'],
      ['About', '/about', /clarity/i],
      ['Resources', '/resources', 'Wealth Building Resources'],
      ['Contact', '/contact', 'Contact Us'],
      ['Privacy Policy', '/privacy', 'Privacy Notice'],
      ['Terms of Service', '/terms', 'Terms of Service'],
    ] as const;
    for (const [name, path, h1] of links) {
      await footer.getByRole('link', { name, exact: true }).click();
      await expect(page).toHaveURL(path);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(h1);
    }
    // No business details set (Business details in the console): no stand-in address in the footer.
    await expect(footer.locator('a[href^="mailto:"]')).toHaveCount(0);
  });
});

test.describe('scrolling on navigation', () => {
  test('/resources#download-kit reached from another page brings that section into view', async ({
    page,
  }) => {
    await gotoHydrated(page, '/about');
    await page.getByRole('contentinfo').getByRole('link', { name: 'Free Wealth Guide' }).click();
    await expect(page).toHaveURL('/resources#download-kit');
    await expect(page.locator('#download-kit')).toBeInViewport();
    // The fixed navbar does not cover the section's heading.
    const top = await page.locator('#download-kit').evaluate((el) => el.getBoundingClientRect().top);
    expect(top).toBeGreaterThanOrEqual(60);
  });

  test('loading /resources#download-kit directly shows that section', async ({ page }) => {
    await gotoHydrated(page, '/resources#download-kit');
    await expect(page.locator('#download-kit')).toBeInViewport();
  });

  test('a route change scrolls to the top', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await gotoHydrated(page, '/');
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
    await page.getByRole('contentinfo').getByRole('link', { name: 'About', exact: true }).click();
    await expect(page).toHaveURL('/about');
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await expect(page.getByRole('banner')).toHaveAttribute('data-solid', 'false');
  });

  test('in-page links to the masterclass registration and the download kit work', async ({ page }) => {
    // A masterclass open for registration (this server has none: events-public.spec.ts makes real ones).
    await routeNextEvent(page, fakeEvent());
    await gotoHydrated(page, '/resources');
    await page.getByRole('link', { name: 'Reserve Your Spot' }).click();
    await expect(page).toHaveURL('/resources#register');
    await expect(page.locator('#register')).toBeInViewport();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByRole('link', { name: 'Download the Free Guide' }).click();
    await expect(page.locator('#download-kit')).toBeInViewport();
  });
});

test.describe('toasts', () => {
  test('two toasts in a row leave exactly one visible', async ({ page }) => {
    await routeNextEvent(page, fakeEvent());
    await gotoHydrated(page, '/resources');
    const calendar = page.getByRole('link', { name: /^\+ Calendar/ });
    const region = page.getByRole('region', { name: /Notifications/ });

    const [first] = await Promise.all([page.waitForEvent('download'), calendar.click()]);
    expect(first.suggestedFilename()).toMatch(/^masterclass-\d{4}-\d{2}-\d{2}\.ics$/);
    await expect(region.getByRole('listitem')).toHaveCount(1);
    await expect(region.getByRole('listitem')).toContainText('Calendar file downloaded');

    await Promise.all([page.waitForEvent('download'), calendar.click()]);
    await expect(region.getByRole('listitem')).toHaveCount(1);
    await expect(region.getByRole('listitem')).toBeVisible();

    // The close button dismisses it.
    await region.getByRole('button', { name: 'Close notification' }).click();
    await expect(region.getByRole('listitem')).toHaveCount(0);
  });
});
