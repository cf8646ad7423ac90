/**
 * The System page (decision 057): the owner opens it from the navigation and reads the backups,
 * the restore drill, the database, the outbox and the release; "Back up now" takes a real backup
 * into the test server's backups folder and the page follows it until it shows. Axe-clean at
 * 1280 and 390 px. A helper has no System page. The server's warnings show as a banner here and
 * on the overview, with a link to the System page.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { OWNER_DATA_DIR } from '../../playwright.config';
import { expectNoAxeViolations } from './support/axe';
import { expect, gotoHydrated } from './support/fixtures';
import { EXPECTED_CONSOLE_ERRORS, openConsole, sameOrigin, test } from './owner-support';

test.use({ allowConsoleErrors: EXPECTED_CONSOLE_ERRORS });

/** The owner server's backups: BACKUP_DIR is unset there, so DATA_DIR/backups. */
const BACKUP_DIR = join(OWNER_DATA_DIR, 'backups');

/** The backups in the folder with their manifest, newest first (their names sort by time). */
function backupsOnDisk(): string[] {
  let names: string[];
  try {
    names = readdirSync(BACKUP_DIR);
  } catch {
    return [];
  }
  return names
    .filter((name) => name.startsWith('backup-') && existsSync(join(BACKUP_DIR, name, 'manifest.json')))
    .sort()
    .reverse();
}

/** One fact of a section's definition list: its value, found by its label. */
function fact(page: Page, section: string, label: string) {
  return page
    .getByRole('region', { name: section })
    .locator('dl > div')
    .filter({ has: page.locator('dt', { hasText: label }) })
    .locator('dd');
}

async function noSidewaysScroll(page: Page, what: string) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, what).toBeLessThanOrEqual(0);
}

test('the owner reads the System page and takes a backup with "Back up now"', async ({ ownerPage: page }) => {
  await page
    .getByRole('navigation', { name: 'Console' })
    .getByRole('link', { name: 'System', exact: true })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'System' })).toBeFocused();
  await expect(page).toHaveURL(/\/owner\/system$/);
  await expect(page.getByText('Loading…')).toHaveCount(0);
  for (const name of ['Backups', 'Restore drill', 'Database', 'E-mail outbox', 'Release'])
    await expect(page.getByRole('region', { name }).getByRole('heading', { level: 2, name })).toBeVisible();

  // The test server's settings: the default hour, no copy command, the embedded database.
  await expect(fact(page, 'Backups', 'Schedule')).toHaveText('Every day at 03:00 UK time');
  await expect(fact(page, 'Backups', 'Kept in')).toHaveText(BACKUP_DIR);
  await expect(fact(page, 'Backups', 'Copy off the machine')).toHaveText('Not set up (BACKUP_COPY_COMMAND)');
  await expect(fact(page, 'Database', 'Kind')).toHaveText('PostgreSQL run by the server itself (embedded)');
  await expect(fact(page, 'Database', 'Version')).toHaveText(/^\d+(\.\d+)*$/);
  await expect(fact(page, 'Database', 'Size')).toHaveText(/^[\d.]+ (KB|MB|GB)$/);
  await expect(fact(page, 'Database', 'Free disk space')).toHaveText(
    /^[\d.]+ (KB|MB|GB|TB) free of [\d.]+ (KB|MB|GB|TB) \(\d+%\)$/,
  );
  await expect(fact(page, 'E-mail outbox', 'Waiting to be sent')).toHaveText(/^(None waiting|\d+ e-mails?)$/);
  await expect(fact(page, 'Release', 'Version running')).toHaveText(/^\d+\.\d+\.\d+/);
  await expect(fact(page, 'Release', 'Server started')).toHaveText(
    /(just now|ago) \(\d+ \w+ \d{4}, \d\d:\d\d\)$/,
  );

  const before = backupsOnDisk();
  const button = page.getByRole('button', { name: 'Back up now' });
  await button.click();
  // The page follows the backup until it has ended, then says so and shows it.
  await expect(page.getByRole('status')).toContainText(/Backed up: [\d.]+ (bytes|KB|MB|GB)\./, {
    timeout: 20_000,
  });
  await expect(button).toBeEnabled();
  await expect(fact(page, 'Backups', 'Last backup')).toHaveText(/^just now \(\d+ \w+ \d{4}, \d\d:\d\d\)$/);
  await expect(fact(page, 'Backups', 'Why it was taken')).toHaveText('Someone pressed “Back up now”');
  await expect(fact(page, 'Backups', 'Encrypted')).toContainText('No');
  await expect(fact(page, 'Backups', 'Size')).toHaveText(/^[\d.]+ (bytes|KB|MB|GB), taken in /);
  await expect(fact(page, 'Backups', 'Backups kept')).toContainText(
    'The server keeps 7 daily, 4 weekly and 6 monthly',
  );

  // It is really on the server's disk, with its manifest, and the page counts it.
  const after = backupsOnDisk();
  expect(after.length).toBeGreaterThan(0);
  expect(before).not.toContain(after[0]);
  await expect(fact(page, 'Backups', 'Backups kept')).toHaveText(new RegExp(`^${after.length} now\\.`));

  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoAxeViolations(page);
    await noSidewaysScroll(page, `/owner/system at ${width} px`);
  }
});

