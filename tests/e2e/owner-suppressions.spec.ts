/**
 * The console's own addresses and the suppression list in the browser (decision 030): the People
 * screen says why an owner's address cannot be erased, in place of the button; the Suppressions
 * screen lifts a suppression after a dialog that says what it means; and an erased person who asks
 * for the guide again follows the confirmation e-mail's link, presses its one button (the page has
 * no accessibility violations before or after), and the guide is e-mailed to them.
 */
import type { APIRequestContext } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { expect, gotoHydrated } from './support/fixtures';
import { OWNER_BASE_URL, OWNER_DATA_DIR, OWNER_SERVER_ENV } from '../../playwright.config';
import { loadConfig } from '../../src/server/kit/config';
import { suppressionHash } from '../../src/server/kit/mail/outbox';
import {
  clientAddress,
  EXPECTED_CONSOLE_ERRORS,
  formToken,
  mailsTo,
  openConsole,
  SECOND_OWNER,
  sendContact,
  test,
  uniqueTag,
  waitForMailsTo,
} from './owner-support';

// A link used twice is answered 410, which the browser logs.
test.use({
  allowConsoleErrors: new RegExp(
    `${EXPECTED_CONSOLE_ERRORS.source}|^Failed to load resource: the server responded with a status of 410`,
  ),
});

const sameOrigin = { Origin: OWNER_BASE_URL };

/** The owner server's keyed hash of an address, as its suppression list holds it. */
function hashOf(address: string): string {
  const config = loadConfig({
    ...OWNER_SERVER_ENV,
    DATA_DIR: OWNER_DATA_DIR,
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
  });
  return suppressionHash(config.appSecret, address);
}

/** Someone who wrote in, erased at their request through the console's API. */
async function erased(request: APIRequestContext, email: string) {
  await sendContact(request, {
    firstName: 'Ada',
    lastName: 'Erased',
    email,
    message: 'Please forget me later.',
  });
  const res = await request.post('/api/owner/people/erase', { headers: sameOrigin, data: { email } });
  expect(res.status(), await res.text()).toBe(200);
}

test('the People screen says why an owner’s address cannot be erased, and offers no Erase', async ({
  ownerPage: page,
}) => {
  await openConsole(page, '/owner/people');
  await page.getByLabel('Email address').fill(SECOND_OWNER.toUpperCase());
  await page.getByRole('button', { name: 'Find' }).click();
  await expect(page.getByRole('heading', { level: 2, name: SECOND_OWNER })).toBeVisible();
  await expect(page.getByTestId('person-cannot-erase')).toHaveText(
    /signs in to the console, so it cannot be erased or put on the suppression list/,
  );
  await expect(page.getByRole('button', { name: 'Erase' })).toHaveCount(0);

  // Asked directly, the server refuses with the same sentence.
  const refused = await page.request.post('/api/owner/people/erase', {
    headers: sameOrigin,
    data: { email: SECOND_OWNER },
  });
  expect(refused.status()).toBe(409);
  expect(((await refused.json()) as { error: string }).error).toMatch(/cannot be erased/);
});

test('the owner lifts a suppression after a dialog that says the forms may mail the address again', async ({
  ownerPage: page,
}) => {
  const email = `${uniqueTag('lift')}@example.org`;
  await erased(page.request, email);
  const hash = hashOf(email);

  await openConsole(page, '/owner/suppressions');
  const row = page.getByRole('row').filter({ hasText: hash });
  await expect(row).toContainText('Erased');
  await row.getByRole('button', { name: 'Lift' }).click();
  const dialog = page.getByRole('dialog', { name: 'Lift this suppression?' });
  await expect(dialog).toContainText('may be e-mailed again');
  await expect(dialog).toContainText('the forms will send it what anyone asks for with it');
  // Cancel changes nothing.
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(row).toBeVisible();

  await row.getByRole('button', { name: 'Lift' }).click();
  await dialog.getByRole('button', { name: 'Lift the suppression' }).click();
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: 'The suppression is lifted: the address may be e-mailed again.' }),
  ).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: hash })).toHaveCount(0);

  await openConsole(page, '/owner/audit');
  await expect(page.getByRole('main')).toContainText(/suppression/i);
});

test('an erased person asks for the guide again, confirms by the e-mail’s link, and gets the guide', async ({
  ownerPage: page,
}) => {
  const email = `${uniqueTag('back')}@example.org`;
  await erased(page.request, email);

  const asked = await page.request.post('/api/send-contact-email', {
    headers: { ...sameOrigin, 'x-forwarded-for': clientAddress() },
    data: {
      formType: 'bitcoin_guide',
      firstName: 'Ada Back',
      lastName: '',
      email,
      company: 'Planner',
      subject: 'Wealth Building Guide Download',
      message: 'Name: Ada Back',
      consent: true,
      website: '',
      formToken: await formToken(page.request, 'bitcoin_guide'),
    },
  });
  expect(asked.status(), await asked.text()).toBe(200);
  const [confirmation] = await waitForMailsTo(email, 'e-mail from');
  expect(confirmation!.text).not.toContain('Ada');
  expect(mailsTo(email, 'Wealth Building Guide')).toHaveLength(0);
  const link = new URL(/(https?:\/\/\S+\/email\/confirm\?token=[\w.%-]+)/.exec(confirmation!.text)![1]!);

  await gotoHydrated(page, `${link.pathname}${link.search}`);
  await expect(page.getByRole('heading', { level: 2, name: 'May we e-mail you again?' })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: 'Yes, e-mail me again' }).click();
  await expect(page.getByTestId('address-confirm-done')).toContainText('what you asked for is on its way');
  await expectNoAxeViolations(page);
  await waitForMailsTo(email, 'Wealth Building Guide');

  // The link works once.
  await gotoHydrated(page, `${link.pathname}${link.search}`);
  await page.getByRole('button', { name: 'Yes, e-mail me again' }).click();
  await expect(page.getByTestId('address-confirm-refused')).toContainText('used already');
});
