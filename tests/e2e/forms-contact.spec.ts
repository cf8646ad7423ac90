import type { Page } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { expect, gotoHydrated, test } from './support/fixtures';
import { asNewVisitor, blockOnDemandChunks, holdForms, waitForMails } from './forms-support';

const TOO_MANY = 'Too many attempts. Please wait before trying again.';

function contactForm(page: Page) {
  return page.getByRole('form', { name: 'Send Us a Message' });
}

async function fillContact(
  page: Page,
  email = 'ada@example.org',
  message = 'We would like a workshop for our advisers.',
) {
  const form = contactForm(page);
  await form.getByLabel('First Name').fill('Ada');
  await form.getByLabel('Last Name').fill('Lovelace');
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Company').fill('Analytical Engines Ltd');
  await form.getByLabel('Subject').selectOption('speaking');
  await form.getByLabel('Message').fill(message);
  await form.getByRole('checkbox', { name: /collecting my data/ }).check();
}

/** The failure toast is shown and the form keeps what was typed. */
async function expectFailedAndKept(page: Page) {
  await expect(page.getByText('Failed to send message. Please try again.', { exact: true })).toBeVisible();
  await expect(contactForm(page).getByLabel('Message')).toHaveValue(
    'We would like a workshop for our advisers.',
  );
  await expect(contactForm(page).getByLabel('Subject')).toHaveValue('speaking');
}

/** Answers the form endpoint without the server (for the paths that are about the browser). */
async function answerWith(page: Page, status: number, body: object) {
  let calls = 0;
  await page.route('**/api/send-contact-email', (route) => {
    calls += 1;
    return route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) });
  });
  return () => calls;
}

