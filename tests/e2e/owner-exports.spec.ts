/**
 * The console's downloads as the owner meets them (decision 033), in real Chromium against the
 * owner server: a contact message that tries to inject a row downloads as one quoted cell with
 * its formula neutralised; a download refused because another export runs says so; a download
 * cut short is not saved and the console says the export failed.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { downloadCopy } from '../../src/content/console';
import { expect } from './support/fixtures';
import { EXPECTED_CONSOLE_ERRORS, openConsole, sendContact, test, uniqueTag } from './owner-support';

test.use({ allowConsoleErrors: EXPECTED_CONSOLE_ERRORS });

const INJECTION = "Please call me back.\n=cmd|' /C calc'!A0\nfakeid;contact;2026-01-01";

test('a message that tries to inject a row downloads as one quoted cell, its formula neutralised', async ({
  ownerPage: page,
  request,
}) => {
  const tag = uniqueTag('inject');
  await sendContact(request, {
    firstName: 'Ada',
    lastName: tag,
    email: `${tag}@example.org`,
    message: INJECTION,
  });
  await openConsole(page, `/owner/inbox?q=${tag}`);
  await expect(page.getByRole('status').filter({ hasText: '1 submission shown' })).toBeVisible();
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download these as CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^submissions-\d{4}-\d{2}-\d{2}\.csv$/);
  await expect(
    page.getByRole('status').filter({ hasText: downloadCopy.done(file.suggestedFilename()) }),
  ).toBeVisible();
  const text = readFileSync(await file.path(), 'utf8');
  const rows = parse(text, { bom: true, columns: true }) as Record<string, string>[];
  expect(rows).toHaveLength(1);
  expect(rows[0]!.Message).toBe("Please call me back.\n'=cmd|' /C calc'!A0\nfakeid;contact;2026-01-01");
  for (const line of text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/))
    expect(line).not.toMatch(/^[=+\-@\t\r]/);
});

test('a download refused while another export runs says so, and nothing is saved', async ({
  ownerPage: page,
}) => {
  // The server's own answer to a second export (its test: tests/server/console-exports.test.ts).
  await page.route('**/api/owner/exports/subscribers.csv', (route) =>
    route.fulfill({ status: 409, json: { error: downloadCopy.busy } }),
  );
  let saved = false;
  page.on('download', () => {
    saved = true;
  });
  await openConsole(page, '/owner/subscribers');
  await page.getByRole('link', { name: 'Download confirmed subscribers (CSV)' }).click();
  await expect(page.getByRole('alert')).toHaveText(downloadCopy.busy);
  expect(saved).toBe(false);
});

test.describe('a connection that ends early', () => {
  // The browser logs the failed request itself.
  test.use({
    allowConsoleErrors: new RegExp(
      `${EXPECTED_CONSOLE_ERRORS.source}|^Failed to load resource: net::ERR_FAILED$`,
    ),
  });

  test('a download whose connection ends early is not saved, and the console says the export failed', async ({
    ownerPage: page,
  }) => {
    let saved = false;
    page.on('download', () => {
      saved = true;
    });
    await page.route('**/api/owner/exports/subscribers.csv', (route) => route.abort('failed'));
    await openConsole(page, '/owner/subscribers');
    await page.getByRole('link', { name: 'Download confirmed subscribers (CSV)' }).click();
    await expect(page.getByRole('alert')).toHaveText(downloadCopy.failed);
    expect(saved).toBe(false);
  });
});

test("a file ending with the server's failure row is not saved, and the console says the export failed", async ({
  ownerPage: page,
}) => {
  let saved = false;
  page.on('download', () => {
    saved = true;
  });
  // As a cut export ends: the rows that went, then the failure row.
  await page.route('**/api/owner/exports/subscribers.csv', async (route) => {
    const real = await route.fetch();
    await route.fulfill({ response: real, body: `${await real.text()}${downloadCopy.cutRow}\r\n` });
  });
  await openConsole(page, '/owner/subscribers');
  await page.getByRole('link', { name: 'Download confirmed subscribers (CSV)' }).click();
  await expect(page.getByRole('alert')).toHaveText(downloadCopy.failed);
  expect(saved).toBe(false);
});

test("a whole file whose last row quotes the failure row's words in a visitor's cell is saved", async ({
  ownerPage: page,
}) => {
  const download = page.waitForEvent('download');
  // A visitor's name holding the words, as the last row of a whole export writes it.
  await page.route('**/api/owner/exports/subscribers.csv', async (route) => {
    const real = await route.fetch();
    await route.fulfill({
      response: real,
      body: `${await real.text()}someone@example.org,${downloadCopy.cutRow},confirmed\r\n`,
    });
  });
  await openConsole(page, '/owner/subscribers');
  await page.getByRole('link', { name: 'Download confirmed subscribers (CSV)' }).click();
  expect((await download).suggestedFilename()).toMatch(/\.csv$/);
  await expect(page.getByText(downloadCopy.failed)).toHaveCount(0);
});
