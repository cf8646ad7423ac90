/**
 * The visitor's side of the masterclasses, in real Chromium against the events server (its own
 * server and data folder: the next masterclass is one for the whole site). The owner creates and
 * publishes events through the console API, as the console does; the page shows them without a
 * rebuild. The server writes every e-mail as an .eml file in its DATA_DIR/mail, read back here.
 *
 * The first group runs in order on one server: no masterclass, then one published, past on the
 * visitor's clock, registered through the form (confirmation e-mail, its .ics, its cancel link),
 * by keyboard alone, a full one that waitlists, and cancelled ones. The second group answers
 * GET /api/events/next itself, for the states the console cannot make on demand.
 */
import { execFile } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import ICAL from 'ical.js';
import { request as playwrightRequest, type APIRequestContext, type Page } from '@playwright/test';
import { EVENTS_BASE_URL, EVENTS_DATA_DIR, EVENTS_SERVER_ENV } from '../../playwright.config';
import type { EventInput, EventSummary } from '../../src/features/events/events-console-contract';
import { eventCalendarPath, NEXT_EVENT_API, type PublicEvent } from '../../src/features/events/events-api';
import { parseMail, type ParsedMail } from '../server/forms-mime';
import { expectNoAxeViolations } from './support/axe';
import { expect, gotoHydrated, test } from './support/fixtures';
import { fakeEvent, routeNextEvent } from './support/next-event';

const DAY = 86_400_000;
const WIDTHS = [1280, 375] as const;
const JOIN_URL = 'https://meet.example.com/j/masterclass-secret-4711';

// --- The page -----------------------------------------------------------------------------------

const card = (page: Page) => page.getByTestId('masterclass');
const registrationForm = (page: Page) => page.getByRole('form', { name: 'Masterclass registration' });

/** The page's structured data blocks, parsed. */
async function jsonLd(page: Page): Promise<Record<string, unknown>[]> {
  const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
  return blocks.map((b) => JSON.parse(b) as Record<string, unknown>);
}

/** Opens /resources and waits until the card has its answer. */
async function openResources(page: Page, state: string, path = '/resources') {
  await gotoHydrated(page, path);
  await expect(card(page)).toHaveAttribute('data-state', state);
}

/** axe over the page at each width (the card's state stays as it is). */
async function axeAtEachWidth(page: Page) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width > 800 ? 900 : 740 });
    await expectNoAxeViolations(page);
  }
}

/** Sums the page's layout shifts (as CLS counts them) from its start; read with `shifts(page)`. */
async function watchLayoutShifts(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { __cls: number };
    w.__cls = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[])
        if (!entry.hadRecentInput) w.__cls += entry.value;
    }).observe({ type: 'layout-shift', buffered: true });
  });
}
const shifts = (page: Page) => page.evaluate(() => (window as unknown as { __cls: number }).__cls);

/** UK wall-clock words, by the time-zone database (the site computes them by rule). */
function london(iso: string) {
  const at = new Date(iso);
  const part = (o: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', ...o }).format(at);
  const zone = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', timeZoneName: 'short' })
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName')?.value;
  return {
    day: part({ weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }).replace(',', ''),
    clock: part({ hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }),
    date: new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(at),
    zone: zone === 'GMT+1' ? 'BST' : 'GMT',
  };
}

/** The UK calendar date `days` from now, 'YYYY-MM-DD'. */
const ukDateIn = (days: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(new Date(Date.now() + days * DAY));

// --- The owner, through the console API ---------------------------------------------------------

const run = promisify(execFile);

/** An API client signed in as the owner: a link from `npm run owner:link`, pressed through the API. */
async function ownerApi(): Promise<APIRequestContext> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'scripts/owner-link.ts'], {
    env: {
      ...process.env,
      ...EVENTS_SERVER_ENV,
      DATA_DIR: EVENTS_DATA_DIR,
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
    },
  });
  const token = new URL(stdout.trim()).searchParams.get('token');
  const api = await playwrightRequest.newContext({
    baseURL: EVENTS_BASE_URL,
    extraHTTPHeaders: { Origin: EVENTS_BASE_URL },
  });
  const signedIn = await api.post('/api/owner/sign-in/link', { data: { token } });
  expect(signedIn.status(), await signedIn.text()).toBe(200);
  return api;
}

