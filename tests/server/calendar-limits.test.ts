/**
 * The owner's calendar cannot hurt the server (decision 037, addendum): each hostile feed below,
 * served by a real HTTP server in the test, is read by the real app while the test asks
 * `/healthz` every 25 ms, and every answer comes within 200 ms. An event whose rule makes ical.js
 * loop for ever is stopped at the time limit; 30 series repeating every second from 1970 trip the
 * occurrence limit; a feed of 32,000 unfinished events is split in one pass. A feed that trips a
 * limit is an unreadable feed: its last good copy's busy half-days stay, the warning names the
 * limit, the owner is e-mailed once, and the app stops cleanly afterwards.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stateIn, type PublicAvailability } from '../../src/features/booking/availability';
import { BOOKING_HORIZON_DAYS } from '../../src/content/booking';
import { addDays, ukDateOf, ukWallTimeToInstant } from '../../src/lib/uk-dates';
import { bookableDate, makeFormsApp, type FormsTestApp } from './forms-support';
import { apiCall, asOwner, signInOwner, type OwnerCall } from './owner-session';

const PATH = '/private-calendar/basic.ics';

const stamp = (date: string, hhmm: string) =>
  ukWallTimeToInstant(date, hhmm)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

const calendar = (lines: string[]) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Test//EN', ...lines, 'END:VCALENDAR', ''].join('\r\n');

const event = (uid: string, start: string, end: string, extra: string[] = []) => [
  'BEGIN:VEVENT',
  `UID:${uid}`,
  'DTSTAMP:20261101T000000Z',
  `DTSTART:${start}`,
  `DTEND:${end}`,
  ...extra,
  'END:VEVENT',
];

/** The feeds of the issue, each as the calendar would serve it. */
const hostile = {
  // ical.js never finds a 30 February, and never stops looking.
  impossibleRule: calendar(
    event('never@example.com', '20260101T090000Z', '20260101T100000Z', [
      'RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30',
    ]),
  ),
  // 6 kB: 30 series, each stepped one second at a time from 1970.
  secondly: calendar(
    Array.from({ length: 30 }, (_, i) =>
      event(`second-${i}@example.com`, '19700101T000000Z', '19700101T000001Z', ['RRULE:FREQ=SECONDLY']),
    ).flat(),
  ),
  // 32,000 events that never end: a quadratic splitter's worst case.
  unfinished: calendar(Array.from({ length: 32_000 }, () => 'BEGIN:VEVENT')),
  // One weekly event with 50,000 exceptions.
  exdates: (() => {
    const start = new Date(Date.UTC(2000, 0, 3, 9));
    const exdates = Array.from({ length: 50_000 }, (_, i) => {
      const day = new Date(start.getTime() + i * 3_600_000);
      return `EXDATE:${day
        .toISOString()
        .replace(/[-:]/g, '')
        .replace(/\.\d{3}/, '')}`;
    });
    return calendar(
      event('exdates@example.com', '20000103T090000Z', '20000103T100000Z', ['RRULE:FREQ=WEEKLY', ...exdates]),
    );
  })(),
};

