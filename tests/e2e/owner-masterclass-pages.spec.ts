/**
 * Every masterclass visible (issue #25 item 3, decision 047), in real Chromium on the owner's
 * server: two masterclasses published from the console are both listed on /masterclasses, each
 * has its own page (details, places left, the registration form, the calendar file, its Event
 * structured data), registering on the second one's page works and takes one of its places, and
 * the Resources page links to them all. axe-clean.
 */
import type { EventInput, EventSummary } from '../../src/features/events/events-console-contract';
import { ukDateOf } from '../../src/lib/uk-dates';
import { expectNoAxeViolations } from './support/axe';
import { expect, gotoHydrated } from './support/fixtures';
import { EXPECTED_CONSOLE_ERRORS, sameOrigin, test, uniqueTag } from './owner-support';

test.use({ allowConsoleErrors: EXPECTED_CONSOLE_ERRORS });

function input(title: string, days: number): EventInput {
  const date = ukDateOf(new Date(Date.now() + days * 86_400_000));
  return {
    title,
    summary: `Allocation sizing, UK tax and secure custody (${title}).`,
    startsAt: `${date}T19:00`,
    endsAt: `${date}T20:30`,
    mode: 'online',
    place: '',
    joinUrl: 'https://meet.example.com/j/never-on-a-page',
    capacity: 7,
    registrationOpensAt: '',
    registrationClosesAt: '',
  };
}

test('two published masterclasses are listed, each has its own page, and registering on the second works', async ({
  ownerPage: page,
}) => {
  test.setTimeout(90_000);
  const tag = uniqueTag('class');
  const published: EventSummary[] = [];
  for (const [title, days] of [
    [`First masterclass ${tag}`, 30],
    [`Second masterclass ${tag}`, 45],
  ] as const) {
    const created = await page.request.post('/api/owner/events', { data: input(title, days), headers: sameOrigin });
    expect(created.status(), await created.text()).toBe(200);
    const draft = (await created.json()) as EventSummary;
    const done = await page.request.post(`/api/owner/events/${draft.id}/publish`, { data: {}, headers: sameOrigin });
    expect(done.status(), await done.text()).toBe(200);
    published.push(((await done.json()) as { event: EventSummary }).event);
  }
  const second = published[1]!;

  // Both on the list (rendered by the server after the owner's publish).
  await expect
    .poll(async () => (await (await page.request.get('/masterclasses')).text()).includes(second.title), {
      timeout: 30_000,
    })
    .toBe(true);
  await gotoHydrated(page, '/masterclasses');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Masterclasses');
  const upcoming = page.getByRole('region', { name: 'Upcoming' });
  await expect(upcoming.getByRole('link', { name: published[0]!.title })).toBeVisible();
  await expectNoAxeViolations(page);

  // The second one's own page: details, places left, its calendar file and its structured data.
  await upcoming.getByRole('link', { name: second.title }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(second.title);
  const card = page.getByTestId('masterclass');
  await expect(card).toHaveAttribute('data-state', 'upcoming');
  await expect(card.getByText('7 places left')).toBeVisible();
  await expect(card.getByRole('link', { name: /\+ Calendar/ })).toHaveAttribute(
    'href',
    `/api/events/${second.id}/calendar.ics`,
  );
  const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
  expect(blocks.map((b) => JSON.parse(b) as Record<string, unknown>)).toContainEqual(
    expect.objectContaining({ '@type': 'Event', name: second.title }),
  );
  expect(await page.content()).not.toContain('never-on-a-page');
  await expectNoAxeViolations(page);

  // Registering here registers for this one.
  await card.getByRole('link', { name: 'Reserve Your Spot' }).click();
  const form = page.getByRole('form', { name: 'Masterclass registration' });
  await expect(page.locator('#register')).toContainText(second.title);
  await form.getByLabel('Full Name').fill('Grace Hopper');
  await form.getByLabel('Email Address').fill(`grace.${tag.toLowerCase()}@example.com`);
  await form.getByLabel('Current Role or Company').fill('Partner, Example LLP');
  await form.getByRole('checkbox', { name: /register me for this masterclass/ }).check();
  const answer = page.waitForResponse('**/api/send-contact-email');
  await form.getByRole('button', { name: 'Reserve My Spot' }).click();
  expect((await answer).status()).toBe(200);
  await expect(page.getByTestId('registration-thank-you').getByRole('heading', { name: "You're registered" })).toBeFocused();
  await gotoHydrated(page, page.url().replace(/#.*$/, ''));
  await expect(page.getByTestId('masterclass').getByText('6 places left')).toBeVisible();

  // Resources keeps the next one's card and links to them all.
  await gotoHydrated(page, '/resources');
  await expect(page.getByRole('link', { name: /^See all \d+ upcoming masterclasses$/ })).toHaveAttribute(
    'href',
    '/masterclasses',
  );
});