/** Creates a draft through the console API, then publishes it. */
async function publishEvent(api: APIRequestContext, input: EventInput): Promise<EventSummary> {
  const created = await api.post('/api/owner/events', { data: input });
  expect(created.status(), await created.text()).toBe(200);
  const draft = (await created.json()) as EventSummary;
  expect(draft.status).toBe('draft');
  const published = await api.post(`/api/owner/events/${draft.id}/publish`, { data: {} });
  expect(published.status(), await published.text()).toBe(200);
  return ((await published.json()) as { event: EventSummary }).event;
}

async function cancelEvent(api: APIRequestContext, id: string) {
  const res = await api.post(`/api/owner/events/${id}/cancel`, { data: {} });
  expect(res.status(), await res.text()).toBe(200);
}

/** A masterclass `days` from today (UK), 19:00-20:30 UK time, online. */
function eventInput(title: string, days: number, capacity: number): EventInput {
  const date = ukDateIn(days);
  return {
    title,
    summary: `Allocation sizing, UK tax and secure custody, with an open Q&A (${title}).`,
    startsAt: `${date}T19:00`,
    endsAt: `${date}T20:30`,
    mode: 'online',
    place: '',
    joinUrl: JOIN_URL,
    capacity,
    registrationOpensAt: '',
    registrationClosesAt: '',
  };
}

// --- Visitors and their e-mails -----------------------------------------------------------------

let visitors = 0;
/** A client address of its own (the form rate limit counts each apart) and a unique e-mail address. */
async function asVisitor(page: Page, label: string): Promise<string> {
  visitors += 1;
  const n = (process.pid * 7 + visitors * 13 + Math.floor(Math.random() * 200)) % 250;
  await page.setExtraHTTPHeaders({ 'x-forwarded-for': `198.51.100.${n + 1}` });
  return `${label}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}@example.org`;
}

function mailsTo(to: string): ParsedMail[] {
  const dir = join(EVENTS_DATA_DIR, 'mail');
  let names: string[] = [];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.eml'));
  } catch {
    return [];
  }
  return names
    .sort()
    .map((n) => parseMail(readFileSync(join(dir, n), 'utf8')))
    .filter((m) => (m.header('to') ?? '').includes(to));
}

/** The registration's confirmation to `to`: a calendar file (not a cancellation) and a cancel link. */
async function confirmationTo(to: string): Promise<{ mail: ParsedMail; ics: string }> {
  let found: ParsedMail | undefined;
  await expect
    .poll(
      () => {
        found = mailsTo(to).find(
          (m) =>
            /\/masterclass\/cancel\?token=/.test(m.text) &&
            m.attachments.some((a) => a.contentType === 'text/calendar' && !/METHOD:CANCEL/.test(a.content)),
        );
        return Boolean(found);
      },
      { timeout: 15_000, message: `a confirmation e-mail with a calendar file to ${to}` },
    )
    .toBe(true);
  return { mail: found!, ics: found!.attachments.find((a) => a.contentType === 'text/calendar')!.content };
}

