/**
 * The business's own details in real Chromium (issue #25 item 4): the owner fills in Business
 * details (the form's own check first: a bad e-mail is said by its field and focused), saves, and
 * the public site's footer and Contact page show the business e-mail (rendered again by the server
 * at the save, decision 047); a testimonial without the client's permission is not shown. The page
 * keyboard-usable and axe-clean.
 */
import { expectNoAxeViolations } from './support/axe';
import { expect, gotoHydrated } from './support/fixtures';
import { EXPECTED_CONSOLE_ERRORS, sameOrigin, test, uniqueTag } from './owner-support';

test.use({ allowConsoleErrors: EXPECTED_CONSOLE_ERRORS });
// One after the other: each saves the one set of details, and a save made while the other's page
// is open is (rightly) refused as stale.
test.describe.configure({ mode: 'default' });

test('setting the business e-mail changes the footer and the Contact page', async ({ ownerPage: page }) => {
  test.setTimeout(90_000);
  const email = `${uniqueTag('office')}@sterling-sats.test`;

  await page
    .getByRole('navigation', { name: 'Console' })
    .getByRole('link', { name: 'Business details', exact: true })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Business details' })).toBeFocused();
  await expect(page.getByText('Loading…')).toHaveCount(0);

  await page.getByRole('textbox', { name: /^Business name/ }).fill('Sterling Sats Ltd');
  const emailField = page.getByRole('textbox', { name: /^Contact e-mail/ });
  await emailField.fill('not an address');
  await page.getByRole('textbox', { name: /^Phone/ }).fill('020 7946 0999');
  await page.getByRole('textbox', { name: /^Office address/ }).fill('12 Test Street\nLondon\nEC1A 9ZZ');
  await page.getByRole('textbox', { name: /^Founder’s name/ }).fill('Sam Founder');

  // A testimonial given but without the client's permission: saved, never shown.
  await page.getByRole('button', { name: 'Add a testimonial' }).click();
  const first = page.getByRole('group', { name: 'Testimonial 1' });
  await first.getByRole('textbox', { name: /^The client’s words/ }).fill('Words with no permission yet.');
  await first.getByRole('textbox', { name: /^Client’s name/ }).fill('Unasked Client');
  await first.getByLabel(/^Date given/).fill('2026-05-02');
  await first.getByRole('checkbox', { name: /real client’s words/ }).check();

  await page.getByRole('button', { name: 'Save details' }).click();
  await expect(emailField).toBeFocused();
  await expect(page.getByText('Please enter a valid email address.')).toBeVisible();

  await emailField.fill(email);
  // Fixed: its message goes at once, before the next save.
  await expect(page.getByText('Please enter a valid email address.')).toHaveCount(0);
  await expect(emailField).not.toHaveAttribute('aria-invalid', 'true');
  await page.getByRole('button', { name: 'Save details' }).press('Enter');
  await expect(
    page.getByRole('status').filter({ hasText: 'The details are saved; the site shows them in a moment.' }),
  ).toBeVisible();
  await expectNoAxeViolations(page);

  // The server renders the pages again at the save: the footer of every page, and Contact.
  await expect(async () => {
    await gotoHydrated(page, '/');
    await expect(page.getByRole('contentinfo').getByRole('link', { name: email })).toHaveAttribute(
      'href',
      `mailto:${email}`,
    );
  }).toPass({ timeout: 20_000 });
  await expect(page.getByText('Words with no permission yet.')).toHaveCount(0);

  await page.getByRole('contentinfo').getByRole('link', { name: 'Contact', exact: true }).click();
  await expect(page).toHaveURL('/contact');
  const card = page.getByRole('region', { name: 'Contact Information' });
  await expect(card.getByRole('link', { name: email })).toHaveAttribute('href', `mailto:${email}`);
  await expect(card.getByRole('link', { name: '020 7946 0999' })).toHaveAttribute('href', 'tel:02079460999');
  await expect(card.getByText('12 Test Street')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Book a Call' })).toHaveAttribute(
    'href',
    `mailto:${email}?subject=Discovery%20call%20request`,
  );
  await expect(page.getByRole('link', { name: 'Discuss Partnerships' })).toHaveAttribute(
    'href',
    `mailto:${email}?subject=Partnership%20enquiry`,
  );

  // Loaded afresh, as a visitor arriving at it.
  await gotoHydrated(page, '/contact');
  await expect(page.getByRole('contentinfo').getByRole('link', { name: email })).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'Contact Information' }).getByRole('link', { name: email }),
  ).toBeVisible();
});

test('a save made from details another tab has changed since is refused, and the text is kept', async ({
  ownerPage: page,
}) => {
  test.setTimeout(60_000);
  await page
    .getByRole('navigation', { name: 'Console' })
    .getByRole('link', { name: 'Business details', exact: true })
    .click();
  await expect(page.getByText('Loading…')).toHaveCount(0);
  // Whatever another test left, this page now holds a saved version of the details.
  const name = page.getByRole('textbox', { name: /^Business name/ });
  await name.fill('Sterling Sats Ltd');
  await page.getByRole('textbox', { name: /^Contact e-mail/ }).fill(`${uniqueTag('first')}@sterling-sats.test`);
  await page.getByRole('textbox', { name: /^Office address/ }).fill('12 Test Street\nLondon\nEC1A 9ZZ');
  await page.getByRole('button', { name: 'Save details' }).click();
  await expect(page.getByRole('status').filter({ hasText: /saved/i })).toBeVisible();

  // Another tab saves from the same version.
  const current = (await (await page.request.get('/api/owner/business')).json()) as {
    details: Record<string, unknown>;
    updatedAt: string;
  };
  const other = await page.request.post('/api/owner/business', {
    headers: sameOrigin,
    data: { ...current.details, name: 'Changed Elsewhere Ltd', basedOn: current.updatedAt },
  });
  expect(other.status(), await other.text()).toBe(200);

  // This tab's save, made from the older version: refused, said, and the typed text still there.
  await name.fill('Typed Here Ltd');
  await page.getByRole('button', { name: 'Save details' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'These details were changed in another tab or window' }),
  ).toBeVisible();
  await expect(name).toHaveValue('Typed Here Ltd');
  const stored = (await (await page.request.get('/api/owner/business')).json()) as { details: { name: string } };
  expect(stored.details.name).toBe('Changed Elsewhere Ltd');
});