test.describe('the contact form', () => {
  test('sends the message to the owner and shows the Thank You panel', async ({ page }) => {
    const email = await asNewVisitor(page, 'contact');
    await gotoHydrated(page, '/contact');
    const form = contactForm(page);
    await expect(form.getByLabel('Subject')).toHaveValue('');
    await expect(form.getByLabel('Subject').locator('option')).toHaveText([
      'Please select',
      'Team Training',
      'Consulting',
      'Speaking Engagement',
      'Partnership',
      'Other',
    ]);
    await fillContact(page, email, 'Could you speak at our <b>CPD</b> day?\nAny date in March.');
    const held = await holdForms(page);
    const response = page.waitForResponse('**/api/send-contact-email');
    await form.getByRole('button', { name: 'Send Message' }).click();
    await expect(page.getByRole('button', { name: 'Sending...' })).toBeDisabled();
    held.release();
    const answered = await response;
    expect(answered.status()).toBe(200);
    const { id } = (await answered.json()) as { id: string };

    await expect(page.getByRole('heading', { name: 'Thank You!' })).toBeVisible();
    await expect(
      page.getByText("We've received your message and will respond within 1-2 business days."),
    ).toBeVisible();
    await expect(page.getByText('Message sent successfully!', { exact: true })).toBeVisible();

    const [mail] = await waitForMails(email);
    expect(mail!.header('to')).not.toBe(email);
    expect(mail!.header('reply-to')).toBe(email);
    expect(mail!.header('subject')).toContain('Speaking Engagement');
    expect(mail!.text).toContain(`Submission ${id}`);
    expect(mail!.text).toContain('Could you speak at our <b>CPD</b> day?');
    expect(mail!.html).toContain('Could you speak at our &lt;b&gt;CPD&lt;/b&gt; day?<br>Any date in March.');

    await page.getByRole('button', { name: 'Send Another Message' }).click();
    await expect(contactForm(page).getByLabel('First Name')).toHaveValue('');
    await expect(contactForm(page).getByLabel('First Name')).toBeFocused();
  });

  test.describe('failures', () => {
    test.use({ allowConsoleErrors: /Failed to load resource/ });

    test('keeps the form as it is and shows the failure toast when the server fails', async ({ page }) => {
      await gotoHydrated(page, '/contact');
      await answerWith(page, 500, { error: 'Something went wrong on our side. Please try again.' });
      await fillContact(page);
      await contactForm(page).getByRole('button', { name: 'Send Message' }).click();
      await expectFailedAndKept(page);
    });

    test('loads its validation on first use; a validation chunk that cannot be fetched is a failed request', async ({
      page,
    }) => {
      const { fetched, unblock } = await blockOnDemandChunks(page, 'contact-validation');
      await gotoHydrated(page, '/contact');
      expect(fetched, 'zod and the schema are not part of the first load').toEqual([]);

      await fillContact(page);
      await expect
        .poll(() => fetched.length, { message: 'focusing a field fetches them' })
        .toBeGreaterThan(0);
      await contactForm(page).getByRole('button', { name: 'Send Message' }).click();
      await expectFailedAndKept(page);
      await expect(contactForm(page).getByRole('button', { name: 'Send Message' })).toBeEnabled();

      // The next try fetches the chunk again and validates with it.
      unblock();
      const calls = await answerWith(page, 500, {
        error: 'Something went wrong on our side. Please try again.',
      });
      await contactForm(page).getByLabel('Email').fill('not-an-address');
      await contactForm(page).getByRole('button', { name: 'Send Message' }).click();
      await expect(contactForm(page).getByLabel('Email')).toHaveAccessibleDescription(
        'Please enter a valid email address.',
      );
      expect(calls()).toBe(0);
    });

    test('shows the rate-limit message when the server refuses with 429', async ({ page }) => {
      await gotoHydrated(page, '/contact');
      await answerWith(page, 429, { error: TOO_MANY });
      await fillContact(page);
      await contactForm(page).getByRole('button', { name: 'Send Message' }).click();
      await expect(page.getByText(TOO_MANY, { exact: true })).toBeVisible();
    });
  });

  test('allows 3 messages per 5 minutes in this browser, then says to wait', async ({ page }) => {
    await gotoHydrated(page, '/contact');
    const calls = await answerWith(page, 200, { id: '00000000-0000-4000-8000-000000000000' });
    for (let i = 0; i < 3; i += 1) {
      await fillContact(page);
      await contactForm(page).getByRole('button', { name: 'Send Message' }).click();
      await page.getByRole('button', { name: 'Send Another Message' }).click();
    }
    await fillContact(page);
    await contactForm(page).getByRole('button', { name: 'Send Message' }).click();
    await expect(page.getByText(TOO_MANY, { exact: true })).toBeVisible();
    expect(calls()).toBe(3);
    await expect(contactForm(page).getByLabel('First Name')).toHaveValue('Ada');
    // The count lives in local storage, shared by every visit from this browser.
    await page.reload();
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
    await fillContact(page);
    await contactForm(page).getByRole('button', { name: 'Send Message' }).click();
    await expect(page.getByText(TOO_MANY, { exact: true })).toBeVisible();
    expect(calls()).toBe(3);
  });

  test("gives the spec's messages for an invalid e-mail and a message over 5000 characters", async ({
    page,
  }) => {
    await gotoHydrated(page, '/contact');
    const calls = await answerWith(page, 200, { id: 'x' });
    await fillContact(page, 'ada at example', 'x'.repeat(5001));
    await contactForm(page).getByRole('button', { name: 'Send Message' }).click();
    const form = contactForm(page);
    await expect(form.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
    await expect(form.getByLabel('Email')).toHaveAccessibleDescription('Please enter a valid email address.');
    await expect(form.getByLabel('Message')).toHaveAccessibleDescription(
      'Message is too long. Please keep it under 5000 characters.',
    );
    expect(calls()).toBe(0);
  });

  test('names every missing field and stays axe-clean', async ({ page }) => {
    await gotoHydrated(page, '/contact');
    await contactForm(page).getByRole('button', { name: 'Send Message' }).click();
    const form = contactForm(page);
    await expect(form.getByLabel('First Name')).toHaveAccessibleDescription('Please enter your first name.');
    await expect(form.getByLabel('Subject')).toHaveAccessibleDescription('Please select a subject.');
    await expect(form.getByRole('checkbox')).toHaveAccessibleDescription(
      'Please tick the box so we can use your details to reply.',
    );
    await expect(form.getByLabel('First Name')).toBeFocused();
    await expectNoAxeViolations(page);
  });

  test('works with the keyboard alone', async ({ page }) => {
    await gotoHydrated(page, '/contact');
    const calls = await answerWith(page, 200, { id: '00000000-0000-4000-8000-000000000001' });
    const form = contactForm(page);
    await form.getByLabel('First Name').focus();
    await page.keyboard.type('Ada');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Lovelace');
    await page.keyboard.press('Tab');
    await page.keyboard.type('ada@example.org');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Analytical Engines Ltd');
    await page.keyboard.press('Tab');
    await expect(form.getByLabel('Subject')).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(form.getByLabel('Subject')).not.toHaveValue('');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Hello from the keyboard.');
    await page.keyboard.press('Tab');
    await expect(form.getByRole('checkbox')).toBeFocused();
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    await expect(form.getByRole('button', { name: 'Send Message' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Thank You!' })).toBeFocused();
    expect(calls()).toBe(1);
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Send Another Message' })).toBeFocused();
  });
});
