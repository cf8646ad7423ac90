/**
 * The pages behind the booking e-mails' signed links, opened from real e-mails: the e2e server
 * writes every message as an .eml file in its DATA_DIR/mail, and these tests read the links
 * back from there. The owner confirms (picking the start time) or declines; the applicant
 * cancels; used, forged and closed links are refused in words.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import ICAL from 'ical.js';
import type { APIRequestContext, Page } from '@playwright/test';
import { E2E_DATA_DIR } from '../../playwright.config';
import { formatUkDate } from '../../src/features/booking/booking-dates';
import { freeDays } from './support/free-days';
import { parseMail, type ParsedMail } from '../server/forms-mime';
import { expectNoAxeViolations } from './support/axe';
import { expect, gotoHydrated, test } from './support/fixtures';

const OWNER = 'owner@example.com';

function readMails(): ParsedMail[] {
  const dir = join(E2E_DATA_DIR, 'mail');
  let names: string[] = [];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.eml'));
  } catch {
    return [];
  }
  return names.sort().map((n) => parseMail(readFileSync(join(dir, n), 'utf8')));
}

/** Waits for the e-mail to `to` whose subject starts with `subject`. */
async function mailTo(to: string, subject: string): Promise<ParsedMail> {
  let found: ParsedMail | undefined;
  await expect
    .poll(
      () => {
        found = readMails().find(
          (m) => (m.header('to') ?? '').includes(to) && (m.header('subject') ?? '').startsWith(subject),
        );
        return Boolean(found);
      },
      { timeout: 10_000, message: `an e-mail to ${to}: ${subject}` },
    )
    .toBe(true);
  return found!;
}

