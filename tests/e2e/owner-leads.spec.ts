/**
 * Leads to work on (decision 040), in real Chromium against the real pipeline and outbox: a lead
 * is found among the new ones, its fields read as words and its address is a link; the owner keeps
 * a note, replies from the console (the lead's address receives the reply once, their message
 * quoted) and the lead shows as replied; then puts it aside as handled.
 */
import { expectNoAxeViolations } from './support/axe';
import {
  clientAddress,
  EXPECTED_CONSOLE_ERRORS,
  formToken,
  openConsole,
  readMails,
  sameOrigin,
  sendContact,
  test,
  uniqueTag,
} from './owner-support';
import { expect } from './support/fixtures';

// And the 400 of the empty reply the test sends on purpose.
test.use({
  allowConsoleErrors: new RegExp(
    `${EXPECTED_CONSOLE_ERRORS.source}|^Failed to load resource: the server responded with a status of 400`,
  ),
});

test('the owner notes, replies to and puts aside a lead; the lead receives the reply once', async ({
  ownerPage: page,
  request,
}) => {
  const tag = uniqueTag('somerville');
  const address = `${tag}@example.org`;
  await sendContact(request, {
    firstName: 'Mary',
    lastName: tag,
    email: address,
    message: 'Could you speak at our spring conference?\nAbout forty advisers.',
  });

  await openConsole(page, '/owner/inbox');
  await page.getByLabel('Search').fill(tag);
  await page.getByLabel('Lead').selectOption('new');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/[?&]state=new/);
  const row = page.getByRole('row', { name: new RegExp(tag) });
  await expect(row.getByText('New', { exact: true })).toBeVisible();
  await row.getByRole('link', { name: `Mary ${tag}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Mary ${tag}` })).toBeFocused();

  // The fields read as words, and the address is a link to write to them.
  const fields = page.getByRole('region', { name: 'What was sent' });
  await expect(fields.getByText('Speaking Engagement', { exact: true })).toBeVisible();
  await expect(fields.getByRole('link', { name: address })).toHaveAttribute('href', `mailto:${address}`);

  // A note, kept for the console.
  const work = page.getByRole('region', { name: 'Notes and replies' });
  await expect(work.getByText('No notes or replies yet.')).toBeVisible();
  await work.getByRole('textbox', { name: /^Note/ }).fill('Conference is in April; ask for the venue.');
  await work.getByRole('button', { name: 'Save the note' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The note is saved.' })).toBeVisible();
  await expect(work.getByText('Conference is in April; ask for the venue.')).toBeVisible();

  // An empty reply is refused beside its field, and nothing is sent.
  await work.getByRole('button', { name: 'Send the reply' }).click();
  await expect(work.getByText('Please write the reply.')).toBeVisible();

  // The reply.
  await expect(work.getByLabel('Subject', { exact: true })).toHaveValue('Re: your message to Sterling Sats');
  await work
    .getByLabel('Your reply')
    .fill(`Dear Mary,\n\nWe would be glad to. Which dates suit you?\n\nBest wishes`);
  await work.getByRole('button', { name: 'Send the reply' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'The reply is on its way. The lead is marked as replied.' }),
  ).toBeVisible();
  await expect(work.getByText('We would be glad to. Which dates suit you?', { exact: false })).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'Summary' }).getByText('Replied', { exact: true }),
  ).toBeVisible();

  const replies = () =>
    readMails().filter(
      (m) =>
        (m.header('to') ?? '').includes(address) &&
        m.header('subject') === 'Re: your message to Sterling Sats',
    );
  await expect.poll(() => replies().length, { message: 'the reply e-mail' }).toBe(1);
  const reply = replies()[0]!;
  expect(reply.text).toContain('We would be glad to. Which dates suit you?');
  expect(reply.text.replace(/\r\n/g, '\n')).toContain(
    '> Could you speak at our spring conference?\n> About forty advisers.',
  );
  // Its delivery is listed with the lead's e-mails.
  await page.reload();
  const emails = page.getByRole('region', { name: 'E-mails' });
  await expect(emails.getByRole('rowheader', { name: 'Re: your message to Sterling Sats' })).toBeVisible();
  await expectNoAxeViolations(page);

  // Put aside: handled.
  await page.getByRole('button', { name: 'Mark as handled' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Marked as handled.' })).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'Summary' }).getByText('Handled', { exact: true }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Mark as new' })).toBeVisible();
  expect(replies()).toHaveLength(1);

  // The audit log names the lead, never by a code or an id.
  await openConsole(page, '/owner/audit');
  await expect(
    page.getByRole('cell', { name: `Owner marked lead from Mary ${tag} as handled` }).first(),
  ).toBeVisible();
  await expect(page.getByRole('cell', { name: `Owner replied to lead from Mary ${tag} by e-mail` })).toBeVisible();
});

test('a newsletter sign-up is in the inbox but is no lead to answer', async ({ ownerPage: page, request }) => {
  const tag = uniqueTag('turing');
  const res = await request.post('/api/send-contact-email', {
    headers: { ...sameOrigin, 'x-forwarded-for': clientAddress() },
    data: {
      formType: 'newsletter',
      firstName: 'Alan',
      lastName: tag,
      email: `${tag}@example.org`,
      subject: 'New Newsletter Subscriber',
      message: 'Please add them',
      sendConfirmation: false,
      website: '',
      formToken: await formToken(request, 'newsletter'),
    },
  });
  expect(res.status(), await res.text()).toBe(200);

  await openConsole(page, '/owner/inbox');
  await page.getByLabel('Search').fill(tag);
  await page.getByRole('button', { name: 'Apply' }).click();
  const row = page.getByRole('row', { name: new RegExp(tag) });
  await expect(row).toBeVisible();
  await expect(row.getByText(/^(New|Replied|Handled)$/)).toHaveCount(0);
  await page.getByLabel('Lead').selectOption('new');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText('No submissions match.')).toBeVisible();

  await page.getByLabel('Lead').selectOption('');
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.getByRole('link', { name: `Alan ${tag}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Alan ${tag}` })).toBeFocused();
  await expect(page.getByRole('region', { name: 'Summary' })).toContainText('Not a lead');
  await expect(page.getByRole('button', { name: 'Mark as handled' })).toHaveCount(0);
  await expectNoAxeViolations(page);
});

test('the overview shows the latest leads, what comes next and leads a week', async ({
  ownerPage: page,
  request,
}) => {
  const tag = uniqueTag('franklin');
  await sendContact(request, {
    firstName: 'Rosalind',
    lastName: tag,
    email: `${tag}@example.org`,
    message: 'A question about custody.',
  });
  await openConsole(page, '/owner');
  // The newest five (other tests send leads meanwhile: this one may already be further down).
  const latest = page.getByRole('region', { name: 'Latest leads' }).getByRole('listitem');
  await expect(latest.first()).toBeVisible();
  expect(await latest.count()).toBeLessThanOrEqual(5);
  await expect(latest.first().getByText(/^(New|Replied|Handled)$/)).toBeVisible();
  await expect(page.getByRole('region', { name: 'Coming up' })).toBeVisible();
  const trend = page.getByRole('region', { name: 'Leads a week' });
  await expect(trend.getByText(/^This week so far: [1-9]\d* leads?\. Last week: \d+\.$/)).toBeVisible();
  await expect(trend.getByRole('row')).toHaveCount(9);
  await expectNoAxeViolations(page);

  const link = latest.first().getByRole('link');
  const name = (await link.textContent()) ?? '';
  await link.click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeFocused();
});
