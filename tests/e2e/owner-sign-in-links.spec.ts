/**
 * A sign-in link e-mailed before a newer one no longer signs in (decision 031): the page says a
 * newer link has been sent, and the newest works. Asked for the second owner address, from a client
 * address of its own, so no other test's link is ended or limited by this one.
 */
import { expect, gotoHydrated } from './support/fixtures';
import { SECOND_OWNER, signInLinkIn, test, waitForMailsTo } from './owner-support';

test.use({ allowConsoleErrors: /the server responded with a status of (401|409|410)/ });

test('an older e-mailed link is refused in words once a newer one is sent; the newest signs in', async ({
  page,
}) => {
  await page.setExtraHTTPHeaders({
    'x-forwarded-for': `198.19.${process.pid % 250}.${(Date.now() % 250) + 1}`,
  });
  const before = (await waitForMailsTo(SECOND_OWNER, 'sign-in link', 0)).length;
  const links: URL[] = [];
  for (let i = 1; i <= 2; i += 1) {
    await gotoHydrated(page, '/owner');
    await page.getByLabel('Email address').fill(SECOND_OWNER);
    await page.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
    await expect(page.getByRole('status').filter({ hasText: /a sign-in link is on its way/ })).toBeVisible();
    const mails = await waitForMailsTo(SECOND_OWNER, 'sign-in link', before + i);
    links.push(new URL(signInLinkIn(mails[mails.length - 1]!)));
  }
  const [older, newer] = links as [URL, URL];
  expect(older.search).not.toBe(newer.search);

  await gotoHydrated(page, `${older.pathname}${older.search}`);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('A newer sign-in link has been sent to this address');

  await gotoHydrated(page, `${newer.pathname}${newer.search}`);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeFocused();
});
