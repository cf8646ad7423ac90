/**
 * The console's Newsletter pages in real Chromium, against the owner server's real pipeline and
 * outbox: the owner writes an issue (the server's field errors shown first), saves it, sees the
 * e-mail as sent in the preview's sandboxed frames at both widths, sends a test to the console's
 * addresses, then sends it now (after the dialog) and watches it become "Sent" with its counts;
 * each of three confirmed subscribers receives it once, one who never confirmed and one erased
 * (suppressed) receive nothing; the footer's unsubscribe link unsubscribes after its one button. An issue scheduled for a UK time and unscheduled; an
 * empty time refused on the page. The pages axe-clean at 1280 and 375 px without sideways scroll.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import type { IssueDetail } from '../../src/features/newsletter/issues-console-contract';
import { ukDateOf } from '../../src/lib/uk-dates';
import { expectNoAxeViolations } from './support/axe';
import { expect, gotoHydrated } from './support/fixtures';
import {
  clientAddress,
  EXPECTED_CONSOLE_ERRORS,
  formToken,
  mailsTo,
  OWNER_EMAIL,
  sameOrigin,
  test,
  uniqueTag,
  waitForMailsTo,
} from './owner-support';

test.use({
  allowConsoleErrors: new RegExp(
    [
      EXPECTED_CONSOLE_ERRORS.source,
      // The form's empty submission is answered 400 on purpose, which the browser logs.
      '^Failed to load resource: the server responded with a status of 400',
      // The preview's frames are sandboxed without scripts: the browser refuses the test
      // harness's own start-up script in them, and says so.
      "^Blocked script execution in 'about:srcdoc'",
    ].join('|'),
  ),
});

const status = (page: Page, text: string | RegExp) => page.getByRole('status').filter({ hasText: text });
const number = (n: number) => n.toLocaleString('en-GB');

/** Someone who has signed up through the public form (and not yet followed the confirmation link). */
async function signedUp(request: APIRequestContext, tag: string): Promise<string> {
  const email = `${tag}@example.org`;
  const signedUp = await request.post('/api/send-contact-email', {
    headers: { ...sameOrigin, 'x-forwarded-for': clientAddress() },
    data: {
      formType: 'newsletter',
      firstName: 'Ada',
      lastName: tag,
      email,
      website: '',
      formToken: await formToken(request, 'newsletter'),
    },
  });
  expect(signedUp.status(), await signedUp.text()).toBe(200);
  return email;
}

/** A subscriber who has signed up through the public form and followed the confirmation link. */
async function confirmedSubscriber(request: APIRequestContext, tag: string): Promise<string> {
  const email = await signedUp(request, tag);
  const [confirmation] = await waitForMailsTo(email, 'Please confirm your subscription');
  const token = /\/newsletter\/confirm\?token=([\w.~%-]+)/.exec(confirmation!.text)?.[1];
  expect(token, 'the confirmation link').toBeTruthy();
  const confirmed = await request.post('/api/newsletter/confirm', {
    headers: sameOrigin,
    data: { token: decodeURIComponent(token!) },
  });
  expect(confirmed.status(), await confirmed.text()).toBe(200);
  return email;
}

/** A draft made through the console API, with the signed-in page's session. */
async function createDraft(page: Page, subject: string): Promise<IssueDetail> {
  const created = await page.request.post('/api/owner/newsletter/issues', {
    data: { subject, preheader: 'A short preview line', body: `# ${subject}\n\nA few words for the test.` },
    headers: sameOrigin,
  });
  expect(created.status(), await created.text()).toBe(200);
  return (await created.json()) as IssueDetail;
}

const frameTitles = ['The e-mail at desktop width', 'The e-mail at phone width'];

