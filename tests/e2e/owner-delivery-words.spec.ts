/**
 * A delivery refused for good reads as what it is: a visitor asks for the guide with an address
 * the relay refuses (the owner server refuses every recipient at REFUSED_DOMAIN with a 550, as a
 * relay refuses a mailbox that does not exist: playwright.config.ts). On the submission's page the
 * owner sees that e-mail failed, after one attempt, and why in words; the owner's own copy went.
 */
import { REFUSED_DOMAIN } from '../../playwright.config';
import type { SubmissionDetail } from '../../src/contract/console';
import { expect } from './support/fixtures';
import {
  EXPECTED_CONSOLE_ERRORS,
  clientAddress,
  formToken,
  openConsole,
  sameOrigin,
  test,
  uniqueTag,
} from './owner-support';

test.use({ allowConsoleErrors: EXPECTED_CONSOLE_ERRORS });

test('an address refused by the recipient’s server shows on the submission’s page as failed, in words', async ({
  ownerPage: page,
}) => {
  const tag = uniqueTag('nobody');
  const email = `${tag}@${REFUSED_DOMAIN}`;
  const asked = await page.request.post('/api/send-contact-email', {
    headers: { ...sameOrigin, 'x-forwarded-for': clientAddress() },
    data: {
      formType: 'bitcoin_guide',
      firstName: `Nobody ${tag}`,
      lastName: '',
      email,
      company: 'Planner',
      subject: 'Wealth Building Guide Download',
      message: `Name: Nobody ${tag}`,
      consent: true,
      website: '',
      formToken: await formToken(page.request, 'bitcoin_guide'),
    },
  });
  expect(asked.status(), await asked.text()).toBe(200);
  const { id } = (await asked.json()) as { id: string };

  // Its one attempt is over: failed for good, not waiting for another; the owner's copy is sent.
  await expect
    .poll(async () => {
      const answer = await page.request.get(`/api/owner/submissions/${id}`);
      const detail = (await answer.json()) as SubmissionDetail;
      return detail.emails.map((e) => `${e.to === email ? 'visitor' : 'owner'} ${e.status}`).sort();
    })
    .toEqual(['owner sent', 'visitor failed']);

  await openConsole(page, `/owner/inbox/${id}`);
  const emails = page.getByRole('region', { name: 'E-mail deliveries' });
  const refused = emails.getByRole('row').filter({ hasText: email });
  await expect(refused.getByText('Failed', { exact: true })).toBeVisible();
  await expect(
    refused.getByRole('cell', {
      name: "The recipient's mail server refused this address (550): it may not exist.",
    }),
  ).toBeVisible();
  await expect(refused.getByRole('cell', { name: '1', exact: true })).toBeVisible();
  // The owner's copy of the same request went out.
  await expect(
    emails.getByRole('row').filter({ hasText: 'Guide download' }).getByText('Sent', { exact: true }),
  ).toBeVisible();
});
