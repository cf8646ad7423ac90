import { expectNoAxeViolations } from './support/axe';
import { expect, gotoHydrated, test } from './support/fixtures';
import { asNewVisitor, blockOnDemandChunks, holdForms, pathOf, waitForMails } from './forms-support';

test.describe('the newsletter sign-up', () => {
  test('subscribes, clears the form, and completes the double opt-in and one-click unsubscribe', async ({
    page,
    request,
  }) => {
    const email = await asNewVisitor(page, 'news');
    await gotoHydrated(page, '/resources#newsletter');
    const form = page.getByRole('form', { name: 'Subscribe to The Smart Money Newsletter' });
    await form.getByLabel('First Name').fill('Alan');
    await form.getByLabel('Last Name').fill('Turing');
    await form.getByLabel('Email Address').fill(email);
    const held = await holdForms(page);
    const response = page.waitForResponse('**/api/send-contact-email');
    await form.getByRole('button', { name: 'Subscribe' }).click();
    await expect(form.getByRole('button', { name: 'Subscribing...' })).toBeDisabled();
    held.release();
    expect((await response).status()).toBe(200);
    await expect(page.getByText('Thank you for subscribing!', { exact: true })).toBeVisible();
    await expect(form.getByLabel('First Name')).toHaveValue('');
    await expect(form.getByLabel('Last Name')).toHaveValue('');
    await expect(form.getByLabel('Email Address')).toHaveValue('');

    // The owner hears of the subscriber; the subscriber gets the confirmation link.
    const mails = await waitForMails(email, 2);
    const confirmation = mails.find((m) => m.header('to') === email)!;
    expect(mails.some((m) => m.header('to') !== email && m.text.includes('Alan'))).toBe(true);
    expect(confirmation.header('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    const confirmLink = /http:\/\/127\.0\.0\.1:\d+\/newsletter\/confirm\?token=\S+/.exec(
      confirmation.text,
    )![0];
    const unsubscribeLink = /http:\/\/127\.0\.0\.1:\d+\/newsletter\/unsubscribe\?token=\S+/.exec(
      confirmation.text,
    )![0];
    const oneClick = /^<([^>]+)>$/.exec(confirmation.header('list-unsubscribe')!)![1]!;

    // Opening the link changes nothing; the button confirms.
    await gotoHydrated(page, pathOf(confirmLink));
    await expect(page.getByRole('heading', { level: 1, name: 'Confirm your subscription' })).toBeVisible();
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Confirm my subscription' }).click();
    await expect(page.getByText(/your subscription is confirmed/)).toBeVisible();

    // The unsubscribe page works the same way ...
    await gotoHydrated(page, pathOf(unsubscribeLink));
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await expect(page.getByText('You have been unsubscribed.', { exact: false })).toBeVisible();

    // ... and a mail provider's RFC 8058 one-click POST is answered without any page.
    const res = await request.post(pathOf(oneClick), {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      data: 'List-Unsubscribe=One-Click',
    });
    expect(res.status()).toBe(200);
    expect(await res.json()).toEqual({ status: 'unsubscribed' });
  });

  test.describe('refusals', () => {
    test.use({ allowConsoleErrors: /Failed to load resource/ });

    test('keeps the fields and shows the failure toast when the server fails', async ({ page }) => {
      await gotoHydrated(page, '/resources#newsletter');
      await page.route('**/api/send-contact-email', (route) =>
        route.fulfill({
          status: 503,
          contentType: 'application/json',
          body: JSON.stringify({ error: 'Unavailable' }),
        }),
      );
      const form = page.getByRole('form', { name: 'Subscribe to The Smart Money Newsletter' });
      await form.getByLabel('First Name').fill('Alan');
      await form.getByLabel('Last Name').fill('Turing');
      await form.getByLabel('Email Address').fill('alan@example.org');
      await form.getByRole('button', { name: 'Subscribe' }).click();
      await expect(page.getByText('Failed to subscribe. Please try again.', { exact: true })).toBeVisible();
      await expect(form.getByLabel('First Name')).toHaveValue('Alan');
      await expect(form.getByLabel('Email Address')).toHaveValue('alan@example.org');
    });

    test('loads its validation on first use; a validation chunk that cannot be fetched is a failed request', async ({
      page,
    }) => {
      const { fetched, unblock } = await blockOnDemandChunks(page, 'newsletter-validation');
      let requests = 0;
      await page.route('**/api/send-contact-email', (route) => {
        requests += 1;
        return route.abort();
      });
      await gotoHydrated(page, '/resources#newsletter');
      expect(fetched, 'zod and the schema are not part of the first load').toEqual([]);

      const form = page.getByRole('form', { name: 'Subscribe to The Smart Money Newsletter' });
      await form.getByLabel('First Name').fill('Alan');
      await form.getByLabel('Email Address').fill('nobody');
      await form.getByRole('button', { name: 'Subscribe' }).click();
      await expect(page.getByText('Failed to subscribe. Please try again.', { exact: true })).toBeVisible();
      await expect(form.getByLabel('First Name')).toHaveValue('Alan');

      unblock();
      await form.getByRole('button', { name: 'Subscribe' }).click();
      await expect(form.getByLabel('Last Name')).toHaveAccessibleDescription('Please enter your last name.');
      expect(requests).toBe(0);
    });

    test('refuses a confirmation link that was tampered with', async ({ page }) => {
      await gotoHydrated(page, '/newsletter/confirm?token=00000000-0000-0000-0000-000000000000.forged');
      await page.getByRole('button', { name: 'Confirm my subscription' }).click();
      await expect(page.getByRole('alert')).toHaveText(
        'This confirmation link is not valid. Please sign up again.',
      );
    });
  });

  test('announces the field errors and sends nothing', async ({ page }) => {
    await gotoHydrated(page, '/resources#newsletter');
    let requests = 0;
    await page.route('**/api/send-contact-email', (route) => {
      requests += 1;
      return route.abort();
    });
    const form = page.getByRole('form', { name: 'Subscribe to The Smart Money Newsletter' });
    await form.getByLabel('Email Address').fill('nobody');
    await form.getByRole('button', { name: 'Subscribe' }).click();
    await expect(form.getByLabel('First Name')).toHaveAccessibleDescription('Please enter your first name.');
    await expect(form.getByLabel('Last Name')).toHaveAccessibleDescription('Please enter your last name.');
    await expect(form.getByLabel('Email Address')).toHaveAccessibleDescription(
      'Please enter a valid email address.',
    );
    expect(requests).toBe(0);
    await expectNoAxeViolations(page);
  });
});
