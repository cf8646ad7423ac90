/**
 * Two roles in the console (decision 032): the helper sees who they are and their role, the
 * pages they may use and no more; no export and no erasure anywhere, an owner's page named as the
 * owner's; the owner sees it all. The audit log says who did what in words and filters by person.
 */
import { expect, gotoHydrated } from './support/fixtures';
import { EXPECTED_CONSOLE_ERRORS, sendContact, test, uniqueTag } from './owner-support';

test.use({ allowConsoleErrors: EXPECTED_CONSOLE_ERRORS });
// Each test signs in for itself, so the sign-ins the audit log is read for are among its newest
// entries (its first page is the latest 50), not the worker's sign-in from long before.
test.use({ freshSignIn: true });

const HELPER_PAGES = ['Overview', 'Inbox', 'Spam', 'Bookings', 'Events', 'Audit log', 'Security'];
const OWNER_PAGES = ['Deliveries', 'Subscribers', 'People', 'Retention'];

test('a helper sees their name and role, their pages, and no export or erase', async ({
  helperPage: page,
  request,
}) => {
  const tag = uniqueTag('helper');
  await sendContact(request, {
    firstName: 'Held',
    lastName: tag,
    email: `${tag}@example.org`,
    message: 'Hi',
    spam: true,
  });

  const bar = page.locator('p', { hasText: 'Signed in as' });
  await expect(bar).toContainText('Ada');
  await expect(bar).toContainText('(Helper)');
  const nav = page.getByRole('navigation', { name: 'Console' });
  for (const name of HELPER_PAGES) await expect(nav.getByRole('link', { name, exact: true })).toBeVisible();
  for (const name of OWNER_PAGES) await expect(nav.getByRole('link', { name, exact: true })).toHaveCount(0);

  await gotoHydrated(page, '/owner/inbox');
  await expect(page.getByRole('heading', { level: 1, name: 'Inbox' })).toBeFocused();
  await expect(page.getByText('Loading…')).toHaveCount(0);
  await expect(page.getByRole('link', { name: /download/i })).toHaveCount(0);

  // A held message: "Not spam" is theirs, "Delete" the owner's.
  await gotoHydrated(page, '/owner/spam');
  await expect(page.getByText(`Held ${tag}`)).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: tag });
  await expect(row.getByRole('button', { name: 'Not spam' })).toBeVisible();
  await expect(row.getByRole('button', { name: 'Delete' })).toHaveCount(0);

  await gotoHydrated(page, '/owner/events');
  await expect(page.getByRole('heading', { level: 1, name: 'Events' })).toBeFocused();
  await expect(page.getByRole('link', { name: 'New event' })).toHaveCount(0);

  // An owner's page by its address: named as the owner's, nothing of it shown.
  for (const path of ['/owner/people', `/owner/people?email=${tag}@example.org`, '/owner/retention']) {
    await gotoHydrated(page, path);
    await expect(page.getByRole('heading', { level: 1, name: 'For the owner only' })).toBeFocused();
    await expect(page.getByRole('button', { name: /erase/i })).toHaveCount(0);
    await expect(page.getByRole('link', { name: /download/i })).toHaveCount(0);
  }

  // Their own audit log, in words, with no person filter.
  await gotoHydrated(page, '/owner/audit');
  await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeFocused();
  await expect(page.getByRole('cell', { name: 'Ada signed in with an e-mail link' }).first()).toBeVisible();
  await expect(page.getByLabel('Who')).toHaveCount(0);
});

test('the owner sees every page, the export and the audit log by person', async ({ ownerPage: page }) => {
  const bar = page.locator('p', { hasText: 'Signed in as' });
  await expect(bar).toContainText('(Owner)');
  const nav = page.getByRole('navigation', { name: 'Console' });
  for (const name of [...HELPER_PAGES, ...OWNER_PAGES]) {
    await expect(nav.getByRole('link', { name, exact: true })).toBeVisible();
  }
  await gotoHydrated(page, '/owner/inbox');
  await expect(page.getByRole('link', { name: 'Download these as CSV' })).toBeVisible();

  await gotoHydrated(page, '/owner/audit');
  await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeFocused();
  await page.getByLabel('Who').selectOption({ label: 'Owner (Owner)' });
  await page.getByLabel('Kind').selectOption({ label: 'Signing in and security' });
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/person=owner%40example\.com/);
  await expect(page.getByRole('cell', { name: 'Owner signed in with an e-mail link' }).first()).toBeVisible();
  await expect(page.getByRole('cell', { name: /^Ada / })).toHaveCount(0);

  // A day range with nothing in it, kept in the address; "Clear filters" takes every filter off.
  const search = page.getByRole('search', { name: 'Filter the audit log' });
  await search.getByLabel('From').fill('2020-01-01');
  await search.getByLabel('To').fill('2020-01-02');
  await search.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/from=2020-01-01.*to=2020-01-02/);
  await expect(page.getByRole('cell', { name: 'Owner signed in with an e-mail link' })).toHaveCount(0);
  await expect(search.getByLabel('From')).toHaveValue('2020-01-01');
  await search.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page).not.toHaveURL(/person=|from=|kind=/);
  await expect(page.getByRole('cell', { name: /^Ada / }).first()).toBeVisible();
});
