import { expect, gotoHydrated, test } from './support/fixtures';

test('the home page renders and hydrates without console errors', async ({ page, consoleErrors }) => {
  await gotoHydrated(page, '/');
  await expect(page.locator('h1')).toBeVisible();
  expect(consoleErrors).toEqual([]);
});
