/**
 * The console on a phone (390 x 844) in real Chromium: the navigation folds into a "Menu"
 * button that names the current page, opens and is followed with the keyboard, and takes a
 * sliver of the screen when closed; a list's table reflows into cards, each cell under its
 * column's heading, so the Deliveries "To" column is no longer a letter a line; axe finds
 * nothing on the pages a phone shows differently.
 */
import type { Page } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { expect, gotoHydrated } from './support/fixtures';
import {
  EXPECTED_CONSOLE_ERRORS,
  OWNER_EMAIL,
  openConsole,
  requestBooking,
  sendContact,
  test,
  uniqueTag,
} from './owner-support';

const PHONE = { width: 390, height: 844 };

test.use({ allowConsoleErrors: EXPECTED_CONSOLE_ERRORS, viewport: PHONE });

const consoleNav = (page: Page) => page.getByRole('navigation', { name: 'Console' });
const menuButton = (page: Page) => consoleNav(page).getByRole('button', { name: /^Menu/ });

/** Presses `key` until `target` has focus (at most `tries` times). */
async function pressUntilFocused(page: Page, key: string, target: ReturnType<Page['locator']>, tries = 20) {
  for (let i = 0; i < tries && !(await target.evaluate((el) => el === document.activeElement)); i += 1)
    await page.keyboard.press(key);
  await expect(target).toBeFocused();
}

test('the menu is one button that names the page, opens, and is followed with the keyboard', async ({
  ownerPage: page,
}) => {
  const nav = consoleNav(page);
  const menu = menuButton(page);
  await expect(menu).toHaveAccessibleName(/^Menu\W+current page: Overview$/);
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  // Closed, its links are out of sight and out of the tab order, and it takes a sliver of the screen.
  await expect(nav.getByRole('link')).toHaveCount(0);
  const closed = await nav.boundingBox();
  expect(closed!.height).toBeLessThan(PHONE.height * 0.15);

  // From the page's heading back to the button, open it, and Tab down to "Deliveries".
  await pressUntilFocused(page, 'Shift+Tab', menu);
  await page.keyboard.press('Enter');
  await expect(menu).toHaveAttribute('aria-expanded', 'true');
  await expect(nav.getByRole('link')).toHaveCount(11);
  await page.keyboard.press('Tab');
  await expect(nav.getByRole('link', { name: 'Overview' })).toBeFocused();
  await expect(nav.getByRole('link', { name: 'Overview' })).toHaveAttribute('aria-current', 'page');
  await expectNoAxeViolations(page);

  // Escape closes it and gives focus back to the button.
  await page.keyboard.press('Escape');
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await expect(menu).toBeFocused();

  await page.keyboard.press('Space');
  const deliveries = nav.getByRole('link', { name: 'Deliveries' });
  await pressUntilFocused(page, 'Tab', deliveries);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Deliveries' })).toBeFocused();
  await expect(page).toHaveURL(/\/owner\/deliveries$/);
  // The page followed, the menu is closed again and names it.
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await expect(menu).toHaveAccessibleName(/^Menu\W+current page: Deliveries$/);
  await expect(nav.getByRole('link')).toHaveCount(0);
});

test('a table reflows into cards: each cell under its heading, the "To" column readable', async ({
  ownerPage: page,
  request,
}) => {
  const tag = uniqueTag('phone');
  await sendContact(request, {
    firstName: 'Mary',
    lastName: tag,
    email: `${tag}@example.org`,
    message: `Read on a phone ${tag}`,
  });
  await openConsole(page, '/owner/deliveries');
  const row = page.getByRole('row', { name: new RegExp(tag) });
  const to = row.getByRole('cell', { name: OWNER_EMAIL });
  await expect(to).toBeVisible();

  // The cell spans the card: the address is on a line or two, not a letter a line.
  const box = (await to.boundingBox())!;
  expect(box.width).toBeGreaterThan(120);
  expect(box.height).toBeLessThan(80);
  // It shows its column's heading above the value.
  expect(await to.evaluate((el) => getComputedStyle(el, '::before').content)).toContain('"To"');
  // Every card fits the screen: the table's box has nothing to scroll sideways, nor has the page.
  const region = page.getByRole('region', { name: 'E-mail deliveries' });
  expect(await region.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
  ).toBeLessThanOrEqual(0);
});

test('the console at phone width has no axe violations', async ({ ownerPage: page, request }) => {
  const tag = uniqueTag('phoneaxe');
  await sendContact(request, {
    firstName: 'Axe',
    lastName: tag,
    email: `${tag}@example.org`,
    message: 'Hello',
  });
  // A booking request, so Bookings shows a card with its confirm form.
  const { reference } = await requestBooking(request, { lastName: tag, email: `${tag}@example.org` });
  const pages = [
    ['/owner/inbox', `Axe ${tag}`],
    ['/owner/deliveries', tag],
    ['/owner/bookings', reference],
    ['/owner/audit', 'sign-in.link'],
  ] as const;
  await expectNoAxeViolations(page);
  for (const [path, shown] of pages) {
    await gotoHydrated(page, path);
    await expect(page.locator('h1')).toBeFocused();
    await expect(page.getByText(shown).first()).toBeVisible();
    await expectNoAxeViolations(page);
  }
});