test('the owner writes an issue, previews it, sends a test, then sends it now and sees it sent', async ({
  ownerPage: page,
  request,
}) => {
  test.setTimeout(120_000);
  const tag = uniqueTag('issue');
  // Three confirmed readers; one who never confirmed; one who confirmed and was then erased (their
  // address on the suppression list): exactly the three receive the issue.
  const readers = [
    await confirmedSubscriber(request, tag),
    await confirmedSubscriber(request, `${tag}-second`),
    await confirmedSubscriber(request, `${tag}-third`),
  ];
  const subscriber = readers[0]!;
  const pending = await signedUp(request, `${tag}-pending`);
  const erased = await confirmedSubscriber(request, `${tag}-erased`);
  const erasure = await page.request.post('/api/owner/people/erase', {
    headers: sameOrigin,
    data: { email: erased },
  });
  expect(erasure.status(), await erasure.text()).toBe(200);
  const subject = `Smart money notes ${tag}`;
  const line = `The halving, explained for ${tag}.`;

  await page
    .getByRole('navigation', { name: 'Console' })
    .getByRole('link', { name: 'Newsletter', exact: true })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Newsletter' })).toBeFocused();
  // The subscribers keep their own page, linked from here.
  await expect(page.getByRole('link', { name: 'See the subscribers' })).toHaveAttribute(
    'href',
    '/owner/subscribers',
  );
  await page.getByRole('link', { name: 'New issue' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'New issue' })).toBeFocused();

  // Saved empty: the server's sentence in the alert region, the fields marked and the first focused.
  await page.getByRole('button', { name: 'Save draft' }).click();
  const subjectField = page.getByRole('textbox', { name: /^Subject/ });
  await expect(subjectField).toHaveAttribute('aria-invalid', 'true');
  await expect(subjectField).toHaveAccessibleDescription(/\S/);
  await expect(subjectField).toBeFocused();
  await expect(page.getByRole('textbox', { name: /^Body/ })).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('alert').filter({ hasText: /\S/ }).first()).toBeVisible();

  await subjectField.fill(subject);
  await page.getByRole('textbox', { name: /^Preview line/ }).fill('Four minutes on what changes');
  await page.getByRole('textbox', { name: /^Body/ }).fill(`# ${subject}\n\n${line}\n`);
  await page.getByRole('button', { name: 'Save draft' }).click();

  await expect(page.getByRole('heading', { level: 1, name: subject, exact: true })).toBeFocused();
  await expect(status(page, 'Draft saved.')).toBeVisible();
  await expect(page).toHaveURL(/\/owner\/newsletter\/[0-9a-f-]{36}$/);
  const id = /\/owner\/newsletter\/([0-9a-f-]{36})$/.exec(page.url())![1]!;
  const details = page.getByRole('region', { name: 'About this issue' });
  await expect(details.getByText('Draft', { exact: true })).toBeVisible();

  // The preview: the e-mail as sent, in sandboxed frames at both widths, and its plain text.
  for (const title of frameTitles) {
    const frame = page.locator(`iframe[title="${title}"]`);
    await expect(frame).toHaveAttribute('sandbox', '');
    await expect(frame).toHaveAttribute('srcdoc', new RegExp(subject));
    await expect(frame).toHaveAttribute('srcdoc', new RegExp(tag));
    // As a person sees it: a frame the e-mail's width (600 px, or a phone's 375), tall enough to
    // read it, never the browser's default 300 x 150 box.
    const box = (await frame.boundingBox())!;
    expect([600, 375]).toContain(Math.round(box.width));
    expect(box.height).toBeGreaterThanOrEqual(600);
  }
  await page.getByText('The plain-text part').click();
  await expect(page.locator('pre')).toContainText(line);

  // A test to the console's own addresses.
  await page.getByRole('button', { name: 'Send a test' }).click();
  await expect(status(page, /^Test sent to \d+ address(es)?\.$/)).toBeVisible();
  await waitForMailsTo(OWNER_EMAIL, subject);
  expect(mailsTo(subscriber, subject)).toHaveLength(0);

  // Send now asks first, and says who receives it.
  await page.getByRole('button', { name: 'Send now' }).click();
  const dialog = page.getByRole('dialog', { name: 'Send this issue to every confirmed subscriber now?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Not yet' }).click();
  await expect(dialog).toBeHidden();
  await expect(details.getByText('Draft', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Send now' }).click();
  await dialog.getByRole('button', { name: 'Send now' }).click();

  // The page follows it until it is sent.
  await expect(details.getByText('Sent', { exact: true })).toBeVisible({ timeout: 60_000 });
  const progress = page.getByRole('region', { name: 'Progress' });
  await expect(progress.getByRole('progressbar', { name: 'Sending progress' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send now' })).toHaveCount(0);
  await expect(subjectField).toHaveAttribute('readonly', '');
  await expect(page.getByText('This issue has been sent: it can no longer be changed.')).toBeVisible();

  const answer = await page.request.get(`/api/owner/newsletter/issues/${id}`);
  const issue = (await answer.json()) as IssueDetail;
  expect(issue.status).toBe('sent');
  const counts = issue.progress!;
  expect(counts.recipients).toBeGreaterThanOrEqual(1);
  expect(counts.waiting).toBe(0);
  const count = (label: string) =>
    progress.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd[1]');
  await expect(count('Recipients')).toHaveText(new RegExp(`^${number(counts.recipients)}\\b`));
  await expect(count('Sent')).toHaveText(new RegExp(`^${number(counts.sent)}\\b`));
  await expect(count('Waiting')).toHaveText(/^0\b/);
  await expect(progress).toContainText(
    `${number(counts.recipients - counts.waiting)} of ${number(counts.recipients)}`,
  );

  // Each confirmed reader receives it once, with the one-click unsubscribe; the others nothing.
  const [mail] = await waitForMailsTo(subscriber, subject);
  for (const reader of readers) {
    await waitForMailsTo(reader, subject);
    expect(mailsTo(reader, subject)).toHaveLength(1);
  }
  expect(mailsTo(pending, subject)).toHaveLength(0);
  expect(mailsTo(erased, subject)).toHaveLength(0);
  expect(mail!.text).toContain(line);
  expect(mail!.header('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');

  await expect(page.getByText('Loading…')).toHaveCount(0);
  await expectNoAxeViolations(page);

  // The list: its status in words and a line of its progress.
  await page.getByRole('link', { name: 'Back to the newsletter' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Newsletter' })).toBeFocused();
  const row = page.getByRole('row', { name: new RegExp(subject) });
  await expect(row.getByRole('cell', { name: 'Sent', exact: true })).toBeVisible();
  await expect(row).toContainText(`${number(counts.sent)} of ${number(counts.recipients)} sent`);

  // The footer's visible link: the page asks once, then the reader is unsubscribed.
  const footerLink = /href="(https?:\/\/[^"]+\/newsletter\/unsubscribe\?token=[^"]+)"/.exec(mail!.html)?.[1];
  expect(footerLink, 'the footer unsubscribe link').toBeTruthy();
  const link = new URL(footerLink!.replace(/&amp;/g, '&'));
  await gotoHydrated(page, `${link.pathname}${link.search}`);
  await page.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(
    page.getByText('You have been unsubscribed. You will not receive the newsletter any more.'),
  ).toBeVisible();
  const gone = await page.request.get('/api/owner/subscribers?status=unsubscribed');
  expect(JSON.stringify(await gone.json())).toContain(subscriber);
});

test('an issue scheduled for a UK time, then unscheduled; an empty time is refused on the page', async ({
  ownerPage: page,
}) => {
  const draft = await createDraft(page, `Scheduled notes ${uniqueTag('sched')}`);
  await gotoHydrated(page, `/owner/newsletter/${draft.id}`);
  await expect(page.getByRole('heading', { level: 1, name: draft.subject, exact: true })).toBeFocused();
  const details = page.getByRole('region', { name: 'About this issue' });

  // No time: nothing is sent, and the field says why.
  const at = page.getByLabel(/^Send at/);
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  await expect(at).toBeFocused();
  await expect(at).toHaveAttribute('aria-invalid', 'true');
  await expect(at).toHaveAccessibleDescription(/Please choose the date and time to send it\./);
  await expect(details.getByText('Draft', { exact: true })).toBeVisible();

  const day = ukDateOf(new Date(Date.now() + 3 * 24 * 3_600_000));
  await at.fill(`${day}T10:00`);
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  await expect(status(page, /^Scheduled for .*10:00 \(UK time\)\.$/)).toBeVisible();
  await expect(details.getByText('Scheduled', { exact: true })).toBeVisible();
  await expect(page.getByText(/^Scheduled: it goes out on .*10:00 \(UK time\)\./)).toBeVisible();

  await page.getByRole('button', { name: 'Unschedule' }).click();
  await expect(status(page, 'Unscheduled: the issue is a draft again.')).toBeVisible();
  await expect(details.getByText('Draft', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Unschedule' })).toHaveCount(0);
  // The button is gone: its section's heading has focus, not the top of the page.
  await expect(page.getByRole('heading', { level: 2, name: 'Send', exact: true })).toBeFocused();
});

for (const width of [1280, 375]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('the Newsletter list, the new issue form (with its errors) and a draft with its preview have no violations and no sideways scroll', async ({
      ownerPage: page,
    }) => {
      const draft = await createDraft(page, `Checked notes ${uniqueTag('axe')}`);
      const check = async (what: string) => {
        await expect(page.getByText('Loading…')).toHaveCount(0);
        await expectNoAxeViolations(page);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, what).toBeLessThanOrEqual(0);
      };

      await gotoHydrated(page, '/owner/newsletter');
      await expect(page.getByRole('heading', { level: 1, name: 'Newsletter' })).toBeFocused();
      await expect(page.getByRole('row', { name: new RegExp(draft.subject) })).toBeVisible();
      await check('the list');

      await gotoHydrated(page, '/owner/newsletter/new');
      await expect(page.getByRole('heading', { level: 1, name: 'New issue' })).toBeFocused();
      await check('the form');
      await page.getByRole('button', { name: 'Save draft' }).click();
      await expect(page.getByRole('textbox', { name: /^Subject/ })).toHaveAttribute('aria-invalid', 'true');
      await check('the form with its errors');

      await gotoHydrated(page, `/owner/newsletter/${draft.id}`);
      await expect(page.getByRole('heading', { level: 1, name: draft.subject, exact: true })).toBeFocused();
      await expect(page.locator(`iframe[title="${frameTitles[1]}"]`)).toHaveAttribute(
        'srcdoc',
        new RegExp(draft.subject),
      );
      await check('a draft with its preview');
      await page.getByRole('button', { name: 'Send now' }).click();
      await expect(
        page.getByRole('dialog', { name: 'Send this issue to every confirmed subscriber now?' }),
      ).toBeVisible();
      await check('the send dialog');
      await page.keyboard.press('Escape');
      await expect(page.getByRole('button', { name: 'Send now' })).toBeFocused();
    });
  });
}
