import { expectNoAxeViolations } from './support/axe';
import { expect, gotoHydrated, test } from './support/fixtures';
import { fakeEvent, routeNextEvent } from './support/next-event';
import { SITE_ROUTES } from './support/site-routes';

for (const width of [1280, 375]) {
  test.describe(`axe at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    for (const route of SITE_ROUTES) {
      test(`${route.path} has no violations`, async ({ page }) => {
        await gotoHydrated(page, route.path);
        await expectNoAxeViolations(page);
      });
    }

    test.describe('the 404 page', () => {
      test.use({
        allowConsoleErrors:
          /^404 Error: User attempted|Failed to load resource: the server responded with a status of 404/,
      });
      test('has no violations', async ({ page }) => {
        await gotoHydrated(page, '/missing-page');
        await expectNoAxeViolations(page);
      });
    });
  });
}

test('the open mobile menu and a toast have no violations', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  // A masterclass, so that '+ Calendar' is there to raise a toast.
  await routeNextEvent(page, fakeEvent());
  await gotoHydrated(page, '/resources');
  await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: /^\+ Calendar/ }).click(),
  ]);
  await expect(page.getByRole('region', { name: /Notifications/ }).getByRole('listitem')).toBeVisible();
  await page.getByRole('button', { name: 'Open menu' }).click();
  await expect(page.getByRole('button', { name: 'Close menu' })).toBeVisible();
  await expectNoAxeViolations(page);
});

test('at 320 px no page scrolls sideways', async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 700 });
  for (const route of SITE_ROUTES) {
    await gotoHydrated(page, route.path);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, route.path).toBeLessThanOrEqual(0);
  }
});
