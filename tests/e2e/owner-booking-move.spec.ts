/**
 * An applicant moves their own session from the e-mail, in real Chromium (decision 039): the
 * confirmation's reschedule link opens a page that offers only free half-days (one held by another
 * request is disabled with its reason); the half-day asked for reaches the owner's Bookings page,
 * where the owner confirms the new time, and the applicant gets the moved invitation.
 */
import { expectNoAxeViolations } from './support/axe';
import { expect, gotoHydrated } from './support/fixtures';
import { freeDays } from './support/free-days';
import {
  bookingId,
  EXPECTED_CONSOLE_ERRORS,
  openConsole,
  requestBooking,
  sameOrigin,
  test,
  uniqueTag,
  waitForMailsTo,
} from './owner-support';

test.use({ allowConsoleErrors: EXPECTED_CONSOLE_ERRORS });

/** The path and query of the link labelled `label` in an e-mail's text. */
function linkIn(text: string, label: string): string {
  const url = new RegExp(`${label}: (\\S+)`).exec(text)?.[1];
  if (!url) throw new Error(`no "${label}" link`);
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

test('an applicant asks to move their session from the e-mail, and the owner confirms the new time', async ({
  ownerPage: page,
}) => {
  const tag = uniqueTag('Move');
  const email = `${tag}@example.org`;
  const [sessionDay, heldDay, newDay] = await freeDays(page.request, 3, 4);
  const { reference } = await requestBooking(page.request, { lastName: tag, email, first: sessionDay! });
  // Another visitor holds the morning of heldDay.
  await requestBooking(page.request, { lastName: `${tag}x`, email: `${tag}x@example.org`, first: heldDay! });
  const id = await bookingId(page.request, reference);
  const confirmed = await page.request.post(`/api/owner/bookings/${id}/confirm`, {
    headers: sameOrigin,
    data: { choice: 1, start: '09:30' },
  });
  expect(confirmed.status(), await confirmed.text()).toBe(200);
  const [mail] = await waitForMailsTo(email, 'Your strategy session is confirmed');

  await gotoHydrated(page, linkIn(mail!.text, 'Move to another time'));
  await expect(
    page.getByRole('heading', { name: 'Move your strategy session to another time' }),
  ).toBeVisible();
  const date = page.getByLabel('New date');
  await date.fill(heldDay!);
  const morning = page.getByRole('radio', { name: 'Morning (9am-12pm)' });
  await expect(morning).toBeDisabled();
  await expect(morning).toHaveAccessibleDescription(/Fully booked/);
  await date.fill(newDay!);
  await page.getByRole('radio', { name: 'Afternoon (1pm-5pm)' }).check();
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: 'Ask for this time' }).click();
  await expect(
    page.getByRole('heading', { name: /^Your request to move to .+, afternoon 1pm-5pm UK time is sent\./ }),
  ).toBeVisible();

  await openConsole(page, '/owner/bookings?view=confirmed');
  const card = page.getByRole('article', { name: new RegExp(reference) });
  await expect(card).toContainText('Asks to move to');
  await expectNoAxeViolations(page);
  const form = card.getByRole('form', { name: /Move to the time asked for/ });
  await form.getByLabel('Start time').selectOption('14:00');
  await form.getByRole('button', { name: 'Confirm the new time' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: /^Moved to .+, 2pm-2:45pm UK time\./ }),
  ).toBeVisible();
  await waitForMailsTo(email, 'Your strategy session has moved');
});

test('the owner declines a request with a reason and another half-day; the applicant’s e-mail carries both', async ({
  ownerPage: page,
}) => {
  const tag = uniqueTag('Decline');
  const email = `${tag}@example.org`;
  const [first, second, suggested] = await freeDays(page.request, 3, 7);
  const { reference } = await requestBooking(page.request, {
    lastName: tag,
    email,
    first: first!,
    second: second!,
  });

  await openConsole(page, '/owner/bookings');
  const card = page.getByRole('article', { name: new RegExp(reference) });
  await card.getByText('Decline with a reason or another time (optional)').click();
  await card.getByLabel('Reason').fill('I am teaching that week.');
  await card.getByLabel('Suggest another date').fill(suggested!);
  await card.getByLabel('Suggest morning or afternoon').selectOption('morning');
  await expectNoAxeViolations(page);
  await card.getByRole('button', { name: 'Decline' }).click();
  await page
    .getByRole('dialog', { name: 'Decline this request?' })
    .getByRole('button', { name: 'Decline' })
    .click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Declined. The applicant has been told.' }),
  ).toBeVisible();

  const [mail] = await waitForMailsTo(email, `About your strategy session request ${reference}`);
  expect(mail!.text).toContain('neither of the times you chose');
  expect(mail!.text).toContain('Our note: I am teaching that week.');
  expect(mail!.text).toMatch(/We could offer .+, morning 9am-12pm UK time instead\./);
});

test('the owner sees the half-day a request holds and releases it; visitors are offered it again', async ({
  ownerPage: page,
  page: visitor,
}) => {
  const tag = uniqueTag('Release');
  const [day] = await freeDays(page.request, 1, 5);
  const { reference } = await requestBooking(page.request, {
    lastName: tag,
    email: `${tag}@example.org`,
    first: day!,
  });

  await gotoHydrated(visitor, '/book');
  const date = visitor.getByRole('group', { name: 'First choice' }).getByLabel('Date');
  await date.fill(day!);
  const morning = visitor
    .getByRole('group', { name: 'First choice' })
    .getByRole('radio', { name: 'Morning (9am-12pm)' });
  await expect(morning).toBeDisabled();

  await openConsole(page, '/owner/bookings');
  const card = page.getByRole('article', { name: new RegExp(reference) });
  await expect(card.getByText('Held for it')).toBeVisible();
  await expect(card).toContainText('closed to other visitors until');
  await expectNoAxeViolations(page);
  await page.setViewportSize({ width: 1280, height: 900 });
  await card.screenshot({ path: 'test-results/screens/booking-hold-1280.png' });
  await page.setViewportSize({ width: 390, height: 844 });
  await card.screenshot({ path: 'test-results/screens/booking-hold-390.png' });
  await page.setViewportSize({ width: 1280, height: 900 });

  await card.getByRole('button', { name: 'Release the half-day' }).click();
  await page
    .getByRole('dialog', { name: 'Release this half-day?' })
    .getByRole('button', { name: 'Release the half-day' })
    .click();
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: `The half-day held by ${reference} is open to visitors again.` }),
  ).toBeVisible();
  await expect(card).toContainText('Nothing: other visitors may still ask for its first choice.');
  await expect(card.getByRole('button', { name: 'Release the half-day' })).toHaveCount(0);

  await gotoHydrated(visitor, '/book');
  await date.fill(day!);
  await expect(morning).toBeEnabled();
});