test('"Back up now" says "Backing up…" and waits while a backup is under way', async ({
  ownerPage: page,
}) => {
  // The server's answer held back: the page shows the backup it follows as under way.
  let running = true;
  await page.route('**/api/owner/system', async (route) => {
    const real = await route.fetch();
    const view = (await real.json()) as { backups: { running: boolean } };
    view.backups.running = view.backups.running || running;
    await route.fulfill({ response: real, json: view });
  });
  await openConsole(page, '/owner/system');
  const button = page.getByRole('button', { name: 'Backing up…' });
  await expect(button).toBeDisabled();
  running = false;
  // The page asks again every 2 s while one runs, and sees it end.
  await expect(page.getByRole('button', { name: 'Back up now' })).toBeEnabled({ timeout: 10_000 });
});

test('a warning shows on the System page and on the overview, with a link to the System page', async ({
  ownerPage: page,
}) => {
  const warning =
    'Scheduled backups are off (BACKUP_HOUR=off): take one from the System page, or turn them on.';
  // The test server's backups are on and fresh, so it has no warning of its own: one is added.
  await page.route('**/api/owner/overview', async (route) => {
    const real = await route.fetch();
    const overview = (await real.json()) as { systemWarnings: string[] };
    await route.fulfill({ response: real, json: { ...overview, systemWarnings: [warning] } });
  });
  await page.route('**/api/owner/system', async (route) => {
    const real = await route.fetch();
    const view = (await real.json()) as { warnings: string[] };
    await route.fulfill({ response: real, json: { ...view, warnings: [warning] } });
  });

  await gotoHydrated(page, '/owner');
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeFocused();
  const banner = page.locator('section', {
    has: page.getByRole('heading', { level: 2, name: 'Backups and the server need your attention' }),
  });
  await expect(banner.getByRole('listitem')).toHaveText([warning]);
  await expectNoAxeViolations(page);
  await banner.getByRole('link', { name: 'Open the System page' }).click();

  await expect(page.getByRole('heading', { level: 1, name: 'System' })).toBeFocused();
  const systemBanner = page.locator('section', {
    has: page.getByRole('heading', { level: 2, name: 'Needs your attention' }),
  });
  await expect(systemBanner.getByRole('listitem')).toHaveText([warning]);
  await expectNoAxeViolations(page);
});

test('a helper has no System page: not in the navigation, refused by its address', async ({
  helperPage: page,
}) => {
  const nav = page.getByRole('navigation', { name: 'Console' });
  await expect(nav.getByRole('link', { name: 'Inbox', exact: true })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'System', exact: true })).toHaveCount(0);
  // Nor any warning of the System page on their overview.
  await expect(page.getByRole('heading', { name: 'Backups and the server need your attention' })).toHaveCount(
    0,
  );

  await gotoHydrated(page, '/owner/system');
  await expect(page.getByRole('heading', { level: 1, name: 'For the owner only' })).toBeFocused();
  await expect(page.getByRole('button', { name: 'Back up now' })).toHaveCount(0);

  const view = await page.request.get('/api/owner/system', { headers: sameOrigin });
  expect(view.status()).toBe(403);
  const backup = await page.request.post('/api/owner/system/backup', { headers: sameOrigin, data: {} });
  expect(backup.status()).toBe(403);
});
