/**
 * The owner's console at work in real Chromium, against the server's real pipeline and outbox:
 * a lead sent through the public contact form found in the inbox; a spam submission released
 * ("Not spam") and its e-mail written; a spam submission deleted; a booking confirmed and then
 * rescheduled, the applicant getting the updated invite; a failed e-mail sent again; a notice
 * shown only on the page whose action it answers.
 */
import type { APIRequestContext } from '@playwright/test';
import ICAL from 'ical.js';
import { readFileSync } from 'node:fs';
import { expectNoAxeViolations } from './support/axe';
import { expect, gotoHydrated } from './support/fixtures';
import {
  EXPECTED_CONSOLE_ERRORS,
  openConsole,
  OWNER_EMAIL,
  readMails,
  requestBooking,
  sendContact,
  test,
  uniqueTag,
  waitForMailsTo,
} from './owner-support';

/**
 * A working day (not a weekend, not a bank holiday of England) `days` or more from now, as
 * YYYY-MM-DD: a day the owner's default weekly hours keep open, whatever day the test runs.
 */
function openWeekdayFrom(days: number): string {
  const file = JSON.parse(readFileSync('src/content/bank-holidays.json', 'utf8')) as { days: { date: string }[] };
  const closed = new Set(file.days.map((d) => d.date));
  const at = new Date(Date.now() + days * 24 * 3600_000);
  for (;;) {
    const date = at.toISOString().slice(0, 10);
    if (at.getUTCDay() !== 0 && at.getUTCDay() !== 6 && !closed.has(date)) return date;
    at.setUTCDate(at.getUTCDate() + 1);
  }
}

test.use({ allowConsoleErrors: EXPECTED_CONSOLE_ERRORS });

/** A contact message the honeypot holds as spam, from `<tag>@example.org`. */
function sendHeld(
  request: APIRequestContext,
  firstName: string,
  tag: string,
  message = `Held by the honeypot ${tag}`,
) {
  return sendContact(request, { firstName, lastName: tag, email: `${tag}@example.org`, message, spam: true });
}

