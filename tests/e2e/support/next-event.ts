/**
 * A made-up answer of GET /api/events/next, for the tests of the Resources page that need a
 * masterclass in a given state (cancelled, registration not yet open, full, very long texts)
 * without going through the owner's console. The real path, console to page, is tested in
 * events-public.spec.ts.
 */
import type { Page } from '@playwright/test';
import {
  NEXT_EVENT_API,
  eventCalendarPath,
  type NextEventAnswer,
  type PublicEvent,
} from '../../../src/features/events/events-api';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

type Overrides = Partial<Omit<PublicEvent, 'registration'>> & {
  registration?: Partial<PublicEvent['registration']>;
};

/** An upcoming online masterclass, open for registration: 10 days from `now`, 90 minutes long. */
export function fakeEvent(overrides: Overrides = {}, now = Date.now()): PublicEvent {
  const id = overrides.id ?? '00000000-0000-4000-8000-000000000001';
  const startsAt = new Date(Math.ceil((now + 10 * DAY) / HOUR) * HOUR).toISOString();
  const base: PublicEvent = {
    id,
    title: 'Bitcoin for High Earners: Building a Position You Can Hold',
    summary: 'Allocation sizing, UK tax and secure custody for professionals, with an open Q&A.',
    startsAt,
    endsAt: new Date(Date.parse(startsAt) + 1.5 * HOUR).toISOString(),
    mode: 'online',
    place: null,
    cancelled: false,
    registration: {
      opensAt: new Date(now - DAY).toISOString(),
      closesAt: startsAt,
      open: true,
      placesLeft: 12,
    },
    calendarPath: eventCalendarPath(id),
  };
  return { ...base, ...overrides, registration: { ...base.registration, ...overrides.registration } };
}

/** Answers GET /api/events/next with `event` (and its calendar path with a small file). */
export async function routeNextEvent(page: Page, event: PublicEvent | null): Promise<void> {
  const answer: NextEventAnswer = { event };
  await page.route(`**${NEXT_EVENT_API}`, (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(answer) }),
  );
  if (event?.calendarPath)
    await page.route(`**${event.calendarPath}`, (route) =>
      route.fulfill({
        status: 200,
        contentType: 'text/calendar; charset=utf-8',
        body: `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Test//EN\r\nBEGIN:VEVENT\r\nUID:${event.id}@test\r\nDTSTAMP:20250101T000000Z\r\nDTSTART:20250101T000000Z\r\nSUMMARY:Test\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n`,
      }),
    );
}