/** The slowest `/healthz` answer, in ms, while `work` runs (asked every 25 ms). */
async function slowestHealthWhile<T>(
  app: FormsTestApp['app'],
  work: Promise<T>,
): Promise<{ slowest: number; result: T; asked: number }> {
  let done = false;
  let slowest = 0;
  let asked = 0;
  const watching = (async () => {
    while (!done) {
      const began = performance.now();
      const res = await app.inject({ method: 'GET', url: '/healthz' });
      expect(res.statusCode).toBe(200);
      slowest = Math.max(slowest, performance.now() - began);
      asked += 1;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  })();
  try {
    const result = await work;
    return { slowest, result, asked };
  } finally {
    done = true;
    await watching;
  }
}

describe("a hostile calendar entry in the owner's calendar", () => {
  let t: FormsTestApp;
  let owner: OwnerCall;
  let server: Server;
  let base = '';
  const feed = { body: '' };
  const busyDay = bookableDate(2);
  const good = calendar(event('good@example.com', stamp(busyDay, '10:00'), stamp(busyDay, '11:00')));

  beforeAll(async () => {
    server = createServer((req, res) => {
      res.writeHead(req.url === PATH ? 200 : 404, { 'content-type': 'text/calendar' });
      res.end(req.url === PATH ? feed.body : '');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    t = await makeFormsApp(
      { CALENDAR_FEED_ALLOW_HTTP: 'true', CALENDAR_FEED_ALLOW_PRIVATE: 'true' },
      // Smaller limits than the server's (20 s, 200,000 occurrences), for a shorter test.
      { services: { calendarExpansion: { timeMs: 6000, occurrences: 60_000 } } },
    );
    owner = asOwner(t.app, await signInOwner(t.app));
    feed.body = good;
    const set = await owner('POST', '/api/owner/availability/calendar', {
      body: { address: `${base}${PATH}` },
    });
    expect(set.json().calendar).toMatchObject({ error: null, busyHalfDays: 1 });
  });
  afterAll(async () => {
    await t?.app.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  const morning = async () =>
    stateIn(
      (await apiCall(t.app, 'GET', '/api/bookings/availability')).json() as PublicAvailability,
      busyDay,
      'morning',
    );
  const failureMails = async () =>
    Number(
      (
        await t.query<{ n: string }>(`select count(*) as n from outbox where kind = 'owner.calendar-failed'`)
      )[0]!.n,
    );
  const readNow = async (body: string) => {
    feed.body = body;
    const { slowest, result, asked } = await slowestHealthWhile(
      t.app,
      owner('POST', '/api/owner/availability/calendar/refresh'),
    );
    expect(result.statusCode, result.body).toBe(200);
    return {
      slowest,
      asked,
      calendar: result.json().calendar as { error: string | null; busyHalfDays: number },
    };
  };
  const readGood = async () => {
    const { calendar } = await readNow(good);
    expect(calendar).toMatchObject({ error: null, busyHalfDays: 1 });
  };

  it('an impossible rule is stopped at the time limit; the server answers throughout and keeps the last good copy', async () => {
    const mails = await failureMails();
    const { slowest, asked, calendar } = await readNow(hostile.impossibleRule);
    expect(asked).toBeGreaterThan(10);
    expect(slowest).toBeLessThan(200);
    // Either limit may stop it first: the loop fills the process's memory as it runs.
    expect(calendar.error).toMatch(
      /^(The calendar took longer than 6 seconds to read, so its reading was stopped|Reading the calendar needed more than the 256 MB of memory it may use)/,
    );
    expect(calendar.busyHalfDays).toBe(1);
    expect(await morning()).toBe('full');
    expect(await failureMails()).toBe(mails + 1);
    const warnings = (await owner('GET', '/api/owner/overview')).json().calendarWarnings as string[];
    expect(warnings[0]).toMatch(
      /^Your calendar could not be read: The calendar took longer|^Your calendar could not be read: Reading the calendar needed more/,
    );
    await readGood();
  });

  it('30 series repeating every second from 1970 trip the occurrence limit', async () => {
    const { slowest, calendar } = await readNow(hostile.secondly);
    expect(slowest).toBeLessThan(200);
    expect(calendar.error).toMatch(
      /^The calendar's repeating events have more than 60,000 occurrences to go through, more than can be read/,
    );
    expect(calendar.busyHalfDays).toBe(1);
    await readGood();
  });

  it('32,000 events that never end are read in one pass, as a calendar with no events', async () => {
    const { slowest, calendar } = await readNow(hostile.unfinished);
    expect(slowest).toBeLessThan(200);
    expect(calendar).toMatchObject({ error: null, busyHalfDays: 0 });
    await readGood();
  });

  it('an event with 50,000 exceptions never holds the server up', async () => {
    const { slowest, calendar } = await readNow(hostile.exdates);
    expect(slowest).toBeLessThan(200);
    // Read: every Monday morning of the booking window is busy (9:00 UTC), none of the
    // exceptions (hourly, 2000 to 2005) falls in it.
    const today = ukDateOf(new Date());
    let mondays = 0;
    for (let d = today; d <= addDays(today, BOOKING_HORIZON_DAYS); d = addDays(d, 1))
      if (new Date(`${d}T12:00:00Z`).getUTCDay() === 1) mondays += 1;
    expect(calendar).toMatchObject({ error: null, busyHalfDays: mondays });
    await readGood();
  });

  it('the app stops cleanly while a runaway feed is being read', async () => {
    feed.body = hostile.impossibleRule;
    const reading = owner('POST', '/api/owner/availability/calendar/refresh').catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 500));
    await t.app.close();
    await reading;
    // No calendar process is left running.
    const { execFileSync } = await import('node:child_process');
    const left = execFileSync('ps', ['-eo', 'ppid,args'], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line.includes('calendar-worker') && line.trim().startsWith(String(process.pid)));
    expect(left).toEqual([]);
  });
});
