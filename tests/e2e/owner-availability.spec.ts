/**
 * The owner's availability in real Chromium (decision 036): the owner adds days off on the
 * Availability page (axe clean, audited); the booking wizard's calendar of free dates then marks
 * that day and a bank holiday closed, read out with their reason, and choosing a free date fills
 * the field; a half-day another request holds is disabled as "Fully booked"; a half-day taken
 * between the page's load and the request brings the visitor back to step 1 with the message and
 * every value kept; a half-day busy in the owner's own calendar (a real .ics served by the test)
 * is disabled, and stays so when the calendar then fails, with the owner warned.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { formatUkDate } from '../../src/features/booking/booking-dates';
import { addDays, ukWallTimeToInstant } from '../../src/lib/uk-dates';
import { expectNoAxeViolations } from './support/axe';
import { expect, gotoHydrated } from './support/fixtures';
import { freeDays } from './support/free-days';
import {
  clientAddress,
  EXPECTED_CONSOLE_ERRORS,
  formToken,
  openConsole,
  requestBooking,
  sameOrigin,
  test,
  uniqueTag,
} from './owner-support';

test.use({
  // The taken half-day is answered 409 by the form endpoint, which the browser logs.
  allowConsoleErrors: new RegExp(`${EXPECTED_CONSOLE_ERRORS.source}|status of 409`),
});

const firstChoice = (page: Page) => page.getByRole('group', { name: 'First choice' });

/** A visitor's booking request for the morning of `date`, as the wizard sends it: its HTTP status. */
async function requestBookingStatus(page: Page, date: string): Promise<number> {
  const token = await formToken(page.request, 'booking');
  const res = await page.request.post('/api/send-contact-email', {
    headers: { ...sameOrigin, 'x-forwarded-for': clientAddress() },
    data: {
      formType: 'booking',
      sessionType: 'inPerson',
      firstChoiceDate: date,
      firstChoiceTime: 'morning',
      secondChoiceDate: '',
      secondChoiceTime: '',
      firstName: 'Day',
      lastName: 'Off',
      email: `${uniqueTag('dayoff')}@example.org`,
      phone: '+44 7700 900123',
      company: 'Test Ltd',
      role: 'Adviser',
      notes: '',
      website: '',
      formToken: token,
    },
  });
  return res.status();
}

