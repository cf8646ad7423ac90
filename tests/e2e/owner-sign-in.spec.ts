/**
 * Signing in to the owner's console in real Chromium: with the link from a real .eml (once),
 * with a passkey registered in the console (Chrome's virtual authenticator), signing out, and
 * "Sign out everywhere", after which any request brings the sign-in page back.
 */
import type { Page } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { expect, gotoHydrated } from './support/fixtures';
import {
  EXPECTED_CONSOLE_ERRORS,
  openConsole,
  OWNER_EMAIL,
  ownerLink,
  SECOND_OWNER,
  signIn,
  signInLinkIn,
  test,
  waitForMailsTo,
} from './owner-support';

test.use({ allowConsoleErrors: EXPECTED_CONSOLE_ERRORS });
// Each test signs in for itself: signing out here would end the worker's session, which the
// other console tests of the worker start from (owner-support.ts).
test.use({ freshSignIn: true });

const SENT = /If that address belongs to the owner, a sign-in link is on its way/;

test.describe('the e-mail link', () => {
  test('signs in once from the link in the .eml; the token leaves the address bar', async ({ page }) => {
    await gotoHydrated(page, '/owner');
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in to the console' })).toBeFocused();
    // The site's own header and footer are not shown on the console.
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
    await expectNoAxeViolations(page);

    // An address that is not the owner's gets the same answer (and no e-mail).
    await page.getByLabel('Email address').fill('stranger@example.org');
    await page.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
    await expect(page.getByRole('status').filter({ hasText: SENT })).toBeVisible();

    const before = (await waitForMailsTo(OWNER_EMAIL, 'sign-in link', 0)).length;
    await page.getByLabel('Email address').fill(OWNER_EMAIL);
    await page.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
    await expect(page.getByRole('status').filter({ hasText: SENT })).toBeVisible();
    const mails = await waitForMailsTo(OWNER_EMAIL, 'sign-in link', before + 1);
    const link = new URL(signInLinkIn(mails[mails.length - 1]!));

    // Opening the link changes nothing until the owner presses the button.
    await gotoHydrated(page, `${link.pathname}${link.search}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Finish signing in' })).toBeFocused();
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeFocused();
    await expect(page).toHaveURL(/\/owner$/);
    await expect(page.getByText(OWNER_EMAIL)).toBeVisible();

    // The same link again: refused in words, with the way back.
    await gotoHydrated(page, `${link.pathname}${link.search}`);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByRole('alert')).toContainText('has been used already');
    await page.getByRole('link', { name: 'Back to the sign-in page' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeFocused();

    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in to the console' })).toBeFocused();
    await gotoHydrated(page, '/owner/inbox');
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in to the console' })).toBeVisible();
  });
});

async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });
}

test('a passkey added in Security signs the owner in next time', async ({ ownerPage: page }) => {
  await addVirtualAuthenticator(page);
  await openConsole(page, '/owner/security');
  await expect(page.getByText('No passkeys yet.')).toBeVisible();

  await page.getByLabel('Passkey name').fill('Test laptop');
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Passkey “Test laptop” added.' })).toBeVisible();
  await expect(page.getByRole('rowheader', { name: 'Test laptop' })).toBeVisible();

  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in to the console' })).toBeFocused();
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeFocused();

  // The audit log has the passkey's sign-in, and Security its last use.
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Audit log' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeFocused();
  await expect(page.getByRole('cell', { name: /signed in with a passkey/ }).first()).toBeVisible();

  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Security' }).click();
  const row = page.getByRole('row', { name: /Test laptop/ });
  await row.getByRole('button', { name: 'Remove' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove this passkey?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The passkey was removed.' })).toBeVisible();
  await expect(page.getByText('No passkeys yet.')).toBeVisible();
});

test.describe('ending sessions', () => {
  test('"Sign out everywhere" ends every session: another tab is sent back to sign in', async ({
    page,
    context,
  }) => {
    // A second owner address, so the other tests' sessions (OWNER_EMAIL's) are left alone.
    await signIn(page, '/owner/security', SECOND_OWNER);
    const other = await context.newPage();
    await gotoHydrated(other, '/owner/inbox');
    await expect(other.getByRole('heading', { level: 1, name: 'Inbox' })).toBeVisible();

    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    const dialog = page.getByRole('dialog', { name: 'Sign out everywhere?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('button', { name: 'Sign out everywhere' })).toBeFocused();
    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await dialog.getByRole('button', { name: 'Sign out everywhere' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in to the console' })).toBeFocused();

    // The other tab's next request finds its session gone.
    await other.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Spam' }).click();
    await expect(other.getByRole('heading', { level: 1, name: 'Sign in to the console' })).toBeVisible();
    await expect(other.getByText('Your session has ended. Sign in again to continue.')).toBeVisible();
    await expect(other).toHaveURL(/\/owner\/spam$/);

    // Signing in again there returns to the page it was on.
    const link = new URL(await ownerLink(SECOND_OWNER));
    await gotoHydrated(other, `${link.pathname}${link.search}`);
    await other.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(other.getByRole('heading', { level: 1, name: 'Overview' })).toBeFocused();
  });
});
