/**
 * The fill time is measured by the server: a form asks for a signed token on its first focus
 * (not before), sends it back with the submission, and renews a token that expired while the
 * page sat open, without the visitor noticing.
 */
import type { Page, Request } from '@playwright/test';
import { expect, gotoHydrated, test } from './support/fixtures';
import { asNewVisitor, waitForMails } from './forms-support';

function tokenRequests(page: Page): Request[] {
  const seen: Request[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/api/form-token')) seen.push(request);
  });
  return seen;
}

async function fillNewsletter(page: Page, email: string) {
  const form = page.getByRole('form', { name: 'Subscribe to The Smart Money Newsletter' });
  await form.getByLabel('First Name').fill('Alan');
  await form.getByLabel('Last Name').fill('Turing');
  await form.getByLabel('Email Address').fill(email);
  return form;
}

test.describe('the fill-time token', () => {
  test('is fetched on the first focus only, and sent with the form', async ({ page }) => {
    const email = await asNewVisitor(page, 'fill-time');
    const requests = tokenRequests(page);
    await gotoHydrated(page, '/resources');
    // Whatever the page fetches by itself (after hydration, when idle) has been fetched.
    await page.waitForLoadState('networkidle');
    expect(requests).toHaveLength(0);

    const form = await fillNewsletter(page, email);
    await expect.poll(() => requests.length).toBe(1);
    expect(requests[0]!.postDataJSON()).toEqual({ formType: 'newsletter' });

    const sent = page.waitForRequest('**/api/send-contact-email');
    await form.getByRole('button', { name: 'Subscribe' }).click();
    const body = (await sent).postDataJSON() as Record<string, unknown>;
    expect(typeof body.formToken).toBe('string');
    expect(body).not.toHaveProperty('elapsedMs');
    await expect(page.getByText('Thank you for subscribing!', { exact: true })).toBeVisible();
    expect(requests).toHaveLength(1);
    await waitForMails(email, 2);
  });

  test('is renewed when it expired while the page sat open, and the form still goes through', async ({
    page,
  }) => {
    const email = await asNewVisitor(page, 'sat-open');
    await page.clock.install();
    const requests = tokenRequests(page);
    await gotoHydrated(page, '/resources');
    const form = await fillNewsletter(page, email);
    await expect.poll(() => requests.length).toBe(1);
    const first = (await (await requests[0]!.response())!.json()) as { token: string };

    // Forty minutes at the desk: the 30-minute token has run out.
    await page.clock.fastForward('40:00');
    const sent = page.waitForRequest('**/api/send-contact-email');
    await form.getByRole('button', { name: 'Subscribe' }).click();
    const body = (await sent).postDataJSON() as Record<string, unknown>;
    expect(requests).toHaveLength(2);
    expect(requests[1]!.postDataJSON()).toEqual({ formType: 'newsletter', renew: first.token });
    // The form sends the renewed token (the same bytes when renewed within the same second).
    const renewed = (await (await requests[1]!.response())!.json()) as { token: string };
    expect(body.formToken).toBe(renewed.token);
    await expect(page.getByText('Thank you for subscribing!', { exact: true })).toBeVisible();
    const mails = await waitForMails(email, 2);
    expect(mails.some((m) => m.header('to') === email)).toBe(true);
  });
});
