/**
 * The console's Events screen in real Chromium, against the owner server's real pipeline and
 * outbox: an event created with the mouse (the server's field errors shown first) and
 * published, then on the public Resources page without a rebuild; the same with the keyboard
 * alone; a change of start time e-mails the registered attendee an invitation with the same UID
 * and a higher SEQUENCE; cancelling asks first and shows the event cancelled (METHOD:CANCEL to
 * the attendee); the attendees and the waitlist in order and their CSV; "Message attendees"
 * queues an e-mail; the list, the form and an event page axe-clean at 1280 and 375 px.
 */
import { readFileSync } from 'node:fs';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import ICAL from 'ical.js';
import type {
  EventChangeAnswer,
  EventDetail,
  EventInput,
  EventSummary,
} from '../../src/features/events/events-console-contract';
import { expectNoAxeViolations } from './support/axe';
import { expect, gotoHydrated } from './support/fixtures';
import {
  clientAddress,
  EXPECTED_CONSOLE_ERRORS,
  formToken,
  readMails,
  test,
  uniqueTag,
  type Eml,
} from './owner-support';
import { OWNER_BASE_URL } from '../../playwright.config';

// The form's empty submission is answered 400 on purpose, which the browser logs.
test.use({
  allowConsoleErrors: new RegExp(
    `${EXPECTED_CONSOLE_ERRORS.source}|^Failed to load resource: the server responded with a status of 400`,
  ),
});

const sameOrigin = { Origin: OWNER_BASE_URL };

/**
 * Each test's context has a client address of its own (the owner server trusts the loopback
 * proxy): the requests its page sends through `page.request` are limited per client.
 */