/** The path and query of the cancel link in an e-mail. */
function cancelLinkIn(mail: ParsedMail): string {
  const url = /(https?:\/\/[^\s"<>]+\/masterclass\/cancel\?token=[^\s"<>]+)/.exec(mail.text)?.[1];
  if (!url) throw new Error(`no cancel link in "${mail.header('subject')}"`);
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

/** Fills and sends the registration form with the mouse. */
async function register(page: Page, email: string, name = 'Ada Lovelace') {
  const form = registrationForm(page);
  await form.getByLabel('Full Name').fill(name);
  await form.getByLabel('Email Address').fill(email);
  await form.getByLabel('Current Role or Company').fill('Partner, Example LLP');
  await form.getByRole('checkbox', { name: /register me for this masterclass/ }).check();
  const answer = page.waitForResponse('**/api/send-contact-email');
  await form.getByRole('button').click();
  return answer;
}

// --- With the events server's own data ----------------------------------------------------------

test.describe('the masterclass, from the console to the visitor', () => {
  test.describe.configure({ mode: 'serial' });

  let api: APIRequestContext;
  /** Published in the second test, 21 days ahead, 10 places. */
  let upcoming: EventSummary;
  /** Published later, 14 days ahead (so it is the next one), 1 place. */
  let small: EventSummary;
  let smallFirst = '';

  test.beforeAll(async () => {
    api = await ownerApi();
  });
  test.afterAll(async () => {
    await api?.dispose();
  });

  test('with no masterclass the card says so and offers the newsletter; no Event, no form', async ({
    page,
  }) => {
    await watchLayoutShifts(page);
    const answer = page.waitForResponse(`**${NEXT_EVENT_API}`);
    await openResources(page, 'none');
    expect(await (await answer).json()).toEqual({ event: null });

    await expect(
      card(page).getByRole('heading', { name: 'No masterclass scheduled at the moment' }),
    ).toBeVisible();
    await expect(page.getByRole('link', { name: 'Reserve Your Spot' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: /\+ Calendar/ })).toHaveCount(0);
    await expect(registrationForm(page)).toHaveCount(0);
    await expect(page.locator('#register')).toBeAttached();
    expect(await jsonLd(page)).toEqual([]);
    expect(await shifts(page)).toBeLessThan(0.001);
    await axeAtEachWidth(page);

    // It leads to the newsletter's form on the same page (its double opt-in tells of the next one).
    await card(page).getByRole('link', { name: 'Tell me about the next one' }).click();
    await expect(page).toHaveURL(/\/resources#newsletter$/);
    await expect(
      page.getByRole('form', { name: 'Subscribe to The Smart Money Newsletter' }),
    ).toBeInViewport();
  });

  test('the owner publishes a masterclass and the page shows it without a rebuild', async ({ page }) => {
    const input = eventInput(`Holding Bitcoin well ${Date.now().toString(36)}`, 21, 10);
    const created = await api.post('/api/owner/events', { data: input });
    expect(created.status(), await created.text()).toBe(200);
    const draft = (await created.json()) as EventSummary;
    // A draft is never public.
    await openResources(page, 'none');

    const published = await api.post(`/api/owner/events/${draft.id}/publish`, { data: {} });
    expect(published.status(), await published.text()).toBe(200);
    upcoming = ((await published.json()) as { event: EventSummary }).event;
    // The owner typed 19:00 UK time.
    expect(london(upcoming.startsAtIso).clock).toBe('19:00');

    await watchLayoutShifts(page);
    await openResources(page, 'upcoming');
    const start = london(upcoming.startsAtIso);
    const the = card(page);
    await expect(the.getByText('Upcoming Masterclass', { exact: true })).toBeVisible();
    await expect(the.getByRole('heading', { name: input.title })).toBeVisible();
    await expect(the.getByText(input.summary)).toBeVisible();
    await expect(the.getByText(start.day)).toBeVisible();
    await expect(the.getByText(`19:00-20:30 ${start.zone}`)).toBeVisible();
    await expect(the.getByText('Live online with Q&A')).toBeVisible();
    await expect(the.getByText('10 places left')).toBeVisible();
    await expect(the.getByRole('link', { name: 'Reserve Your Spot' })).toHaveAttribute('href', '#register');
    const calendar = the.getByRole('link', { name: /^\+ Calendar/ });
    await expect(calendar).toHaveAttribute('href', eventCalendarPath(upcoming.id));
    await expect(calendar).toHaveAttribute('id', 'calendar');
    expect(await shifts(page)).toBeLessThan(0.001);

    // The joining link is for registered attendees' e-mails only.
    expect(await page.content()).not.toContain(JOIN_URL);
    const next = await page.request.get(NEXT_EVENT_API);
    expect(next.headers()['cache-control']).toContain('no-cache');
    expect(await next.text()).not.toContain(JOIN_URL);

    // The structured data describes it.
    const [event, ...others] = await jsonLd(page);
    expect(others).toEqual([]);
    expect(event).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Event',
      name: input.title,
      description: input.summary,
      eventStatus: 'https://schema.org/EventScheduled',
      eventAttendanceMode: 'https://schema.org/OnlineEventAttendanceMode',
      location: { '@type': 'VirtualLocation', url: expect.stringMatching(/\/resources$/) },
      organizer: { '@type': 'Organization', name: 'Sterling Sats' },
      offers: {
        '@type': 'Offer',
        price: 0,
        priceCurrency: 'GBP',
        availability: 'https://schema.org/InStock',
        url: expect.stringMatching(/\/resources#register$/),
      },
    });
    expect(Date.parse(String(event?.startDate))).toBe(Date.parse(upcoming.startsAtIso));
    expect(Date.parse(String(event?.endDate))).toBe(Date.parse(upcoming.endsAtIso));
    await axeAtEachWidth(page);

    // '+ Calendar' downloads the event's calendar file.
    await page.setViewportSize({ width: 1280, height: 900 });
    const [download] = await Promise.all([page.waitForEvent('download'), calendar.click()]);
    expect(download.suggestedFilename()).toMatch(/\.ics$/);
    const file = readFileSync(await download.path(), 'utf8');
    expect(file).not.toContain(JOIN_URL);
    const vevent = new ICAL.Component(ICAL.parse(file)).getFirstSubcomponent('vevent')!;
    expect(vevent.getFirstPropertyValue('summary')).toBe(input.title);
    expect(String(vevent.getFirstPropertyValue('uid') ?? '')).not.toBe('');
    expect(new ICAL.Event(vevent).startDate.toJSDate().toISOString()).toBe(
      new Date(upcoming.startsAtIso).toISOString(),
    );

    // 'Reserve Your Spot' leads to the form.
    await the.getByRole('link', { name: 'Reserve Your Spot' }).click();
    await expect(page).toHaveURL(/\/resources#register$/);
    await expect(registrationForm(page)).toBeInViewport();
  });

  test('after its end on the visitor’s clock it is past: no registration, no calendar file, no form', async ({
    page,
  }) => {
    await page.clock.setFixedTime(new Date(Date.parse(upcoming.endsAtIso) + 60_000));
    await openResources(page, 'past');
    const the = card(page);
    await expect(the.getByText('Past Masterclass', { exact: true })).toBeVisible();
    await expect(
      the.getByText('This masterclass has taken place. Subscribe below to hear about the next one.'),
    ).toBeVisible();
    await expect(the.getByText(london(upcoming.startsAtIso).day)).toBeVisible();
    await expect(page.getByRole('link', { name: 'Reserve Your Spot' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: /\+ Calendar/ })).toHaveCount(0);
    await expect(registrationForm(page)).toHaveCount(0);
    await expect(page.locator('#register')).toBeAttached();
    expect(await jsonLd(page)).toEqual([]);
    await axeAtEachWidth(page);
  });

  test('it turns past at its end while the page stays open', async ({ page }) => {
    await page.clock.install({ time: new Date(Date.parse(upcoming.endsAtIso) - 60_000) });
    await openResources(page, 'upcoming');
    await expect(registrationForm(page)).toBeVisible();
    await page.clock.fastForward('02:30');
    await expect(card(page)).toHaveAttribute('data-state', 'past');
    await expect(page.getByRole('link', { name: 'Reserve Your Spot' })).toHaveCount(0);
    await expect(registrationForm(page)).toHaveCount(0);
  });

  test('registers through the form; the confirmation has a Europe/London .ics; its cancel link cancels', async ({
    page,
  }) => {
    const email = await asVisitor(page, 'ada');
    await openResources(page, 'upcoming');
    const answered = await register(page, email);
    expect(answered.status(), await answered.text()).toBe(200);
    expect(await answered.json()).toMatchObject({ status: 'registered' });
    const thanks = page.getByTestId('registration-thank-you');
    await expect(thanks.getByRole('heading', { name: "You're registered" })).toBeFocused();
    await expect(thanks).toContainText('A confirmation e-mail with a calendar file is on its way.');

    // One place fewer.
    await openResources(page, 'upcoming');
    await expect(card(page).getByText('9 places left')).toBeVisible();

    // The confirmation and its calendar file, read with an iCalendar library.
    const { mail, ics } = await confirmationTo(email);
    const vevent = new ICAL.Component(ICAL.parse(ics)).getFirstSubcomponent('vevent')!;
    expect(vevent.getFirstPropertyValue('summary')).toBe(upcoming.title);
    const dtstart = vevent.getFirstProperty('dtstart')!;
    expect(dtstart.getParameter('tzid')).toBe('Europe/London');
    expect(String(dtstart.getFirstValue())).toBe(`${london(upcoming.startsAtIso).date}T19:00:00`);
    expect(String(vevent.getFirstPropertyValue('uid') ?? '')).toMatch(/\S{8,}/);

    // Its cancel link: the page says what it is about before anything changes.
    const link = cancelLinkIn(mail);
    await gotoHydrated(page, link);
    const view = page.getByTestId('registration-link-view');
    await expect(view.getByRole('heading', { name: upcoming.title })).toBeFocused();
    await expect(view).toContainText(london(upcoming.startsAtIso).day);
    await expect(view).toContainText(`19:00-20:30 ${london(upcoming.startsAtIso).zone}`);
    await expect(view).toContainText('Registered: a place is held for you');
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
    await axeAtEachWidth(page);

    await page.getByRole('button', { name: 'Cancel my registration' }).click();
    const done = page.getByTestId('registration-link-done');
    await expect(done.getByRole('heading')).toBeFocused();
    await expect(done.getByRole('heading')).not.toBeEmpty();
    await expectNoAxeViolations(page);

    // An e-mail confirms it, and its file removes the same entry from the calendar.
    let removal: ParsedMail | undefined;
    await expect
      .poll(
        () => {
          removal = mailsTo(email).find(
            (m) => m.header('subject') === `Registration cancelled: ${upcoming.title}`,
          );
          return Boolean(removal);
        },
        { timeout: 15_000, message: 'the cancellation e-mail' },
      )
      .toBe(true);
    const removed = new ICAL.Component(
      ICAL.parse(removal!.attachments.find((a) => a.contentType === 'text/calendar')!.content),
    );
    expect(removed.getFirstPropertyValue('method')).toBe('CANCEL');
    const removedEvent = removed.getFirstSubcomponent('vevent')!;
    expect(removedEvent.getFirstPropertyValue('uid')).toBe(vevent.getFirstPropertyValue('uid'));
    expect(Number(removedEvent.getFirstPropertyValue('sequence'))).toBeGreaterThan(
      Number(vevent.getFirstPropertyValue('sequence') ?? 0),
    );

    // Opened again, it shows the registration cancelled, with nothing to press.
    await gotoHydrated(page, link);
    await expect(page.getByTestId('registration-link-view')).toContainText('Cancelled');
    await expect(page.getByTestId('registration-link-note')).toHaveText(
      'This registration is already cancelled.',
    );
    await expect(page.getByRole('button', { name: 'Cancel my registration' })).toHaveCount(0);

    await openResources(page, 'upcoming');
    await expect(card(page).getByText('10 places left')).toBeVisible();
  });

  test('registers with the keyboard alone: Tab to the fields, Space on the consent, Enter to send', async ({
    page,
  }) => {
    const email = await asVisitor(page, 'grace');
    await openResources(page, 'upcoming');
    // From the top of the page to 'Reserve Your Spot', and Enter.
    let onReserve = false;
    for (let i = 0; i < 80 && !onReserve; i += 1) {
      await page.keyboard.press('Tab');
      onReserve = await page.evaluate(() => document.activeElement?.textContent === 'Reserve Your Spot');
    }
    expect(onReserve).toBe(true);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/#register$/);
    // The next Tab goes into the registration section, to its first field.
    await page.keyboard.press('Tab');
    const form = registrationForm(page);
    await expect(form.getByLabel('Full Name')).toBeFocused();
    await page.keyboard.type('Grace Hopper');
    await page.keyboard.press('Tab');
    await expect(form.getByLabel('Email Address')).toBeFocused();
    await page.keyboard.type(email);
    await page.keyboard.press('Tab');
    await expect(form.getByLabel('Current Role or Company')).toBeFocused();
    await page.keyboard.type('Rear Admiral');
    await page.keyboard.press('Tab');
    const consent = form.getByRole('checkbox', { name: /register me for this masterclass/ });
    await expect(consent).toBeFocused();
    await page.keyboard.press('Space');
    await expect(consent).toBeChecked();
    await page.keyboard.press('Tab');
    await expect(form.getByRole('button', { name: 'Reserve My Spot' })).toBeFocused();
    const answered = page.waitForResponse('**/api/send-contact-email');
    await page.keyboard.press('Enter');
    expect((await answered).status()).toBe(200);
    await expect(page.getByRole('heading', { name: "You're registered" })).toBeFocused();
    await confirmationTo(email);
  });

  test('a full masterclass puts the next registrant on the waitlist', async ({ page }) => {
    small = await publishEvent(api, eventInput(`Small room ${Date.now().toString(36)}`, 14, 1));
    smallFirst = await asVisitor(page, 'first');
    await openResources(page, 'upcoming');
    // The soonest published one is the next.
    await expect(card(page).getByRole('heading', { name: small.title })).toBeVisible();
    await expect(card(page).getByText('1 place left')).toBeVisible();
    const first = await register(page, smallFirst, 'Katherine Johnson');
    expect(await first.json()).toMatchObject({ status: 'registered' });
    await expect(page.getByRole('heading', { name: "You're registered" })).toBeVisible();

    const second = await asVisitor(page, 'second');
    await openResources(page, 'upcoming');
    await expect(card(page).getByText('Fully booked: join the waitlist')).toBeVisible();
    await expect(card(page).getByRole('link', { name: 'Reserve Your Spot' })).toBeVisible();
    expect((await jsonLd(page))[0]).toMatchObject({
      offers: { availability: 'https://schema.org/SoldOut' },
    });
    await expect(registrationForm(page).getByRole('button', { name: 'Join the Waitlist' })).toBeVisible();
    const answer = await register(page, second, 'Dorothy Vaughan');
    expect(answer.status()).toBe(200);
    expect(await answer.json()).toMatchObject({ status: 'waitlisted' });
    const thanks = page.getByTestId('registration-thank-you');
    await expect(thanks.getByRole('heading', { name: "You're on the waitlist" })).toBeFocused();
    await expect(thanks).toContainText('If a place frees up');
    await expectNoAxeViolations(page);
  });

  test.describe('links that cannot work', () => {
    test.use({
      allowConsoleErrors: /Failed to load resource: the server responded with a status of (400|403)/,
    });

    test('the cancel page refuses a forged link and an incomplete one in words', async ({ page }) => {
      await gotoHydrated(page, '/masterclass/cancel?token=forged.token');
      await expect(page.getByTestId('registration-link-refused')).toHaveText(
        'This link is not valid. Please use the link exactly as it appears in the e-mail.',
      );
      await expect(page.getByRole('button', { name: 'Cancel my registration' })).toHaveCount(0);
      await axeAtEachWidth(page);
      await gotoHydrated(page, '/masterclass/cancel');
      await expect(page.getByTestId('registration-link-refused')).toHaveText(
        'This link is incomplete. Please open it again from the e-mail.',
      );
    });
  });

  test('cancelled by the owner: the card says so, with no registration or calendar file', async ({
    page,
  }) => {
    await cancelEvent(api, small.id);
    await cancelEvent(api, upcoming.id);
    await openResources(page, 'cancelled');
    const the = card(page);
    await expect(the.getByText('Cancelled Masterclass', { exact: true })).toBeVisible();
    await expect(the.getByRole('heading', { name: small.title })).toBeVisible();
    await expect(the.getByText(/has been cancelled/)).toBeVisible();
    await expect(page.getByRole('link', { name: 'Reserve Your Spot' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: /\+ Calendar/ })).toHaveCount(0);
    await expect(registrationForm(page)).toHaveCount(0);
    expect((await jsonLd(page))[0]).toMatchObject({ eventStatus: 'https://schema.org/EventCancelled' });
    await axeAtEachWidth(page);

    // The registered attendee's cancel link now has nothing to cancel.
    const { mail } = await confirmationTo(smallFirst);
    await gotoHydrated(page, cancelLinkIn(mail));
    await expect(page.getByTestId('registration-link-note')).toHaveText(
      'This masterclass has been cancelled, so there is nothing to cancel. We are sorry.',
    );
    await expect(page.getByRole('button', { name: 'Cancel my registration' })).toHaveCount(0);
  });
});

// --- States answered by the test ----------------------------------------------------------------

const LONG = {
  title: 'A very long masterclass title that goes on: allocation, custody, tax, estate planning and more',
  summary:
    'A summary far longer than the card shows. '.repeat(20) +
    'It is clamped to three lines, so the card keeps the height it had while it was loading.',
  place: 'The Long Room, 1 Example Court, a street with a very long name, London EC1A 1AA, United Kingdom',
};

test.describe('the card in every state (answers made by the test)', () => {
  for (const width of WIDTHS) {
    test(`keeps its reserved size from loading to every state at ${width} px, so nothing moves`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 900 });
      await watchLayoutShifts(page);
      // Loading: the answer never comes.
      await page.route(`**${NEXT_EVENT_API}`, () => new Promise(() => {}));
      await gotoHydrated(page, '/resources');
      await expect(card(page)).toHaveAttribute('data-state', 'loading');
      const loading = (await card(page).boundingBox())!;
      await page.unroute(`**${NEXT_EVENT_API}`);

      const now = Date.now();
      const states: [string, PublicEvent | null][] = [
        ['none', null],
        ['upcoming', fakeEvent({ ...LONG, mode: 'in-person', registration: { placesLeft: 0 } })],
        [
          'upcoming',
          fakeEvent({
            ...LONG,
            registration: { open: false, opensAt: new Date(now + 2 * DAY).toISOString() },
          }),
        ],
        [
          'upcoming',
          fakeEvent({ ...LONG, registration: { open: false, opensAt: new Date(now - DAY).toISOString() } }),
        ],
        ['cancelled', fakeEvent({ ...LONG, cancelled: true, calendarPath: null })],
        [
          'past',
          fakeEvent({
            ...LONG,
            startsAt: new Date(now - 3 * 3_600_000).toISOString(),
            endsAt: new Date(now - 60_000).toISOString(),
          }),
        ],
      ];
      for (const [state, event] of states) {
        await page.unroute(`**${NEXT_EVENT_API}`);
        await routeNextEvent(page, event);
        await openResources(page, state);
        const box = (await card(page).boundingBox())!;
        expect(
          Math.abs(box.height - loading.height),
          `${state}: ${box.height} vs ${loading.height}`,
        ).toBeLessThan(1);
        expect(box.y).toBeCloseTo(loading.y, 0);
        expect(await shifts(page), state).toBeLessThan(0.001);
      }
    });
  }

  test('registration not yet open: a note with its date, the calendar file, no form', async ({ page }) => {
    const opensAt = new Date(Date.now() + 3 * DAY).toISOString();
    await routeNextEvent(page, fakeEvent({ registration: { open: false, opensAt } }));
    await openResources(page, 'upcoming');
    const opens = london(opensAt);
    await expect(card(page).getByTestId('masterclass-status')).toHaveText(
      `Registration opens ${opens.day} at ${opens.clock} ${opens.zone}.`,
    );
    await expect(page.getByRole('link', { name: 'Reserve Your Spot' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: /^\+ Calendar/ })).toBeVisible();
    await expect(registrationForm(page)).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Registration is not open yet' })).toBeAttached();
    await axeAtEachWidth(page);
  });

  test('registration closed: says so, no form', async ({ page }) => {
    await routeNextEvent(page, fakeEvent({ registration: { open: false } }));
    await openResources(page, 'upcoming');
    await expect(card(page).getByTestId('masterclass-status')).toHaveText('Registration has closed.');
    await expect(page.getByRole('link', { name: 'Reserve Your Spot' })).toHaveCount(0);
    await expect(registrationForm(page)).toHaveCount(0);
  });

  test('in person: the place, and an offline Event at a Place', async ({ page }) => {
    const place = 'The Library, 1 Example Court, London EC1A 1AA';
    await routeNextEvent(page, fakeEvent({ mode: 'in-person', place }));
    await openResources(page, 'upcoming');
    await expect(card(page).getByText(place)).toBeVisible();
    expect((await jsonLd(page))[0]).toMatchObject({
      eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
      location: { '@type': 'Place', name: place },
    });
  });

  test.describe('when the answer fails', () => {
    test.use({ allowConsoleErrors: /Failed to load resource: the server responded with a status of 503/ });

    test('the card shows the no-masterclass wording and nothing broken', async ({ page }) => {
      await page.route(`**${NEXT_EVENT_API}`, (route) =>
        route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":"down"}' }),
      );
      await openResources(page, 'none');
      await expect(
        card(page).getByRole('heading', { name: 'No masterclass scheduled at the moment' }),
      ).toBeVisible();
      expect(await jsonLd(page)).toEqual([]);
      await expect(registrationForm(page)).toHaveCount(0);
    });
  });
});
