import { expectNoAxeViolations } from './support/axe';
import { expect, gotoHydrated, test } from './support/fixtures';
import { asNewVisitor, blockOnDemandChunks, holdForms, waitForMails } from './forms-support';

const PDF = '/guides/wealth-building-guide.pdf';

test.describe('the guide download form', () => {
  test('sends the request, shows the Thank You view and opens the PDF 500 ms later', async ({ page }) => {
    const email = await asNewVisitor(page, 'guide');
    // Times read on the page's own clock: when the endpoint's answer arrived and when the PDF
    // was opened (the test process hears of both later, by a varying delay).
    await page.addInitScript(() => {
      const w = window as unknown as { __answeredAt?: number; __openedAt?: number };
      const realFetch = window.fetch.bind(window);
      window.fetch = async (...args: Parameters<typeof fetch>) => {
        const res = await realFetch(...args);
        if (String(args[0]).includes('/api/send-contact-email')) w.__answeredAt = performance.now();
        return res;
      };
      const realOpen = window.open.bind(window);
      window.open = (...args: Parameters<typeof window.open>) => {
        w.__openedAt = performance.now();
        return realOpen(...args);
      };
    });
    await gotoHydrated(page, '/');
    const form = page.getByRole('form', { name: 'Download the Wealth Building Guide' });
    await form.getByLabel('Full Name').fill('Grace Hopper');
    await form.getByLabel('Email Address').fill(email);
    await form.getByLabel('Current Role or Company').fill('Partner, Example LLP');
    await form.getByRole('checkbox', { name: /receive email communications/ }).check();
    const held = await holdForms(page);

    const response = page.waitForResponse('**/api/send-contact-email');
    // Bounded by the test's own time limit, not one of its own.
    const pdfRequest = page.context().waitForEvent('request', { predicate: (r) => r.url().endsWith(PDF) });
    await form.getByRole('button', { name: 'Download Free Guide' }).click();
    const busy = page.getByRole('button', { name: 'Processing...' });
    await expect(busy).toBeVisible();
    await expect(busy).toBeDisabled();
    held.release();

    const answered = await response;
    expect(answered.status()).toBe(200);
    const { id } = (await answered.json()) as { id: string };
    await expect(page.getByRole('heading', { name: 'Thank You' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Download the guide (PDF)' })).toHaveAttribute('href', PDF);
    await expect(page.getByText('Your guide is downloading!', { exact: true })).toBeVisible();
    await pdfRequest;
    const { answeredAt, openedAt } = await page.evaluate(() => {
      const w = window as unknown as { __answeredAt?: number; __openedAt?: number };
      return { answeredAt: w.__answeredAt ?? NaN, openedAt: w.__openedAt ?? NaN };
    });
    // Opened no sooner than 500 ms after the answer (timer granularity aside).
    expect(openedAt - answeredAt).toBeGreaterThanOrEqual(495);

    // The visitor gets the link, the owner gets the lead naming the stored submission.
    const mails = await waitForMails(email, 2);
    const visitor = mails.find((m) => m.header('to') === email);
    expect(visitor?.text).toContain(`http://127.0.0.1:${new URL(page.url()).port}${PDF}`);
    const owner = mails.find((m) => m.header('to') !== email);
    expect(owner?.header('reply-to')).toBe(email);
    expect(owner?.text).toContain(`Submission ${id}`);
    expect(owner?.text).toContain('Partner, Example LLP');
  });

  test('serves the guide as a PDF', async ({ request }) => {
    const res = await request.get(PDF);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toBe('application/pdf');
    expect((await res.body()).subarray(0, 5).toString()).toBe('%PDF-');
  });

  test.describe('when the server fails', () => {
    test.use({ allowConsoleErrors: /Guide request failed|Failed to load resource/ });
    test('shows the failure toast and keeps the form as it was', async ({ page }) => {
      await gotoHydrated(page, '/resources#download-kit');
      await page.route('**/api/send-contact-email', (route) =>
        route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: JSON.stringify({ error: 'Something went wrong on our side. Please try again.' }),
        }),
      );
      const form = page
        .locator('#download-kit')
        .getByRole('form', { name: 'Download the Wealth Building Guide' });
      await form.getByLabel('Full Name').fill('Ada Lovelace');
      await form.getByLabel('Email Address').fill('ada@example.org');
      await form.getByLabel('Current Role or Company').fill('Engineer');
      await form.getByRole('checkbox').check();
      await form.getByRole('button', { name: 'Download Free Guide' }).click();
      await expect(
        page.getByText('Failed to submit request. Please try again.', { exact: true }),
      ).toBeVisible();
      await expect(form.getByLabel('Full Name')).toHaveValue('Ada Lovelace');
      await expect(form.getByRole('checkbox')).toBeChecked();
      await expect(form.getByRole('button', { name: 'Download Free Guide' })).toBeEnabled();
    });

    test('loads its logic on first use; a logic chunk that cannot be fetched is a failed request', async ({
      page,
    }) => {
      const { fetched, unblock } = await blockOnDemandChunks(page, 'guide-submit');
      await gotoHydrated(page, '/');
      expect(fetched, 'zod and the guide logic are not part of the first load').toEqual([]);

      const form = page.getByRole('form', { name: 'Download the Wealth Building Guide' });
      await form.getByLabel('Full Name').fill('Ada Lovelace');
      await expect
        .poll(() => fetched.length, { message: 'focusing a field fetches them' })
        .toBeGreaterThan(0);
      await form.getByLabel('Email Address').fill('not-an-address');
      await form.getByRole('button', { name: 'Download Free Guide' }).click();
      await expect(
        page.getByText('Failed to submit request. Please try again.', { exact: true }),
      ).toBeVisible();
      await expect(form.getByLabel('Full Name')).toHaveValue('Ada Lovelace');
      await expect(form.getByRole('button', { name: 'Download Free Guide' })).toBeEnabled();

      // The next try fetches the chunk again and validates with it, before any request.
      unblock();
      let requests = 0;
      await page.route('**/api/send-contact-email', (route) => {
        requests += 1;
        return route.abort();
      });
      await form.getByRole('button', { name: 'Download Free Guide' }).click();
      await expect(form.getByLabel('Email Address')).toHaveAccessibleDescription(
        'Please enter a valid email address.',
      );
      expect(requests).toBe(0);
    });
  });

  test('explains each invalid field beside it, for screen readers too, and stays axe-clean', async ({
    page,
  }) => {
    await gotoHydrated(page, '/');
    let requests = 0;
    await page.route('**/api/send-contact-email', (route) => {
      requests += 1;
      return route.abort();
    });
    const form = page.getByRole('form', { name: 'Download the Wealth Building Guide' });
    await form.getByLabel('Email Address').fill('not-an-email');
    await form.getByRole('button', { name: 'Download Free Guide' }).click();
    const name = form.getByLabel('Full Name');
    await expect(name).toHaveAttribute('aria-invalid', 'true');
    await expect(name).toHaveAccessibleDescription('Please enter your name.');
    await expect(form.getByLabel('Email Address')).toHaveAccessibleDescription(
      'Please enter a valid email address.',
    );
    await expect(form.getByRole('checkbox')).toHaveAccessibleDescription(
      'Please agree to receive emails so we can send you the guide.',
    );
    await expect(form.getByRole('alert').first()).toBeVisible();
    expect(requests).toBe(0);
    await expectNoAxeViolations(page);
  });
});
