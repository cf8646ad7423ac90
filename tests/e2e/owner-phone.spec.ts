/**
 * The console on a phone (390 x 844) in real Chromium: the navigation folds into a "Menu"
 * button that names the current page, opens and is followed with the keyboard, and takes a
 * sliver of the screen when closed; a list's table reflows into cards, each cell under its
 * column's heading, so the Deliveries "To" column is no longer a letter a line; axe finds
 * nothing on the pages a phone shows differently.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { expect, gotoHydrated } from './support/fixtures';
import { consoleNav as CONSOLE_PAGES } from '../../src/content/console';
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
  // Every page of the console: the owner may use them all.
  await expect(nav.getByRole('link')).toHaveCount(CONSOLE_PAGES.length);
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

test('no console page shows a raw table on a phone: every table reflows into cards', async ({
  ownerPage: page,
}) => {
  for (const { path: relative } of CONSOLE_PAGES) {
    const path = relative ? `/owner/${relative}` : '/owner';
    await gotoHydrated(page, path);
    await expect(page.locator('h1')).toBeFocused();
    await expect(page.getByText('Loading…')).toHaveCount(0);
    const tables = await page.locator('main table').evaluateAll((all) =>
      all.map((table) => ({
        name: table.closest('[role=region]')?.getAttribute('aria-label') ?? table.textContent?.slice(0, 40),
        display: getComputedStyle(table).display,
      })),
    );
    expect(
      tables.filter((table) => table.display !== 'block'),
      `${path}: tables that do not reflow`,
    ).toEqual([]);
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
      `${path} scrolls sideways`,
    ).toBeLessThanOrEqual(0);
  }
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
    // Its sign-in entries: the console tests start from their worker's session, so the latest
    // sign-in may be further back than the unfiltered log's first page.
    ['/owner/audit?kind=security', 'signed in with an e-mail link'],
  ] as const;
  await expectNoAxeViolations(page);
  for (const [path, shown] of pages) {
    await gotoHydrated(page, path);
    await expect(page.locator('h1')).toBeFocused();
    await expect(page.getByText(shown).first()).toBeVisible();
    await expectNoAxeViolations(page);
  }
});

/**
 * A sender whose name, company, address and message are each one long word: on a 375 px phone
 * no console page that shows them scrolls sideways. `overflow-wrap: break-word` alone is not
 * enough there: a flex or grid item is as wide as its longest word unless it may break anywhere.
 */
test.describe('long unbroken words at 375 px', () => {
  const NARROW = { width: 375, height: 800 };
  test.use({ viewport: NARROW });

  /** `tag` followed by letters up to `length`: one word, unique to the test. */
  const word = (tag: string, length: number) => tag + 'W'.repeat(length - tag.length);

  /** A contact message and a booking request from one such sender (every limit of the forms reached). */
  async function longSender(request: APIRequestContext) {
    const tag = uniqueTag('wide');
    const sender = {
      firstName: word(tag, 50),
      lastName: word(tag, 50),
      email: `${word(tag, 88).toLowerCase()}@example.org`,
      company: word(tag, 100),
    };
    const id = await sendContact(request, { ...sender, message: `${word(tag, 400)}\nSecond line` });
    const { reference } = await requestBooking(request, { ...sender, role: word(tag, 100) });
    return { ...sender, tag, id, reference };
  }

  /**
   * The page is no wider than the screen: nothing scrolls sideways. Nor does a table's box, which
   * scrolls inside itself rather than widen the page: on a phone its rows are cards that fit.
   */
  async function expectNoSidewaysScroll(page: Page) {
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
    }));
    expect(innerWidth).toBe(NARROW.width);
    expect(scrollWidth, 'the page scrolls sideways').toBeLessThanOrEqual(innerWidth);
    for (const box of await page.locator('[role="region"][tabindex="0"]').all()) {
      const name = await box.getAttribute('aria-label');
      expect(
        await box.evaluate((el) => el.scrollWidth - el.clientWidth),
        `${name} scrolls sideways`,
      ).toBeLessThanOrEqual(0);
    }
  }

  test('a submission’s page', async ({ ownerPage: page, request }) => {
    const sender = await longSender(request);
    await openConsole(page, `/owner/inbox/${sender.id}`);
    await expect(page.locator('h1')).toHaveText(`${sender.firstName} ${sender.lastName}`);
    await expect(page.getByText(sender.company).first()).toBeVisible();
    // Its e-mails, whose subjects carry the name, as cards.
    await expect(page.getByRole('region', { name: 'E-mail deliveries' })).toBeVisible();
    await expectNoSidewaysScroll(page);
  });

  test('the person’s page', async ({ ownerPage: page, request }) => {
    const sender = await longSender(request);
    await openConsole(page, `/owner/people?email=${encodeURIComponent(sender.email)}`);
    await expect(page.getByRole('heading', { level: 2, name: sender.email })).toBeVisible();
    await expect(page.getByText(sender.reference).first()).toBeVisible();
    await expectNoSidewaysScroll(page);
    // "Erase" asks first, naming the address: the question fits its dialog.
    await page.getByRole('button', { name: 'Erase' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(sender.email);
    expect(await dialog.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    await expectNoSidewaysScroll(page);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
  });

  test('the inbox', async ({ ownerPage: page, request }) => {
    const sender = await longSender(request);
    await openConsole(page, `/owner/inbox?q=${encodeURIComponent(sender.tag)}`);
    await expect(page.getByRole('link', { name: `${sender.firstName} ${sender.lastName}` })).toHaveCount(2);
    await expectNoSidewaysScroll(page);
  });

  test('the bookings', async ({ ownerPage: page, request }) => {
    const sender = await longSender(request);
    await openConsole(page, '/owner/bookings');
    await expect(page.getByRole('heading', { level: 3, name: new RegExp(sender.reference) })).toBeVisible();
    await expectNoSidewaysScroll(page);
  });
});
