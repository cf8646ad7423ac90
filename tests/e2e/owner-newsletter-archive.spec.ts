/**
 * The newsletter's archive (issue #26 item 6) in real Chromium against the owner server: a sent
 * issue's page offers "On the site"; the owner puts it there after a dialog, follows its link and
 * reads it as a visitor would (its text, its date, the invitation to subscribe, no personal link),
 * finds it on `/newsletter` and the Resources page's link to the archive; then takes it off, and
 * its address is the 404 page. The archive's pages are axe-clean at 1280 and 375 px.
 */
import type { Page } from '@playwright/test';
import type { IssueDetail } from '../../src/features/newsletter/issues-console-contract';
import { expectNoAxeViolations } from './support/axe';
import { expect, gotoHydrated } from './support/fixtures';
import { EXPECTED_CONSOLE_ERRORS, sameOrigin, test, uniqueTag } from './owner-support';

test.use({ allowConsoleErrors: EXPECTED_CONSOLE_ERRORS });

/** An issue written and sent through the console's API; resolved once it is sent. */
async function sentIssue(page: Page, subject: string, line: string): Promise<IssueDetail> {
  const created = await page.request.post('/api/owner/newsletter/issues', {
    headers: sameOrigin,
    data: { subject, preheader: 'Four minutes on what changes', body: `## The halving\n\n${line}\n` },
  });
  expect(created.status(), await created.text()).toBe(200);
  const issue = (await created.json()) as IssueDetail;
  const sent = await page.request.post(`/api/owner/newsletter/issues/${issue.id}/send`, {
    headers: sameOrigin,
    data: { at: '' },
  });
  expect(sent.status(), await sent.text()).toBe(200);
  await expect
    .poll(async () => ((await (await page.request.get(`/api/owner/newsletter/issues/${issue.id}`)).json()) as IssueDetail).status, {
      timeout: 60_000,
    })
    .toBe('sent');
  return issue;
}

test('the owner puts a sent issue on the site, a visitor reads it there, and it comes off again', async ({
  ownerPage: page,
}) => {
  test.setTimeout(120_000);
  const tag = uniqueTag('archive');
  const subject = `Smart money notes ${tag}`;
  const line = `The halving, explained for ${tag}.`;
  const issue = await sentIssue(page, subject, line);

  await page.goto(`/owner/newsletter/${issue.id}`);
  const site = page.getByRole('region', { name: 'On the site' });
  await expect(site).toContainText('no reader’s unsubscribe link');
  // It asks first.
  await site.getByRole('button', { name: 'Put on the site' }).click();
  const dialog = page.getByRole('dialog', { name: 'Put this issue on the site?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Not now' }).click();
  await expect(dialog).toBeHidden();
  await site.getByRole('button', { name: 'Put on the site' }).click();
  await dialog.getByRole('button', { name: 'Put on the site' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The issue is on the site.' })).toBeVisible();
  const link = site.getByRole('link');
  await expect(link).toHaveText(/^\/newsletter\/smart-money-notes-/);
  const path = (await link.getAttribute('href'))!;
  await expect.poll(async () => (await page.request.get(path)).status(), { timeout: 30_000 }).toBe(200);

  // As a visitor reads it: its text and date, the invitation to subscribe, nothing personal.
  await gotoHydrated(page, path);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(subject);
  const main = page.getByRole('main');
  await expect(main).toContainText(line);
  await expect(main).toContainText(/Sent \d{1,2} \w+ \d{4}/);
  await expect(
    page.getByRole('complementary', { name: 'Get the next issue by e-mail' }).getByRole('link', {
      name: 'Subscribe to the newsletter',
    }),
  ).toHaveAttribute('href', '/resources#newsletter');
  expect(await page.content()).not.toMatch(/unsubscribe\?token/);
  await expectNoAxeViolations(page);

  // Listed on the archive, which the Resources page links to.
  await gotoHydrated(page, '/resources');
  await page.getByRole('link', { name: 'Read past issues' }).click();
  await expect(page).toHaveURL(/\/newsletter$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Past issues' })).toBeVisible();
  await expect(page.getByRole('link', { name: subject })).toHaveAttribute('href', path);
  await expectNoAxeViolations(page);

  // Taken off (after its dialog): the address finds the 404 page.
  await page.goto(`/owner/newsletter/${issue.id}`);
  await site.getByRole('button', { name: 'Take off the site' }).click();
  await page
    .getByRole('dialog', { name: 'Take this issue off the site?' })
    .getByRole('button', { name: 'Take off the site' })
    .click();
  await expect(page.getByRole('status').filter({ hasText: 'The issue is no longer on the site.' })).toBeVisible();
  await expect(site.getByRole('button', { name: 'Put on the site' })).toBeVisible();
  await expect.poll(async () => (await page.request.get(path)).status(), { timeout: 30_000 }).toBe(404);
});

for (const width of [1280, 375]) {
  test(`the empty or filled archive has no violations and no sideways scroll at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await gotoHydrated(page, '/newsletter');
    await expect(page.getByRole('heading', { level: 1, name: 'Past issues' })).toBeVisible();
    await expectNoAxeViolations(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });
}
