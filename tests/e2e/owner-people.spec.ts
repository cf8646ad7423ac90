/**
 * The People screen shows every kind of row the registry of personal data finds: a person who
 * registered for a masterclass sees their registration listed with the masterclass's title, beside
 * their submission, consent and e-mails; erasing them says what went, registrations included.
 */
import { expect } from './support/fixtures';
import { OWNER_BASE_URL } from '../../playwright.config';
import {
  clientAddress,
  EXPECTED_CONSOLE_ERRORS,
  formToken,
  openConsole,
  test,
  uniqueTag,
} from './owner-support';

test.use({ allowConsoleErrors: EXPECTED_CONSOLE_ERRORS });

const sameOrigin = { Origin: OWNER_BASE_URL };

/** The UK date `days` from now, `YYYY-MM-DD`. */
const ukDate = (days: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(
    new Date(Date.now() + days * 86_400_000),
  );

test("a person's masterclass registration is on the People screen, and erased with them", async ({
  ownerPage: page,
}) => {
  const tag = uniqueTag('people');
  const email = `${tag}@example.org`;
  const title = `Registry masterclass ${tag}`;
  const day = ukDate(40 + Math.floor(Math.random() * 20));
  const created = await page.request.post('/api/owner/events', {
    headers: sameOrigin,
    data: {
      title,
      summary: 'Seen on the People screen.',
      startsAt: `${day}T18:00`,
      endsAt: `${day}T19:00`,
      mode: 'online',
      place: '',
      joinUrl: 'https://meet.example.org/people',
      capacity: 5,
      registrationOpensAt: '',
      registrationClosesAt: '',
    },
  });
  expect(created.status(), await created.text()).toBe(200);
  const { id } = (await created.json()) as { id: string };
  const published = await page.request.post(`/api/owner/events/${id}/publish`, {
    headers: sameOrigin,
    data: {},
  });
  expect(published.status(), await published.text()).toBe(200);
  const registered = await page.request.post('/api/send-contact-email', {
    headers: { ...sameOrigin, 'x-forwarded-for': clientAddress() },
    data: {
      formType: 'masterclass',
      eventId: id,
      firstName: 'Grace Registry',
      email,
      company: 'Example LLP',
      consent: true,
      website: '',
      formToken: await formToken(page.request, 'masterclass'),
    },
  });
  expect(registered.status(), await registered.text()).toBe(200);

  await openConsole(page, '/owner/people');
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Find' }).click();
  await expect(page.getByRole('heading', { level: 2, name: email })).toBeVisible();
  await expect(page.getByRole('heading', { level: 3, name: 'Masterclass registrations (1)' })).toBeVisible();
  await expect(page.getByText(`${title} (registered)`)).toBeVisible();
  await expect(page.getByRole('heading', { level: 3, name: 'Submissions (1)' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Masterclass registration' })).toBeVisible();

  await page.getByRole('button', { name: 'Erase' }).click();
  await page
    .getByRole('dialog', { name: 'Erase this person?' })
    .getByRole('button', { name: 'Erase' })
    .click();
  await expect(
    page.getByRole('status').filter({ hasText: /^Erased: 1 submissions, .*1 masterclass registrations/ }),
  ).toBeVisible();
  await expect(page.getByRole('heading', { level: 3, name: 'Masterclass registrations (0)' })).toBeVisible();
});
