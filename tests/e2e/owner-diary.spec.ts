/**
 * The owner's calendar subscription in the browser (decision 035): the owner makes the address,
 * reads it on the page (axe-clean), and the feed at it holds a session they confirmed; replacing
 * it asks first and says what it breaks, and the old address then answers 404. A helper is not
 * offered the page. On the Bookings page, a time that clashes with a confirmed session is refused
 * with the clash named, and the owner may confirm it anyway (the audit log says so).
 */
import type { APIRequestContext } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { expect, gotoHydrated } from './support/fixtures';
import {
  bookingId,
  sameOrigin,
  EXPECTED_CONSOLE_ERRORS,
  OWNER_EMAIL,
  openConsole,
  requestBooking,
  test,
  uniqueTag,
  waitForMailsTo,
} from './owner-support';
import { formatUkDate } from '../../src/features/booking/booking-dates';
import { freeDays } from './support/free-days';

test.use({ allowConsoleErrors: EXPECTED_CONSOLE_ERRORS });

/**
 * A request whose first choice clashes with a confirmed session. The visitor's form lets no two
 * requests ask for one half-day: `second` holds the day's morning, and the owner confirms `first`
 * elsewhere and moves it onto that morning at 9am (a move checks the diary, not requests).
 */
async function clashingRequest(request: APIRequestContext, tag: string) {
  const [day] = await freeDays(request, 1);
  const second = await requestBooking(request, {
    lastName: `${tag}b`,
    email: `${tag}b@example.org`,
    first: day!,
  });
  const first = await requestBooking(request, { lastName: `${tag}a`, email: `${tag}a@example.org` });
  const firstId = await bookingId(request, first.reference);
  for (const [path, data] of [
    ['confirm', { choice: 1, start: '09:00' }],
    ['reschedule', { date: day, start: '09:00' }],
  ] as const) {
    const res = await request.post(`/api/owner/bookings/${firstId}/${path}`, { headers: sameOrigin, data });
    expect(res.status(), await res.text()).toBe(200);
  }
  return { day: day!, first, second };
}

test('the owner makes the calendar address, the feed shows a confirmed session, and replacing it ends the old one', async ({
  ownerPage: page,
}) => {
  await openConsole(page, '/owner/calendar');
  const make = page.getByRole('button', { name: 'Make the calendar address' });
  const shown = page.getByTestId('diary-address');
  // Once the page has loaded: the button when no address was made yet, else the address.
  await expect(make.or(shown)).toBeVisible();
  if (await make.isVisible()) {
    await make.click();
    await expect(
      page.getByRole('status').filter({ hasText: 'The calendar address is ready. Add it to your calendar.' }),
    ).toBeVisible();
  }
  await expect(shown).toHaveText(/\/calendar\/diary\.ics\?key=/);
  const address = new URL((await shown.textContent()) ?? '');
  await expect(page.getByRole('link', { name: 'Subscribe in your calendar app' })).toHaveAttribute(
    'href',
    /^webcal:\/\//,
  );
  await expectNoAxeViolations(page);

  // A session the owner confirms appears in the feed at that address.
  const lastName = uniqueTag('Diary');
  const { reference } = await requestBooking(page.request, {
    lastName,
    email: `${lastName}@example.org`,
  });
  const list = await page.request.get('/api/owner/bookings', { headers: sameOrigin });
  const booking = ((await list.json()) as { items: { id: string; reference: string }[] }).items.find(
    (item) => item.reference === reference,
  );
  const confirmed = await page.request.post(`/api/owner/bookings/${booking!.id}/confirm`, {
    headers: sameOrigin,
    data: { choice: 1, start: '09:45' },
  });
  expect(confirmed.status(), await confirmed.text()).toBe(200);
  const feed = await page.request.get(`${address.pathname}${address.search}`);
  expect(feed.status()).toBe(200);
  expect(feed.headers()['content-type']).toBe('text/calendar; charset=utf-8');
  // Long lines are folded (RFC 5545 3.1): read the feed unfolded.
  const ics = (await feed.text()).replace(/\r\n /g, '');
  expect(ics).toContain('BEGIN:VCALENDAR');
  expect(ics).toContain(`Reference ${reference}.`);

  await page.getByRole('button', { name: 'Replace the address' }).click();
  const dialog = page.getByRole('dialog', { name: 'Replace the calendar address?' });
  await expect(dialog).toContainText('stops working at once');
  await dialog.getByRole('button', { name: 'Replace it' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'The address is replaced: the old one no longer works.' }),
  ).toBeVisible();
  await expect(shown).not.toHaveText(address.href);
  const fresh = new URL((await shown.textContent()) ?? '');
  expect((await page.request.get(`${address.pathname}${address.search}`)).status()).toBe(404);
  expect((await page.request.get(`${fresh.pathname}${fresh.search}`)).status()).toBe(200);
});

