/**
 * A form sent while the database cannot be reached (decision 031): the server answers 503 with
 * Retry-After, the form keeps every value and shows the spec's "please try again" message, and
 * sending again once the database is back goes through. The outage is the server's own answer
 * (tests/server/outages.test.ts), played here by the route.
 */
import type { Page } from '@playwright/test';
import { expect, gotoHydrated, test } from './support/fixtures';
import { asNewVisitor } from './forms-support';

const OUTAGE = {
  status: 503,
  headers: { 'retry-after': '5' },
  contentType: 'application/json',
  body: JSON.stringify({
    error: 'The database cannot be reached just now. Please try again in a few seconds.',
  }),
};

/** The form endpoint answers as during an outage, `times` times, then reaches the server. */
async function outageFor(page: Page, times: number) {
  let calls = 0;
  await page.route('**/api/send-contact-email', (route) => {
    calls += 1;
    return calls <= times ? route.fulfill(OUTAGE) : route.continue();
  });
  return () => calls;
}

test.describe('a form sent during a database outage', () => {
  test.use({
    allowConsoleErrors:
      /Guide request failed|Failed to load resource: the server responded with a status of 503/,
  });

  test('the contact form keeps every value, says to try again, and sends once the database is back', async ({
    page,
  }) => {
    const email = await asNewVisitor(page, 'outage');
    await gotoHydrated(page, '/contact');
    const calls = await outageFor(page, 1);
    const form = page.getByRole('form', { name: 'Send Us a Message' });
    await form.getByLabel('First Name').fill('Ada');
    await form.getByLabel('Last Name').fill('Lovelace');
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('Company').fill('Analytical Engines Ltd');
    await form.getByLabel('Subject').selectOption('consulting');
    await form.getByLabel('Message').fill('Could we talk about custody?');
    await form.getByRole('checkbox', { name: /collecting my data/ }).check();
    await form.getByRole('button', { name: 'Send Message' }).click();

    await expect(page.getByText('Failed to send message. Please try again.', { exact: true })).toBeVisible();
    await expect(form.getByLabel('First Name')).toHaveValue('Ada');
    await expect(form.getByLabel('Last Name')).toHaveValue('Lovelace');
    await expect(form.getByLabel('Email')).toHaveValue(email);
    await expect(form.getByLabel('Company')).toHaveValue('Analytical Engines Ltd');
    await expect(form.getByLabel('Subject')).toHaveValue('consulting');
    await expect(form.getByLabel('Message')).toHaveValue('Could we talk about custody?');
    await expect(form.getByRole('checkbox', { name: /collecting my data/ })).toBeChecked();

    const answered = page.waitForResponse('**/api/send-contact-email');
    await form.getByRole('button', { name: 'Send Message' }).click();
    expect((await answered).status()).toBe(200);
    await expect(page.getByRole('heading', { name: 'Thank You!' })).toBeVisible();
    expect(calls()).toBe(2);
  });

  test('the guide form keeps every value and says to try again', async ({ page }) => {
    await gotoHydrated(page, '/resources#download-kit');
    await outageFor(page, 1);
    const form = page
      .locator('#download-kit')
      .getByRole('form', { name: 'Download the Wealth Building Guide' });
    await form.getByLabel('Full Name').fill('Grace Hopper');
    await form.getByLabel('Email Address').fill('grace@example.org');
    await form.getByLabel('Current Role or Company').fill('Financial Planner');
    await form.getByRole('checkbox').check();
    await form.getByRole('button', { name: 'Download Free Guide' }).click();
    await expect(
      page.getByText('Failed to submit request. Please try again.', { exact: true }),
    ).toBeVisible();
    await expect(form.getByLabel('Full Name')).toHaveValue('Grace Hopper');
    await expect(form.getByLabel('Email Address')).toHaveValue('grace@example.org');
    await expect(form.getByLabel('Current Role or Company')).toHaveValue('Financial Planner');
    await expect(form.getByRole('checkbox')).toBeChecked();
    await expect(form.getByRole('button', { name: 'Download Free Guide' })).toBeEnabled();
  });
});
