/**
 * The console for everyone: every page axe-clean and without sideways scrolling at 1280 and
 * 375 px, and a whole round (sign in, move between pages, filter, open a submission, a dialog)
 * with the keyboard alone, focus moving to each page's heading.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { expect, gotoHydrated } from './support/fixtures';
import { EXPECTED_CONSOLE_ERRORS, ownerLink, sendContact, test, uniqueTag } from './owner-support';

test.use({ allowConsoleErrors: EXPECTED_CONSOLE_ERRORS });

/**
 * Every console page, each its own test (a page's test signs in, opens it and runs axe), so a
 * loaded machine slows each test a little rather than pushing one long test past its timeout.
 * A new console page is one line here.
 */
const PAGES = [
  ['/owner', 'Overview'],
  ['/owner/inbox', 'Inbox'],
  ['/owner/spam', 'Spam'],
  ['/owner/bookings', 'Bookings'],
  ['/owner/events', 'Events'],
  ['/owner/events/new', 'New event'],
  ['/owner/calendar', 'Your calendar'],
  ['/owner/availability', 'Availability'],
  ['/owner/deliveries', 'Deliveries'],
  ['/owner/newsletter', 'Newsletter'],
  ['/owner/newsletter/new', 'New issue'],
  ['/owner/articles', 'Articles'],
  ['/owner/articles/new', 'New article'],
  ['/owner/business', 'Business details'],
  ['/owner/subscribers', 'Subscribers'],
  ['/owner/suppressions', 'Suppression list'],
  ['/owner/people', 'People'],
  ['/owner/retention', 'Retention'],
  ['/owner/system', 'System'],
  ['/owner/audit', 'Audit log'],
  ['/owner/security', 'Security'],
  ['/owner/visits', 'Visits'],
] as const;

/** The pages as a helper sees them (decision 032): their own audit log, and an owner's page. */
const HELPER_PAGES = [
  ['/owner/audit', 'Audit log'],
  ['/owner/people', 'For the owner only'],
] as const;

async function noSidewaysScroll(page: Page, what: string) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, what).toBeLessThanOrEqual(0);
}

/** A contact message from a person of its own: the pages of one person and one submission show it. */
async function aPerson(request: APIRequestContext, label: string): Promise<string> {
  const tag = uniqueTag(label);
  await sendContact(request, {
    firstName: 'Axe',
    lastName: tag,
    email: `${tag}@example.org`,
    message: 'Hello',
  });
  return tag;
}

for (const width of [1280, 375]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('the sign-in page has no violations', async ({ page }) => {
      await gotoHydrated(page, '/owner');
      await expect(page.getByRole('heading', { level: 1, name: 'Sign in to the console' })).toBeFocused();
      await expectNoAxeViolations(page);
      await noSidewaysScroll(page, 'sign-in');
    });

    for (const [path, heading] of PAGES) {
      test(`${path} has no violations and no sideways scroll`, async ({ ownerPage: page }) => {
        await gotoHydrated(page, path);
        await expect(page.getByRole('heading', { level: 1, name: heading })).toBeFocused();
        await expect(page.getByText('Loading…')).toHaveCount(0);
        await expectNoAxeViolations(page);
        await noSidewaysScroll(page, path);
      });
    }

    for (const [path, heading] of HELPER_PAGES) {
      test(`${path} as a helper has no violations and no sideways scroll`, async ({ helperPage: page }) => {
        await gotoHydrated(page, path);
        await expect(page.getByRole('heading', { level: 1, name: heading })).toBeFocused();
        await expect(page.getByText('Loading…')).toHaveCount(0);
        await expectNoAxeViolations(page);
        await noSidewaysScroll(page, path);
      });
    }

    test('a person with everything held has no violations', async ({ ownerPage: page, request }) => {
      const tag = await aPerson(request, 'axe');
      await gotoHydrated(page, `/owner/people?email=${tag}@example.org`);
      await expect(page.getByRole('heading', { level: 2, name: `${tag}@example.org` })).toBeVisible();
      await expectNoAxeViolations(page);
      await noSidewaysScroll(page, 'a person');
    });

    test('a submission has no violations', async ({ ownerPage: page, request }) => {
      const tag = await aPerson(request, 'axe');
      await gotoHydrated(page, `/owner/inbox?q=${tag}`);
      await page.getByRole('link', { name: `Axe ${tag}` }).click();
      await expect(page.getByRole('heading', { level: 1, name: `Axe ${tag}` })).toBeFocused();
      await expectNoAxeViolations(page);
      await noSidewaysScroll(page, 'submission');
    });
  });
}

test('keyboard only: sign in, move between pages, filter the inbox, open a submission', async ({
  page,
  request,
}) => {
  const tag = uniqueTag('keys');
  await sendContact(request, {
    firstName: 'Key',
    lastName: tag,
    email: `${tag}@example.org`,
    message: 'Typed',
  });
  const link = new URL(await ownerLink());
  await gotoHydrated(page, `${link.pathname}${link.search}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Finish signing in' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeFocused();

  // Tab to the navigation's "Inbox" and follow it: focus lands on the new page's heading.
  const inboxLink = page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Inbox' });
  for (let i = 0; i < 20 && !(await inboxLink.evaluate((el) => el === document.activeElement)); i += 1)
    await page.keyboard.press('Shift+Tab');
  await expect(inboxLink).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Inbox' })).toBeFocused();

  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Search')).toBeFocused();
  await page.keyboard.type(tag);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: '1 submission shown.' })).toBeVisible();
  const result = page.getByRole('link', { name: `Key ${tag}` });
  for (let i = 0; i < 30 && !(await result.evaluate((el) => el === document.activeElement)); i += 1)
    await page.keyboard.press('Tab');
  await expect(result).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: `Key ${tag}` })).toBeFocused();

  // A dialog opens from the keyboard, keeps focus inside, and Escape gives focus back.
  await page.getByRole('button', { name: 'Mark as spam' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'Moved to spam.' })).toBeVisible();
  const remove = page.getByRole('button', { name: 'Delete' });
  await remove.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Delete this submission?' })).toBeVisible();
  await expect(page.getByRole('dialog').getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(remove).toBeFocused();
});