test('confirming a time that clashes with a confirmed session is refused with the clash named; the owner insists', async ({
  ownerPage: page,
}) => {
  const { first, second } = await clashingRequest(page.request, uniqueTag('Clash'));

  await openConsole(page, '/owner/bookings');
  const card = page.getByRole('article', { name: new RegExp(second.reference) });
  await card.getByLabel('Start time').selectOption('09:30');
  await card.getByRole('button', { name: 'Confirm', exact: true }).click();
  const clash = card.getByTestId('booking-clash');
  await expect(clash).toHaveText(
    new RegExp(
      `^This time clashes with booking ${first.reference}, .+, 9am-9:45am UK time\\. Choose another start time, or confirm it anyway\\.$`,
    ),
  );
  await expect(
    page.getByRole('alert').or(page.getByRole('status')).filter({ hasText: 'clashes with' }),
  ).toBeVisible();
  await expectNoAxeViolations(page);

  // Another start time clears the refusal; back to the clashing one, the owner insists.
  await card.getByLabel('Start time').selectOption('10:00');
  await expect(clash).toHaveCount(0);
  await card.getByLabel('Start time').selectOption('09:30');
  await card.getByRole('button', { name: 'Confirm', exact: true }).click();
  await card.getByRole('button', { name: 'Confirm anyway' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: /^Confirmed for .+, 9:30am-10:15am UK time\./ }),
  ).toBeVisible();

  await openConsole(page, '/owner/audit');
  await expect(page.getByRole('main')).toContainText(
    `confirmed booking ${second.reference}, despite a clash with booking ${first.reference}`,
  );
});

test('the owner’s e-mailed link refuses a start time that clashes with a confirmed session, and another one confirms', async ({
  ownerPage: page,
}) => {
  const { day, first, second } = await clashingRequest(page.request, uniqueTag('LinkClash'));
  const [ownerMail] = await waitForMailsTo(OWNER_EMAIL, `New strategy session booking ${second.reference}`);
  const url = new URL(/Confirm first choice: (\S+)/.exec(ownerMail!.text)![1]!);
  await gotoHydrated(page, `${url.pathname}${url.search}`);
  await expect(page.getByText('Checking your link...')).toHaveCount(0);

  const starts = page.getByRole('group', { name: /Start time \(UK time, 45 minutes\)/ });
  await starts.getByRole('radio', { name: '9:30am-10:15am' }).check();
  await page.getByRole('button', { name: 'Confirm booking' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    `This time clashes with booking ${first.reference}, ${formatUkDate(day)}, 9am-9:45am UK time. Choose another start time, or confirm it anyway from the Bookings page of the console.`,
  );
  await expectNoAxeViolations(page);
  // The link is still good: the form stays, and a time clear of the first confirms.
  await starts.getByRole('radio', { name: '9:45am-10:30am' }).check();
  await page.getByRole('button', { name: 'Confirm booking' }).click();
  await expect(page.getByTestId('booking-link-done')).toContainText(
    `Confirmed for ${formatUkDate(day)}, 9:45am-10:30am UK time.`,
  );
});

test('a helper is not offered the calendar page', async ({ helperPage: page }) => {
  await expect(
    page.getByRole('navigation', { name: /console/i }).getByRole('link', { name: 'Calendar' }),
  ).toHaveCount(0);
  await openConsole(page, '/owner/calendar');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('For the owner only');
  await expect(page.getByTestId('diary-address')).toHaveCount(0);
});
