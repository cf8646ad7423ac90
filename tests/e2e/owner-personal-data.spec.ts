/**
 * Personal data in the console, in real Chromium against the owner server: an inbox view
 * downloaded as CSV (BOM, header, a formula neutralised, filtered as the screen), a person's
 * data downloaded as JSON, a person erased and nothing of them found afterwards, and an erased
 * (suppressed) address that submits the guide form: the normal thank-you, and no e-mail.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { expect, gotoHydrated } from './support/fixtures';
import {
  EXPECTED_CONSOLE_ERRORS,
  openConsole,
  readMails,
  sendContact,
  test,
  uniqueTag,
} from './owner-support';

test.use({ allowConsoleErrors: EXPECTED_CONSOLE_ERRORS });

test('an inbox view downloads as CSV, filtered as the screen, with formulas neutralised', async ({
  ownerPage: page,
  request,
}) => {
  const tag = uniqueTag('csv');
  await sendContact(request, {
    firstName: '=HYPERLINK("x")',
    lastName: tag,
    email: `${tag}@example.org`,
    message: 'Hi',
  });
  await sendContact(request, {
    firstName: 'Plain',
    lastName: tag,
    email: `${tag}.2@example.org`,
    message: 'Hi',
  });
  await openConsole(page, `/owner/inbox?q=${tag}`);
  await expect(page.getByRole('status').filter({ hasText: '2 submissions shown' })).toBeVisible();
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download these as CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^submissions-\d{4}-\d{2}-\d{2}\.csv$/);
  const bytes = readFileSync(await file.path());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const rows = parse(bytes.toString('utf8'), { bom: true, columns: true }) as Record<string, string>[];
  expect(rows).toHaveLength(2);
  expect(rows.map((r) => r['First name']).sort()).toEqual(['\'=HYPERLINK("x")', 'Plain']);
  expect(rows.every((r) => r['Last name'] === tag)).toBe(true);
});

test("a person's data downloads as JSON; erased, nothing of them is found, and the guide form mails them no guide, only the one e-mail asking them to confirm their address", async ({
  ownerPage: page,
  request,
}) => {
  const tag = uniqueTag('erase');
  const email = `${tag}@example.org`;
  const id = await sendContact(request, { firstName: 'Ada', lastName: tag, email, message: `About ${tag}` });
  await expect.poll(() => readMails().filter((m) => m.text.includes(tag)).length).toBeGreaterThan(0);

  await openConsole(page, '/owner/people');
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Find' }).click();
  await expect(page.getByRole('heading', { level: 2, name: email })).toBeVisible();
  await expect(page.getByText('This address is not on the suppression list.')).toBeVisible();

  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download (JSON)' }).click();
  const json = JSON.parse(readFileSync(await (await download).path(), 'utf8')) as {
    about: string;
    submissions: { id: string }[];
    emlFiles: { content: string }[];
  };
  expect(json.about).toBe(email);
  expect(json.submissions.map((s) => s.id)).toContain(id);
  expect(json.emlFiles.some((f) => f.content.includes(tag))).toBe(true);

  await page.getByRole('button', { name: 'Erase' }).click();
  const dialog = page.getByRole('dialog', { name: 'Erase this person?' });
  await expect(dialog).toContainText(email);
  await dialog.getByRole('button', { name: 'Erase' }).click();
  await expect(page.getByRole('status').filter({ hasText: /^Erased: 1 submissions/ })).toBeVisible();
  await expect(page.getByText('Nothing is held about this address.')).toBeVisible();
  await expect(
    page.getByText('This address is on the suppression list: nothing will be e-mailed to it.'),
  ).toBeVisible();

  // Nothing of them: not in the inbox, not in any e-mail file.
  await gotoHydrated(page, `/owner/inbox?q=${tag}&status=all`);
  await expect(page.getByRole('status').filter({ hasText: 'No submissions match.' })).toBeVisible();
  expect(readMails().filter((m) => m.raw.includes(tag) || m.raw.includes(email))).toEqual([]);

  // The erased address asks for the guide: the usual thank-you, and no e-mail to them.
  const visitor = await page.context().newPage();
  await visitor.setExtraHTTPHeaders({ 'x-forwarded-for': '198.51.100.77' });
  await gotoHydrated(visitor, '/');
  const form = visitor.getByRole('form', { name: 'Download the Wealth Building Guide' });
  await form.getByLabel('Full Name').fill('Ada Again');
  await form.getByLabel('Email Address').fill(email);
  await form.getByLabel('Current Role or Company').fill('Partner, Example LLP');
  await form.getByRole('checkbox', { name: /receive email communications/ }).check();
  const answered = visitor.waitForResponse('**/api/send-contact-email');
  await form.getByRole('button', { name: 'Download Free Guide' }).click();
  expect((await answered).status()).toBe(200);
  await expect(visitor.getByRole('heading', { name: 'Thank You' })).toBeVisible();
  // The owner's copy of the new lead is written; the guide e-mail to the visitor never is.
  await expect.poll(() => readMails().filter((m) => m.text.includes('Ada Again')).length).toBeGreaterThan(0);
  await expect
    .poll(async () => {
      const answer = await page.request.get('/api/owner/deliveries?status=suppressed');
      return ((await answer.json()) as { items: { to: string }[] }).items.filter((d) => d.to === email)
        .length;
    })
    .toBe(1);
  // What reaches the address is the one e-mail asking whether it wants mail again (decision 030):
  // no guide, and nothing of what was typed into the form.
  await expect.poll(() => readMails().filter((m) => (m.header('to') ?? '').includes(email)).length).toBe(1);
  const confirm = readMails().find((m) => (m.header('to') ?? '').includes(email))!;
  expect(confirm.file).toMatch(/address\.confirm\.eml$/);
  expect(confirm.text).not.toContain('Ada Again');
  expect(confirm.text).not.toContain('Example LLP');
});

test('subscribers, the suppression list and retention are listed; retention runs on demand', async ({
  ownerPage: page,
}) => {
  await openConsole(page, '/owner/subscribers');
  await expect(page.getByRole('link', { name: 'Download confirmed subscribers (CSV)' })).toHaveAttribute(
    'href',
    '/api/owner/exports/subscribers.csv',
  );
  await page.getByRole('link', { name: 'Unsubscribed' }).click();
  await expect(page.getByRole('link', { name: 'Unsubscribed' })).toHaveAttribute('aria-current', 'page');
  await page.getByRole('link', { name: 'See the suppression list' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Suppression list' })).toBeFocused();
  await gotoHydrated(page, '/owner/retention');
  await expect(page.getByText('Contact messages: 24 months after they arrive.')).toBeVisible();
  await page.getByRole('button', { name: 'Run now' }).click();
  // The server answers at once; the page follows the run until it ends and says so.
  await expect(page.getByRole('status').filter({ hasText: 'Retention ran.' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Run now' })).toBeEnabled();
  await expect(
    page.getByRole('table', { name: 'Retention runs, newest first' }).getByRole('row'),
  ).not.toHaveCount(1);
});