test.beforeEach(async ({ page }) => {
  const n = (process.pid * 7 + Math.floor(Math.random() * 1e6)) % 250;
  await page.context().setExtraHTTPHeaders({ 'x-forwarded-for': `192.0.2.${n + 1}` });
});
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** `YYYY-MM-DDTHH:MM` in UK time, as a datetime-local input holds it: `ms` from now, on the hour. */
function ukWallClock(ms: number): string {
  const at = new Date(Math.floor((Date.now() + ms) / HOUR) * HOUR);
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/London',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

/** The UK date `days` from now, `YYYY-MM-DD`. */
function ukDate(days: number): string {
  return ukWallClock(days * DAY).slice(0, 10);
}

/**
 * An event from 18:00 to 19:30 UK time, at least ten days out, so that the mouse test's event
 * (three hours out) is the soonest published one, the one the Resources page shows. (An
 * afternoon hour also types the same into Chromium's 12- and 24-hour time fields.)
 */
function eventInput(
  title: string,
  daysOut = 10 + Math.floor(Math.random() * 40),
  overrides: Partial<EventInput> = {},
) {
  return {
    title,
    summary: `A masterclass for ${title}.`,
    startsAt: `${ukDate(daysOut)}T18:00`,
    endsAt: `${ukDate(daysOut)}T19:30`,
    mode: 'online',
    place: '',
    joinUrl: 'https://meet.example.org/sterling-sats',
    capacity: 20,
    registrationOpensAt: '',
    registrationClosesAt: '',
    ...overrides,
  } satisfies EventInput;
}

/** Creates (and publishes) an event through the console API, with the signed-in page's session. */
async function createEvent(page: Page, input: EventInput, publish = true): Promise<EventSummary> {
  const created = await page.request.post('/api/owner/events', { data: input, headers: sameOrigin });
  expect(created.status(), await created.text()).toBe(200);
  const event = (await created.json()) as EventSummary;
  if (publish) {
    const published = await page.request.post(`/api/owner/events/${event.id}/publish`, {
      data: {},
      headers: sameOrigin,
    });
    expect(published.status(), await published.text()).toBe(200);
    return ((await published.json()) as EventChangeAnswer).event;
  }
  return event;
}

/** A registration through the public form endpoint (formType 'masterclass'), as the form sends it. */
async function register(
  request: APIRequestContext,
  eventId: string,
  o: { name: string; email: string; company: string },
): Promise<{ id: string; status: 'registered' | 'waitlisted' }> {
  const res = await request.post('/api/send-contact-email', {
    headers: { ...sameOrigin, 'x-forwarded-for': clientAddress() },
    data: {
      formType: 'masterclass',
      eventId,
      firstName: o.name,
      email: o.email,
      company: o.company,
      consent: true,
      website: '',
      formToken: await formToken(request, 'masterclass'),
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as { id: string; status: 'registered' | 'waitlisted' };
}

const mailsFor = (email: string) => readMails().filter((m) => (m.header('to') ?? '').includes(email));

/** Waits for an e-mail to `email` that is not among `seen` and passes `test`. */
async function nextMail(email: string, seen: Eml[], test: (mail: Eml) => boolean = () => true) {
  const known = new Set(seen.map((m) => m.file));
  const fresh = () => mailsFor(email).filter((m) => !known.has(m.file) && test(m));
  await expect
    .poll(() => fresh().length, { message: `a new e-mail to ${email}`, timeout: 15_000 })
    .toBeGreaterThan(0);
  return fresh()[0]!;
}

/** The calendar object an e-mail carries (an .ics attachment, or a text/calendar part). */
function calendarOf(mail: Eml): ICAL.Component | null {
  const part = mail.attachments.find(
    (a) => a.filename.endsWith('.ics') || a.contentType.toLowerCase() === 'text/calendar',
  );
  const text = part?.content ?? /BEGIN:VCALENDAR[\s\S]*?END:VCALENDAR/.exec(mail.raw)?.[0];
  return text ? new ICAL.Component(ICAL.parse(text)) : null;
}

function vevent(mail: Eml): ICAL.Component {
  const event = calendarOf(mail)?.getFirstSubcomponent('vevent');
  if (!event) throw new Error(`no calendar event in "${mail.header('subject')}"`);
  return event;
}

/** Presses Tab (or Shift+Tab) until `target` has focus. */
async function tabTo(page: Page, target: Locator, key: 'Tab' | 'Shift+Tab' = 'Tab') {
  for (let i = 0; i < 40 && !(await target.evaluate((el) => el === document.activeElement)); i += 1)
    await page.keyboard.press(key);
  await expect(target).toBeFocused();
}

/**
 * Types a UK wall-clock time into a focused datetime-local input with the keyboard: Chromium's
 * fields are month, day, year, then (after Tab) hour and minute.
 */
async function typeDateTime(page: Page, input: Locator, value: string) {
  const [, y, mo, d, h, mi] = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(value)!;
  await expect(input).toBeFocused();
  await page.keyboard.type(`${mo}${d}${y}`);
  await page.keyboard.press('Tab');
  await page.keyboard.type(`${h}${mi}`);
  await expect(input).toHaveValue(value);
}

const status = (page: Page, text: string | RegExp) => page.getByRole('status').filter({ hasText: text });

test('the owner creates an event with the mouse (field errors first), publishes it, and the Resources page shows it without a rebuild', async ({
  ownerPage: page,
}) => {
  const title = `Mouse masterclass ${uniqueTag('m')}`;
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Events' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Events' })).toBeFocused();
  await page.getByRole('link', { name: 'New event' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'New event' })).toBeFocused();

  // Sent empty: the server's answer in the alert region, a summary that takes focus, each
  // field marked and described by its own error.
  await page.getByRole('button', { name: 'Save draft' }).click();
  const summary = page.getByRole('heading', { level: 2, name: 'There is a problem' }).locator('..');
  await expect(summary).toBeFocused();
  const titleField = page.getByLabel('Title', { exact: true });
  await expect(titleField).toHaveAttribute('aria-invalid', 'true');
  await expect(titleField).toHaveAccessibleDescription(/\S/);
  await expect(page.getByRole('alert').filter({ hasText: /\S/ }).first()).toBeVisible();
  await summary.getByRole('link', { name: /^Title:/ }).click();
  await expect(titleField).toBeFocused();

  const input = eventInput(title, 10, {
    startsAt: ukWallClock(3 * HOUR),
    endsAt: ukWallClock(5 * HOUR),
    mode: 'in-person',
    place: '1 Example Street, London EC1A 1AA',
  });
  await titleField.fill(input.title);
  await page.getByLabel('Summary').fill(input.summary);
  await page.getByLabel('Starts').fill(input.startsAt);
  await page.getByLabel('Ends').fill(input.endsAt);
  await page.getByRole('radio', { name: 'In person' }).check();
  await expect(page.getByLabel('Joining link')).toHaveCount(0);
  await page.getByRole('textbox', { name: /^Place/ }).fill(input.place);
  await page.getByLabel('Capacity').fill('20');
  await page.getByRole('button', { name: 'Save draft' }).click();

  await expect(page.getByRole('heading', { level: 1, name: title, exact: true })).toBeFocused();
  await expect(status(page, 'Draft saved.')).toBeVisible();
  await expect(page.getByText('Draft', { exact: true })).toBeVisible();
  await expect(page.getByText(input.place)).toBeVisible();

  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(status(page, 'Published')).toBeVisible();
  await expect(page.getByText('Published', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Publish' })).toHaveCount(0);

  // The list: its title, UK time, status and places.
  await page.getByRole('link', { name: 'Back to events' }).click();
  const row = page.getByRole('row', { name: new RegExp(title) });
  await expect(row.getByRole('cell', { name: 'Published' })).toBeVisible();
  await expect(row.getByRole('cell', { name: '0 of 20' })).toBeVisible();
  const [, , , , hh, mm] = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(input.startsAt)!;
  await expect(row).toContainText(`${hh}:${mm}`);

  // The public page, served from the same build, shows it at once.
  await gotoHydrated(page, '/resources');
  await expect(page.getByTestId('masterclass')).toContainText(title);
});

test('keyboard only: the owner creates an event from the navigation and publishes it', async ({
  ownerPage: page,
}) => {
  const input = eventInput(`Keyboard masterclass ${uniqueTag('k')}`);

  const nav = page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Events' });
  await tabTo(page, nav, 'Shift+Tab');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Events' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'New event' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'New event' })).toBeFocused();

  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Title', { exact: true })).toBeFocused();
  await page.keyboard.type(input.title);
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Summary')).toBeFocused();
  await page.keyboard.type(input.summary);
  await page.keyboard.press('Tab');
  await typeDateTime(page, page.getByLabel('Starts'), input.startsAt);
  await tabTo(page, page.getByLabel('Ends'));
  await typeDateTime(page, page.getByLabel('Ends'), input.endsAt);
  // The radio group is one stop: Online is chosen; arrows would move between the two.
  await tabTo(page, page.getByRole('radio', { name: 'Online' }));
  await expect(page.getByRole('radio', { name: 'Online' })).toBeChecked();
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Joining link')).toBeFocused();
  await page.keyboard.type(input.joinUrl);
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Capacity')).toBeFocused();
  await page.keyboard.type('12');
  await tabTo(page, page.getByRole('button', { name: 'Save draft' }));
  await page.keyboard.press('Enter');

  await expect(page.getByRole('heading', { level: 1, name: input.title, exact: true })).toBeFocused();
  await expect(status(page, 'Draft saved.')).toBeVisible();
  await tabTo(page, page.getByRole('button', { name: 'Publish' }));
  await page.keyboard.press('Enter');
  await expect(status(page, 'Published')).toBeVisible();
  await expect(page.getByText('Published', { exact: true })).toBeVisible();
  // The button is gone: focus moves on to the next action, not back to the top of the page.
  await expect(page.getByRole('link', { name: 'Edit', exact: true })).toBeFocused();

  // The cancel dialog opens from the keyboard, holds focus, and Escape gives it back.
  const cancel = page.getByRole('button', { name: 'Cancel event' });
  await tabTo(page, cancel);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Cancel this event?' })).toBeVisible();
  await expect(page.getByRole('dialog').getByRole('button', { name: 'Keep it' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(cancel).toBeFocused();
  await expect(page.getByText('Published', { exact: true })).toBeVisible();
});

test('changing the start time e-mails the registered attendee an updated invitation: same UID, higher SEQUENCE', async ({
  ownerPage: page,
}) => {
  const tag = uniqueTag('move');
  const email = `${tag}@example.org`;
  const event = await createEvent(page, eventInput(`Moving masterclass ${tag}`, 14));
  await register(page.request, event.id, { name: `Ada ${tag}`, email, company: 'Analytical Engines Ltd' });
  const confirmation = await nextMail(email, [], (m) => calendarOf(m) !== null);
  const before = vevent(confirmation);

  await gotoHydrated(page, `/owner/events/${event.id}`);
  await expect(page.getByRole('heading', { level: 1, name: event.title, exact: true })).toBeFocused();
  await expect(page.getByRole('row', { name: new RegExp(`Ada ${tag}`) })).toBeVisible();
  await page.getByRole('link', { name: 'Edit', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Edit: ${event.title}` })).toBeFocused();
  await expect(
    page.getByText('Changing the start or end time e-mails every attendee an updated calendar invitation.'),
  ).toBeVisible();
  await expect(page.getByLabel('Starts')).toHaveValue(event.startsAt);

  const later = eventInput(event.title, 15);
  const seen = mailsFor(email);
  await page.getByLabel('Starts').fill(later.startsAt);
  await page.getByLabel('Ends').fill(later.endsAt);
  await expect(
    page.getByText(/You have changed the time: 1 registered attendee will be e-mailed/),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('heading', { level: 1, name: event.title, exact: true })).toBeFocused();
  await expect(status(page, /Changes saved\. 1 attendee was e-mailed/)).toBeVisible();

  const update = await nextMail(email, seen, (m) => calendarOf(m) !== null);
  const after = vevent(update);
  expect(after.getFirstPropertyValue('uid')).toBe(before.getFirstPropertyValue('uid'));
  expect(Number(after.getFirstPropertyValue('sequence') ?? 0)).toBeGreaterThan(
    Number(before.getFirstPropertyValue('sequence') ?? 0),
  );
  const saved = (await (await page.request.get(`/api/owner/events/${event.id}`)).json()) as EventDetail;
  expect(saved.startsAt).toBe(later.startsAt);
  // DTSTART in UTC, or in UK wall-clock time with TZID=Europe/London.
  const dtstart = String(after.getFirstPropertyValue('dtstart'));
  if (dtstart.endsWith('Z'))
    expect(new Date(dtstart).toISOString()).toBe(new Date(saved.startsAtIso).toISOString());
  else {
    expect(after.getFirstProperty('dtstart')?.getParameter('tzid')).toBe('Europe/London');
    expect(dtstart.slice(0, 16)).toBe(saved.startsAt);
  }
});

test('cancelling asks first, says who is e-mailed, then shows the event cancelled; the attendee gets METHOD:CANCEL', async ({
  ownerPage: page,
}) => {
  const tag = uniqueTag('cancel');
  const email = `${tag}@example.org`;
  const event = await createEvent(page, eventInput(`Cancelled masterclass ${tag}`));
  await register(page.request, event.id, { name: `Grace ${tag}`, email, company: 'Compilers Ltd' });
  const confirmation = await nextMail(email, [], (m) => calendarOf(m) !== null);

  await gotoHydrated(page, `/owner/events/${event.id}`);
  await page.getByRole('button', { name: 'Cancel event' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel this event?' });
  await expect(dialog).toContainText('Every attendee (1 registered) is e-mailed');
  await dialog.getByRole('button', { name: 'Keep it' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Published', { exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Cancel event' }).click();
  await dialog.getByRole('button', { name: 'Cancel event' }).click();
  await expect(status(page, 'The event is cancelled. 1 person was e-mailed.')).toBeVisible();
  await expect(page.getByText('This event is cancelled: it can no longer be changed.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Edit', exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Cancel event' })).toHaveCount(0);

  await page.getByRole('link', { name: 'Back to events' }).click();
  await expect(
    page.getByRole('row', { name: new RegExp(event.title) }).getByRole('cell', { name: 'Cancelled' }),
  ).toBeVisible();

  const cancelled = await nextMail(email, [confirmation], (m) => calendarOf(m) !== null);
  expect(calendarOf(cancelled)!.getFirstPropertyValue('method')).toBe('CANCEL');
  expect(vevent(cancelled).getFirstPropertyValue('uid')).toBe(
    vevent(confirmation).getFirstPropertyValue('uid'),
  );
});

test('the attendees and the waitlist in order, their words shown as text, and the CSV download', async ({
  ownerPage: page,
}) => {
  const tag = uniqueTag('list');
  const event = await createEvent(page, eventInput(`Full masterclass ${tag}`, 20, { capacity: 1 }));
  const people = [
    { name: `First ${tag}`, email: `${tag}.1@example.org`, company: '<b>Bold</b> & Co' },
    { name: `Second ${tag}`, email: `${tag}.2@example.org`, company: 'Waiting Ltd' },
    { name: `Third ${tag}`, email: `${tag}.3@example.org`, company: 'Later Ltd' },
  ];
  const answers = [];
  for (const person of people) answers.push(await register(page.request, event.id, person));
  expect(answers.map((a) => a.status)).toEqual(['registered', 'waitlisted', 'waitlisted']);

  await gotoHydrated(page, `/owner/events/${event.id}`);
  await expect(page.getByRole('heading', { level: 1, name: event.title, exact: true })).toBeFocused();
  const attendees = page.getByRole('region', { name: 'Registered attendees, in registration order' });
  await expect(attendees.getByRole('rowheader', { name: people[0]!.name })).toBeVisible();
  await expect(attendees.getByText(people[0]!.email)).toBeVisible();
  // Visitor text is text: the markup typed as a company is shown, not rendered.
  await expect(attendees.getByText('<b>Bold</b> & Co')).toBeVisible();
  await expect(page.locator('main b')).toHaveCount(0);

  const waitlist = page.getByRole('region', { name: 'Waitlist, first to be promoted first' });
  const rows = waitlist.getByRole('row');
  await expect(rows).toHaveCount(3);
  for (const [n, person] of [people[1]!, people[2]!].entries()) {
    await expect(
      rows
        .nth(n + 1)
        .getByRole('cell')
        .first(),
    ).toHaveText(String(n + 1));
    await expect(rows.nth(n + 1).getByRole('rowheader')).toHaveText(person.name);
  }
  await expect(page.getByText('1 of 1 places taken; 2 on the waitlist')).toBeVisible();

  // The list counts them too.
  await page.getByRole('link', { name: 'Back to events' }).click();
  const row = page.getByRole('row', { name: new RegExp(event.title) });
  await expect(row.getByRole('cell', { name: '1 of 1' })).toBeVisible();
  await expect(row.getByRole('cell', { name: '2', exact: true })).toBeVisible();

  await row.getByRole('link', { name: event.title }).click();
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/\.csv$/);
  const bytes = readFileSync(await file.path());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const records = parse(bytes.toString('utf8'), { bom: true, columns: true }) as Record<string, string>[];
  expect(records).toHaveLength(3);
  const byEmail = (email: string) => records.find((r) => Object.values(r).includes(email));
  for (const person of people) expect(byEmail(person.email), person.email).toBeTruthy();
  expect(Object.values(byEmail(people[0]!.email)!)).toContain(people[0]!.company);
});

test('"Message attendees" queues an e-mail to every registered attendee', async ({ ownerPage: page }) => {
  const tag = uniqueTag('msg');
  const email = `${tag}@example.org`;
  const event = await createEvent(page, eventInput(`Messaged masterclass ${tag}`));
  await register(page.request, event.id, { name: `Alan ${tag}`, email, company: 'Bletchley Ltd' });
  await nextMail(email, []);
  const seen = mailsFor(email);

  await gotoHydrated(page, `/owner/events/${event.id}`);
  const form = page.getByRole('region', { name: 'Message attendees' });
  await expect(form).toContainText('every registered attendee (1 now)');

  // Sent empty: the server's answer, and the subject marked.
  await form.getByRole('button', { name: 'Send to attendees' }).click();
  await expect(page.getByRole('alert').filter({ hasText: /\S/ }).first()).toBeVisible();
  await expect(form.getByLabel('Subject')).toHaveAttribute('aria-invalid', 'true');

  const subject = `Parking at the venue ${tag}`;
  await form.getByLabel('Subject').fill(subject);
  await form.getByLabel('Message').fill('Doors open at 17:45.\nBring a photo ID.');
  await form.getByRole('button', { name: 'Send to attendees' }).click();
  await expect(status(page, 'Message queued: 1 e-mail.')).toBeVisible();
  await expect(form.getByLabel('Subject')).toHaveValue('');

  const mail = await nextMail(email, seen, (m) => (m.header('subject') ?? '').includes(subject));
  expect(mail.text).toContain('Doors open at 17:45.');
});

for (const width of [1280, 375]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('the Events list, the form (with its errors) and an event page have no violations and no sideways scroll', async ({
      ownerPage: page,
    }) => {
      const tag = uniqueTag('axe');
      const event = await createEvent(page, eventInput(`Checked masterclass ${tag}`, 30, { capacity: 1 }));
      await register(page.request, event.id, {
        name: `One ${tag}`,
        email: `${tag}.1@example.org`,
        company: 'A Ltd',
      });
      await register(page.request, event.id, {
        name: `Two ${tag}`,
        email: `${tag}.2@example.org`,
        company: 'B Ltd',
      });

      const check = async (what: string) => {
        await expect(page.getByText('Loading…')).toHaveCount(0);
        await expectNoAxeViolations(page);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, what).toBeLessThanOrEqual(0);
      };

      await gotoHydrated(page, '/owner/events');
      await expect(page.getByRole('heading', { level: 1, name: 'Events' })).toBeFocused();
      await expect(page.getByRole('row', { name: new RegExp(event.title) })).toBeVisible();
      await check('the list');

      await gotoHydrated(page, '/owner/events/new');
      await expect(page.getByRole('heading', { level: 1, name: 'New event' })).toBeFocused();
      await check('the form');
      await page.getByRole('button', { name: 'Save draft' }).click();
      await expect(page.getByRole('heading', { level: 2, name: 'There is a problem' })).toBeVisible();
      await check('the form with its errors');

      await gotoHydrated(page, `/owner/events/${event.id}`);
      await expect(page.getByRole('heading', { level: 1, name: event.title, exact: true })).toBeFocused();
      await expect(page.getByRole('region', { name: 'Waitlist, first to be promoted first' })).toBeVisible();
      await check('an event page');
      await page.getByRole('button', { name: 'Cancel event' }).click();
      await expect(page.getByRole('dialog', { name: 'Cancel this event?' })).toBeVisible();
      await check('the cancel dialog');
      await page.keyboard.press('Escape');

      await gotoHydrated(page, `/owner/events/${event.id}/edit`);
      await expect(page.getByRole('heading', { level: 1, name: `Edit: ${event.title}` })).toBeFocused();
      await check('the edit form');
    });
  });
}