/** The path and query of the link labelled `label` in the e-mail (its host is the public URL). */
function linkIn(mail: ParsedMail, label: string): string {
  const url = new RegExp(`${label}: (\\S+)`).exec(mail.text)?.[1];
  if (!url) throw new Error(`no "${label}" link in "${mail.header('subject')}"`);
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

let clients = 0;
/** A client address of its own for each booking (198.18.0.0/15, set aside for tests of networks). */
function clientAddress(): string {
  clients += 1;
  return `198.19.${process.pid % 250}.${clients % 250}`;
}

/**
 * A booking request for the morning of a free day of the test's own (a request holds its first
 * choice), with the afternoon of another as its second choice: `firstDate` is the first's.
 */
async function book(request: APIRequestContext, tag: string) {
  const [firstDate, secondDate] = await freeDays(request, 2);
  const email = `grace.${tag}.${Date.now()}@example.org`;
  // A client of its own (the e2e server trusts the loopback proxy): the booking form's rate limit
  // counts per client, and the wizard's tests book from the browser's own address.
  const client = { 'x-forwarded-for': clientAddress() };
  // The fill-time token a form fetches on first focus; the e2e server's minimum fill time is 50 ms.
  const issued = await request.post('/api/form-token', { data: { formType: 'booking' }, headers: client });
  const { token } = (await issued.json()) as { token: string };
  await new Promise((r) => setTimeout(r, 200));
  const res = await request.post('/api/send-contact-email', {
    headers: { ...client, 'Idempotency-Key': `e2e-${tag}-${Date.now()}` },
    data: {
      formType: 'booking',
      sessionType: 'zoom',
      firstChoiceDate: firstDate,
      firstChoiceTime: 'morning',
      secondChoiceDate: secondDate,
      secondChoiceTime: 'afternoon',
      firstName: 'Grace',
      lastName: 'Hopper',
      email,
      phone: '+44 20 7946 0321',
      company: 'Compilers Ltd',
      role: 'Rear Admiral',
      notes: '',
      website: '',
      formToken: token,
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  const { reference } = (await res.json()) as { reference: string };
  const ownerMail = await mailTo(OWNER, `New strategy session booking ${reference}`);
  return { email, reference, ownerMail, firstDate: firstDate! };
}

async function openLink(page: Page, path: string) {
  await gotoHydrated(page, path);
  await expect(page.getByText('Checking your link...')).toHaveCount(0);
}

for (const width of [1280, 375]) {
  test.describe(`booking links at ${width} px`, () => {
    test.use({
      viewport: { width, height: width > 800 ? 900 : 740 },
      // Refused links are answered 403/409/410 by the API, which the browser logs.
      allowConsoleErrors: /Failed to load resource: the server responded with a status of (403|409|410)/,
    });

    test('the owner confirms from the e-mail link, picking the start; the applicant gets the invite and can cancel', async ({
      page,
      request,
    }) => {
      const { email, reference, ownerMail, firstDate: day } = await book(request, `confirm${width}`);

      await openLink(page, linkIn(ownerMail, 'Confirm first choice'));
      const heading = page.getByRole('heading', { name: 'Confirm the first choice' });
      await expect(heading).toBeVisible();
      await expect(heading).toBeFocused();
      await expect(page.getByText(reference)).toBeVisible();
      await expect(page.getByText('Grace Hopper')).toBeVisible();
      await expect(page.getByText('Live Zoom Workshop')).toBeVisible();
      const starts = page.getByRole('group', { name: /Start time \(UK time, 45 minutes\)/ });
      await expect(starts.getByRole('radio')).toHaveCount(10);
      await expect(starts.getByRole('radio', { name: '9am-9:45am' })).toBeChecked();
      await expectNoAxeViolations(page);

      await starts.getByRole('radio', { name: '10:15am-11am' }).check();
      // A Zoom session asks for its meeting link (no default is set here): it is the invitation's place.
      await expect(page.getByLabel('Meeting link')).toHaveValue('');
      await page.getByLabel('Meeting link').fill('https://zoom.example.com/j/4242');
      await page.getByRole('button', { name: 'Confirm booking' }).click();
      const done = page.getByTestId('booking-link-done');
      await expect(done).toContainText(`Confirmed for ${formatUkDate(day)}, 10:15am-11am UK time.`);
      await expect(done.getByRole('heading')).toBeFocused();
      await expectNoAxeViolations(page);

      // The applicant's invitation, with the slot in Europe/London time.
      const invite = await mailTo(email, 'Your strategy session is confirmed');
      expect(invite.text).toContain(reference);
      const ics = invite.attachments.find((a) => a.filename === 'invite.ics');
      expect(ics).toBeDefined();
      const vevent = new ICAL.Component(ICAL.parse(ics!.content)).getFirstSubcomponent('vevent')!;
      expect(vevent.getFirstProperty('dtstart')?.getParameter('tzid')).toBe('Europe/London');
      expect(String(vevent.getFirstPropertyValue('dtstart'))).toBe(`${day}T10:15:00`);
      expect(String(vevent.getFirstPropertyValue('location'))).toBe('https://zoom.example.com/j/4242');

      // The same link again, and the other owner links, are refused in words.
      await openLink(page, linkIn(ownerMail, 'Confirm first choice'));
      await expect(page.getByTestId('booking-link-refused')).toHaveText('This link has already been used.');
      await openLink(page, linkIn(ownerMail, 'Confirm second choice'));
      await expect(page.getByTestId('booking-link-refused')).toHaveText('This booking is already confirmed.');
      await expectNoAxeViolations(page);

      // The applicant cancels from the invitation e-mail.
      await openLink(page, linkIn(invite, 'Cancel this booking'));
      await expect(page.getByRole('heading', { name: 'Cancel your strategy session' })).toBeVisible();
      await expect(page.getByText(`${formatUkDate(day)}, 10:15am-11am UK time`)).toBeVisible();
      await expect(page.getByText('Grace Hopper')).toHaveCount(0);
      await expectNoAxeViolations(page);
      await page.getByRole('button', { name: 'Cancel my booking' }).click();
      await expect(page.getByTestId('booking-link-done')).toHaveText(
        'Your booking is cancelled. We have let the team know.',
      );

      const cancelled = await mailTo(email, `Your strategy session ${reference} is cancelled`);
      const cancelIcs = cancelled.attachments.find((a) => a.filename === 'cancellation.ics');
      expect(cancelIcs?.content).toContain('METHOD:CANCEL');
      const uid = (text: string) => /UID:(\S+)/.exec(text)?.[1];
      expect(uid(cancelIcs!.content)).toBe(uid(ics!.content));
      await mailTo(OWNER, `Booking ${reference} cancelled`);
    });

    test('the owner declines, with the keyboard alone', async ({ page, request }) => {
      const { email, reference, ownerMail } = await book(request, `decline${width}`);
      await openLink(page, linkIn(ownerMail, 'Decline'));
      await expect(page.getByRole('heading', { name: 'Decline this booking request' })).toBeFocused();
      await expect(page.getByRole('radio')).toHaveCount(0);
      await page.keyboard.press('Tab');
      await expect(page.getByRole('button', { name: 'Decline request' })).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('booking-link-done')).toHaveText(
        'Declined. The applicant has been told.',
      );
      await mailTo(email, `About your strategy session request ${reference}`);
    });

    test('a forged or missing token gets a clear refusal', async ({ page }) => {
      await openLink(page, '/booking/respond?token=not-a-real-token');
      await expect(page.getByTestId('booking-link-refused')).toHaveText(
        'This link is not valid. Please use the link exactly as it appears in the e-mail.',
      );
      await expectNoAxeViolations(page);
      await openLink(page, '/booking/cancel');
      await expect(page.getByTestId('booking-link-refused')).toContainText('This link is not valid.');
    });
  });
}