test('a lead sent through the public contact form is found in the inbox, with its consent and e-mail', async ({
  ownerPage: page,
}) => {
  const tag = uniqueTag('lovelace');
  await page.setExtraHTTPHeaders({ 'x-forwarded-for': `198.51.100.${(Date.now() % 200) + 20}` });
  await gotoHydrated(page, '/contact');
  const form = page.getByRole('form', { name: 'Send Us a Message' });
  await form.getByLabel('First Name').fill('Ada');
  await form.getByLabel('Last Name').fill(tag);
  await form.getByLabel('Email').fill(`${tag}@example.org`);
  await form.getByLabel('Company').fill('Analytical Engines Ltd');
  await form.getByLabel('Subject').selectOption('speaking');
  await form.getByLabel('Message').fill('We would like a <b>workshop</b> for our advisers.');
  await form.getByRole('checkbox', { name: /collecting my data/ }).check();
  await form.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByText('Message sent successfully!', { exact: true })).toBeVisible();

  await openConsole(page, '/owner/inbox');
  await page.getByLabel('Search').fill(tag);
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]q=${tag}`));
  await expect(page.getByRole('status').filter({ hasText: '1 submission shown.' })).toBeVisible();

  // A reload keeps the filter.
  await page.reload();
  await expect(page.getByLabel('Search')).toHaveValue(tag);
  await page.getByRole('link', { name: `Ada ${tag}` }).click();

  await expect(page.getByRole('heading', { level: 1, name: `Ada ${tag}` })).toBeFocused();
  // Visitor text is text: the markup typed into the message is shown, not rendered.
  await expect(page.getByText('We would like a <b>workshop</b> for our advisers.')).toBeVisible();
  await expect(page.locator('main b')).toHaveCount(0);
  const consents = page.getByRole('region', { name: 'Consents' });
  await expect(consents.getByText(/collecting my data/)).toBeVisible();
  const emails = page.getByRole('region', { name: 'E-mails' });
  await expect(emails.getByRole('rowheader', { name: /enquiry from Ada/ })).toBeVisible();
  await expect(emails.getByRole('cell', { name: 'Sent' })).toBeVisible();
  await expectNoAxeViolations(page);

  // "Mark as spam" moves it to Spam.
  await page.getByRole('button', { name: 'Mark as spam' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Moved to spam.' })).toBeVisible();
  await expect(page.getByText('Marked as spam by the owner')).toBeVisible();
  await page.getByRole('link', { name: 'Back to the inbox' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'No submissions match.' })).toBeVisible();
});

test('"Not spam" delivers a held submission once: its e-mail goes out', async ({
  ownerPage: page,
  request,
}) => {
  const tag = uniqueTag('hopper');
  await sendHeld(request, 'Grace', tag);
  const ownerMail = () => readMails().filter((m) => m.text.includes(tag));
  expect(ownerMail()).toHaveLength(0);

  await openConsole(page, '/owner/spam');
  const row = page.getByRole('row', { name: new RegExp(tag) });
  await expect(row.getByText('Filled a field hidden from people')).toBeVisible();
  await row.getByRole('button', { name: 'Not spam' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Released. 1 e-mail queued.' })).toBeVisible();
  await expect(row).toHaveCount(0);

  await expect.poll(() => ownerMail().length, { message: 'the released e-mail' }).toBe(1);
  expect(ownerMail()[0]!.header('to')).toContain(OWNER_EMAIL);

  // Released means delivered: it is in the inbox now, and sent once only.
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Inbox' }).click();
  await page.getByLabel('Search').fill(tag);
  await page.keyboard.press('Enter');
  await page.getByRole('link', { name: `Grace ${tag}` }).click();
  await expect(page.getByText('Released from spam')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Mark as spam' })).toBeVisible();
  expect(ownerMail()).toHaveLength(1);
});

test('a notice belongs to its page: one not yet shown, or not yet answered, is not shown on the next', async ({
  ownerPage: page,
  request,
}) => {
  // Animation frames come late here, so a page can be left between an action's answer and its notice.
  await page.addInitScript(() => {
    const frames = new Set<number>();
    const later = window.requestAnimationFrame.bind(window);
    Object.assign(window, {
      framesWaiting: () => frames.size,
      requestAnimationFrame(callback: FrameRequestCallback) {
        const timer = window.setTimeout(() => {
          frames.delete(timer);
          later(callback);
        }, 2000);
        frames.add(timer);
        return timer;
      },
      cancelAnimationFrame(id: number) {
        window.clearTimeout(id);
        frames.delete(id);
      },
    });
  });
  const framesWaiting = () =>
    page.evaluate(() => (window as unknown as { framesWaiting(): number }).framesWaiting());
  const tags = [uniqueTag('stay'), uniqueTag('frame'), uniqueTag('flight')];
  for (const tag of tags) await sendHeld(request, 'Ada', tag);
  const released = page.getByRole('status').filter({ hasText: 'Released. 1 e-mail queued.' });
  const release = (tag: string) =>
    page
      .getByRole('row', { name: new RegExp(tag) })
      .getByRole('button', { name: 'Not spam' })
      .click();
  const toInbox = async () => {
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Inbox' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Inbox' })).toBeVisible();
  };
  await openConsole(page, '/owner/spam');

  // Staying on the page, the late notice comes.
  await release(tags[0]!);
  await expect(released).toBeVisible();

  // Answered, its notice waiting for a frame, and the page left: the next page starts clean.
  await release(tags[1]!);
  await expect.poll(framesWaiting).toBeGreaterThan(0);
  await toInbox();
  await expect.poll(framesWaiting).toBe(0);
  await expect(released).toHaveCount(0);

  // Left while the request is under way: its answer announces nothing on the next page.
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Spam' }).click();
  let answer: () => void = () => {};
  const held = new Promise<void>((resolve) => (answer = resolve));
  await page.route('**/release', async (route) => {
    await held;
    await route.continue();
  });
  const answered = page.waitForResponse((r) => r.url().endsWith('/release'));
  await release(tags[2]!);
  await toInbox();
  answer();
  expect((await answered).status()).toBe(200);
  // Time for the page to take the answer in (a notice would ask for a frame), then for any frame.
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 500)));
  await expect.poll(framesWaiting).toBe(0);
  await expect(released).toHaveCount(0);
  await expect(page.getByRole('alert')).toHaveText('');
});

test('"Delete" asks first, then removes a spam submission', async ({ ownerPage: page, request }) => {
  const tag = uniqueTag('babbage');
  await sendHeld(request, 'Charles', tag, 'Buy cheap things');
  await openConsole(page, '/owner/spam');
  const row = page.getByRole('row', { name: new RegExp(tag) });
  await row.getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete this submission?' });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(row.getByRole('button', { name: 'Delete' })).toBeFocused();
  await expect(row).toBeVisible();

  await row.getByRole('button', { name: 'Delete' }).click();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The submission was deleted.' })).toBeVisible();
  await expect(row).toHaveCount(0);
});

test('a booking is confirmed, then rescheduled: the applicant gets the invite moved, same UID, higher SEQUENCE', async ({
  ownerPage: page,
  request,
}) => {
  const tag = uniqueTag('booking');
  const email = `${tag}@example.org`;
  const { reference } = await requestBooking(request, { lastName: tag, email });

  await openConsole(page, '/owner/bookings');
  const card = page.getByRole('article', { name: new RegExp(reference) });
  await expect(card.getByRole('listitem').filter({ hasText: 'First choice:' })).toBeVisible();
  await card.getByLabel('Day', { exact: true }).selectOption({ index: 0 });
  await card.getByLabel('Start time').selectOption({ index: 1 });
  await card.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('status').filter({ hasText: /confirmed/i })).toBeVisible();
  const [confirmed] = await waitForMailsTo(email, 'Your strategy session is confirmed');

  await page.getByRole('link', { name: 'Confirmed' }).click();
  await expect(page).toHaveURL(/view=confirmed/);
  const booked = page.getByRole('article', { name: new RegExp(reference) });
  const target = openWeekdayFrom(20);
  await booked.getByLabel('New date').fill(target);
  await booked.getByLabel('New start time').selectOption('10:00');
  await booked.getByRole('button', { name: 'Reschedule and tell the applicant' }).click();
  await expect(page.getByRole('status').filter({ hasText: /moved|rescheduled/i })).toBeVisible();
  const [moved] = await waitForMailsTo(email, 'Your strategy session has moved');

  const event = (mail: typeof moved) => {
    const ics = mail!.attachments.find((a) => a.filename.endsWith('.ics'));
    if (!ics) throw new Error('no invite attached');
    return new ICAL.Component(ICAL.parse(ics.content)).getFirstSubcomponent('vevent')!;
  };
  const before = event(confirmed);
  const after = event(moved);
  expect(after.getFirstPropertyValue('uid')).toBe(before.getFirstPropertyValue('uid'));
  expect(Number(after.getFirstPropertyValue('sequence'))).toBeGreaterThan(
    Number(before.getFirstPropertyValue('sequence') ?? 0),
  );

  // Its history names each change.
  await booked.getByText('History').click();
  await expect(booked.getByText('Rescheduled', { exact: true })).toBeVisible();
});