/** Opens the first choice's calendar and shows the month of `date`. */
async function calendarAt(page: Page, date: string) {
  await firstChoice(page).getByRole('button', { name: 'Show free dates for the first choice' }).click();
  const title = new Date(`${date}T12:00:00Z`).toLocaleDateString('en-GB', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
  for (let i = 0; i < 13; i += 1) {
    if ((await firstChoice(page).getByRole('table').getAttribute('aria-label'))?.endsWith(title)) return;
    await firstChoice(page).getByRole('button', { name: 'Next month' }).click();
  }
  throw new Error(`the calendar never showed ${title}`);
}

test('days off set in the console and a bank holiday are closed in the wizard’s calendar; a free date fills the field', async ({
  ownerPage: owner,
  page,
}) => {
  const [off, free] = await freeDays(owner.request, 2, 3);
  await openConsole(owner, '/owner/availability');
  await expect(owner.getByRole('heading', { name: 'Weekly hours' })).toBeVisible();
  await expectNoAxeViolations(owner);
  await owner.getByLabel('First day off').fill(off!);
  await owner.getByLabel('Note').fill('Dentist');
  await owner.getByRole('button', { name: 'Add days off' }).click();
  // Saved at once: no other button to press, and a reload finds it.
  await expect(
    owner
      .getByRole('status')
      .filter({ hasText: `Days off saved: ${formatUkDate(off!)}. Visitors can no longer ask for them.` }),
  ).toBeVisible();
  await expect(owner.getByRole('list', { name: 'Days off' })).toContainText(`${formatUkDate(off!)}: Dentist`);
  await expect(owner.getByText('You have changes that are not saved yet.')).toHaveCount(0);
  await expectNoAxeViolations(owner);
  await owner.reload();
  await expect(owner.getByRole('list', { name: 'Days off' })).toContainText(`${formatUkDate(off!)}: Dentist`);
  // A visitor's request for it is refused.
  const refused = await requestBookingStatus(page, off!);
  expect(refused).toBe(409);
  await openConsole(owner, '/owner/audit');
  await expect(owner.getByRole('main')).toContainText(
    'changed the availability offered to visitors (days off)',
  );

  await gotoHydrated(page, '/book');
  await calendarAt(page, off!);
  const closed = firstChoice(page).getByRole('button', { name: `${formatUkDate(off!)}, Closed` });
  await expect(closed).toHaveAttribute('aria-disabled', 'true');
  // Pressed anyway: nothing happens.
  await closed.click({ force: true });
  await expect(firstChoice(page).getByLabel('Date')).toHaveValue('');
  await expectNoAxeViolations(page);

  // Christmas Day is a bank holiday, inside the 12 months ahead.
  const today = new Date().toISOString().slice(0, 10);
  const christmas =
    `${today.slice(0, 4)}-12-25` > addDays(today, 1)
      ? `${today.slice(0, 4)}-12-25`
      : `${Number(today.slice(0, 4)) + 1}-12-25`;
  await firstChoice(page).getByRole('button', { name: 'Hide the calendar' }).click();
  await calendarAt(page, christmas);
  await expect(
    firstChoice(page).getByRole('button', { name: `${formatUkDate(christmas)}, Closed` }),
  ).toHaveAttribute('aria-disabled', 'true');

  // Months ahead of the first page of the answer are read as the calendar reaches them: a
  // Saturday seven months on is marked closed.
  let saturday = addDays(today, 210);
  while (new Date(`${saturday}T12:00:00Z`).getUTCDay() !== 6) saturday = addDays(saturday, 1);
  await firstChoice(page).getByRole('button', { name: 'Hide the calendar' }).click();
  await calendarAt(page, saturday);
  await expect(
    firstChoice(page).getByRole('button', { name: `${formatUkDate(saturday)}, Closed` }),
  ).toHaveAttribute('aria-disabled', 'true');

  // A free date, chosen with the keyboard: the field takes it and focus returns to the button.
  await firstChoice(page).getByRole('button', { name: 'Hide the calendar' }).click();
  await calendarAt(page, free!);
  const day = firstChoice(page).getByRole('button', { name: formatUkDate(free!), exact: true });
  await day.focus();
  await page.keyboard.press('Enter');
  await expect(firstChoice(page).getByLabel('Date')).toHaveValue(free!);
  await expect(
    firstChoice(page).getByRole('button', { name: 'Show free dates for the first choice' }),
  ).toBeFocused();

  // Put back, for the tests after this one: saved at once too.
  await openConsole(owner, '/owner/availability');
  await owner.getByRole('button', { name: `Remove ${formatUkDate(off!)}` }).click();
  await expect(
    owner.getByRole('status').filter({
      hasText: `${formatUkDate(off!)} removed from your days off. Visitors can ask for it again.`,
    }),
  ).toBeVisible();
  await owner.reload();
  await expect(owner.getByText('No days off.')).toBeVisible();
});

test('changes to the other settings are shown unsaved, and leaving the page with them asks first', async ({
  ownerPage: owner,
}) => {
  await openConsole(owner, '/owner/availability');
  const cap = owner.getByLabel('Most sessions in one day');
  const before = await cap.inputValue();
  await cap.fill(before === '3' ? '4' : '3');
  await expect(owner.getByText('You have changes that are not saved yet.')).toBeVisible();
  await owner.setViewportSize({ width: 1280, height: 900 });
  await owner.screenshot({ path: 'test-results/screens/availability-unsaved-1280.png', fullPage: true });
  await owner.setViewportSize({ width: 390, height: 844 });
  await owner.screenshot({ path: 'test-results/screens/availability-unsaved-390.png', fullPage: true });
  await owner.setViewportSize({ width: 1280, height: 900 });

  // Leaving inside the console: asked, and staying keeps the change.
  const asked: string[] = [];
  owner.once('dialog', (dialog) => {
    asked.push(dialog.message());
    void dialog.dismiss();
  });
  await owner.getByRole('navigation').getByRole('link', { name: 'Bookings' }).first().click();
  await expect
    .poll(() => asked)
    .toEqual(['Your availability changes are not saved. Leave this page and lose them?']);
  await expect(owner).toHaveURL(/\/owner\/availability$/);
  await expect(cap).not.toHaveValue(before);

  // Put back: nothing left unsaved, and leaving asks nothing.
  await cap.fill(before);
  await expect(owner.getByText('You have changes that are not saved yet.')).toHaveCount(0);
  await owner.getByRole('navigation').getByRole('link', { name: 'Bookings' }).first().click();
  await expect(owner).toHaveURL(/\/owner\/bookings/);
});

test('a half-day another request holds is disabled as fully booked; the other half stays free', async ({
  page,
}) => {
  const tag = uniqueTag('Held');
  const [day] = await freeDays(page.request, 1);
  await requestBooking(page.request, { lastName: tag, email: `${tag}@example.org`, first: day! });

  await gotoHydrated(page, '/book');
  await firstChoice(page).getByLabel('Date').fill(day!);
  const morning = firstChoice(page).getByRole('radio', { name: 'Morning (9am-12pm)' });
  await expect(morning).toBeDisabled();
  await expect(morning).toHaveAccessibleDescription(/Fully booked/);
  await expect(firstChoice(page).getByRole('radio', { name: 'Afternoon (1pm-5pm)' })).toBeEnabled();
  await expectNoAxeViolations(page);
});

test('a half-day taken between the page’s load and the request: back to step 1 with the message, every value kept', async ({
  page,
}) => {
  const tag = uniqueTag('Taken');
  const [day] = await freeDays(page.request, 1);
  await gotoHydrated(page, '/book');
  await firstChoice(page).getByLabel('Date').fill(day!);
  await firstChoice(page).getByRole('radio', { name: 'Morning (9am-12pm)' }).check();
  await page.getByRole('button', { name: 'Continue to Contact Details' }).click();
  await expect(page.getByRole('heading', { name: 'Your Details' })).toBeFocused();
  const fields = {
    'First Name': 'Ada',
    'Last Name': tag,
    'Email Address': `${tag}@example.org`,
    'Phone Number': '+44 20 7946 0321',
    Company: 'Engines Ltd',
    'Job Title': 'Partner',
  };
  for (const [label, value] of Object.entries(fields))
    await page.getByLabel(label, { exact: true }).fill(value);

  // Someone else asks for the same morning meanwhile.
  await requestBooking(page.request, { lastName: `${tag}x`, email: `${tag}x@example.org`, first: day! });
  await page.getByRole('button', { name: 'Complete Booking' }).click();

  await expect(page.getByRole('heading', { name: 'Select Your Session Format' })).toBeFocused();
  const date = firstChoice(page).getByLabel('Date');
  await expect(date).toHaveValue(day!);
  await expect(date).toHaveAccessibleDescription(
    'Sorry, that time has just been taken. Please choose another date or time.',
  );
  await expect(firstChoice(page).getByRole('radio', { name: 'Morning (9am-12pm)' })).toBeDisabled();
  await expectNoAxeViolations(page);

  // The afternoon of the same day is still free: forward again, the details kept, and booked.
  await firstChoice(page).getByRole('radio', { name: 'Afternoon (1pm-5pm)' }).check();
  await page.getByRole('button', { name: 'Continue to Contact Details' }).click();
  for (const [label, value] of Object.entries(fields))
    await expect(page.getByLabel(label, { exact: true })).toHaveValue(value);
  await page.getByRole('button', { name: 'Complete Booking' }).click();
  await expect(page.getByRole('heading', { name: 'Booking Confirmed!' })).toBeFocused();
});

test('a half-day busy in the owner’s own calendar is disabled in the wizard; a calendar that fails keeps it closed and warns', async ({
  ownerPage: owner,
  page,
}) => {
  const [day] = await freeDays(owner.request, 1, 1);
  // The owner's calendar provider: a real .ics over HTTP, one busy hour that morning.
  const stamp = (hhmm: string) =>
    ukWallTimeToInstant(day!, hhmm)
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d{3}/, '');
  const ics = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Test//EN',
    'BEGIN:VEVENT',
    'UID:dentist@example.com',
    'DTSTAMP:20261101T000000Z',
    'SUMMARY:Dentist',
    `DTSTART:${stamp('10:00')}`,
    `DTEND:${stamp('11:00')}`,
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');
  let status = 200;
  const server = createServer((_req, res) => {
    res.writeHead(status, { 'content-type': 'text/calendar' });
    res.end(status === 200 ? ics : '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = `http://127.0.0.1:${(server.address() as AddressInfo).port}/private-abc123/basic.ics`;
  try {
    await openConsole(owner, '/owner/availability');
    await expect(owner.getByText('No calendar address is set.')).toBeVisible();
    await owner.getByLabel('Secret address of your calendar').fill(address);
    await owner.getByRole('button', { name: 'Save and read' }).click();
    await expect(
      owner.getByRole('status').filter({ hasText: 'Your calendar was read: 1 half-day is busy.' }),
    ).toBeVisible();
    const calendar = owner.getByRole('region', { name: 'Your own calendar' });
    await expect(calendar).toContainText('/….ics');
    await expect(calendar).not.toContainText('abc123');
    await expectNoAxeViolations(owner);

    await gotoHydrated(page, '/book');
    await firstChoice(page).getByLabel('Date').fill(day!);
    const morning = firstChoice(page).getByRole('radio', { name: 'Morning (9am-12pm)' });
    await expect(morning).toBeDisabled();
    await expect(morning).toHaveAccessibleDescription(/Fully booked/);
    await expect(firstChoice(page).getByRole('radio', { name: 'Afternoon (1pm-5pm)' })).toBeEnabled();

    // The calendar stops answering: the last good copy still closes the morning, and the owner is told.
    status = 404;
    await openConsole(owner, '/owner/availability');
    await calendar.getByRole('button', { name: 'Read it now' }).click();
    const warning = calendar.getByRole('alert').filter({ hasText: 'Your calendar could not be read' });
    await expect(warning).toContainText('The calendar address answered 404 (not found)');
    await expect(warning).toContainText('The busy times of the last good copy are still used.');
    await expectNoAxeViolations(owner);
    await openConsole(owner, '/owner');
    await expect(owner.getByRole('heading', { name: 'Your calendar could not be read' })).toBeVisible();
    await gotoHydrated(page, '/book');
    await firstChoice(page).getByLabel('Date').fill(day!);
    await expect(firstChoice(page).getByRole('radio', { name: 'Morning (9am-12pm)' })).toBeDisabled();
  } finally {
    // Put back, for the tests after this one.
    await openConsole(owner, '/owner/availability');
    await owner.getByRole('button', { name: 'Remove the address' }).click();
    await expect(owner.getByText('No calendar address is set.')).toBeVisible();
    await new Promise((resolve) => server.close(resolve));
  }
});
