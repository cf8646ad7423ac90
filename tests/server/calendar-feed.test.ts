/**
 * The owner's own calendar (decision 037), on PostgreSQL, fetched from a real HTTP
 * server in the test: a busy event closes its half-day in the public answer and refuses a request
 * for it, and the owner's confirm onto it names the clash; the address is stored but shown
 * masked, never audited or logged; a feed that fails keeps its last good copy, warns in the
 * overview and e-mails the owner once per failure; too slow, too large, not a calendar, http and
 * private addresses are refused with a sentence for the owner; two instances fetch it once.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stateIn, type PublicAvailability } from '../../src/features/booking/availability';
import { expandFeed } from '../../src/features/booking/calendar-feed-expand';
import { refreshCalendarFeed } from '../../src/features/booking/calendar-feed.server';
import { ukWallTimeToInstant } from '../../src/lib/uk-dates';
import {
  bodies,
  bookableDate,
  logCapture,
  makeFormsApp,
  testDrivers,
  type FormsTestApp,
} from './forms-support';
import { apiCall, asOwner, signInOwner, type OwnerCall } from './owner-session';

const drivers = await testDrivers('calendar_feed');

/** The secret part of the address: it must never appear in a log, an audit row or an answer. */
const SECRET_PATH = '/private-7f3k9q2m8x4w/basic.ics';

/** An iCalendar timestamp of the UK wall time `hhmm` on `date`, in UTC. */
const utcStamp = (date: string, hhmm: string) =>
  ukWallTimeToInstant(date, hhmm)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

function icsOf(events: { date: string; from: string; to: string; extra?: string[] }[]): string {
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Test//EN',
    ...events.flatMap((e, i) => [
      'BEGIN:VEVENT',
      `UID:busy-${i}@example.com`,
      'DTSTAMP:20261101T000000Z',
      'SUMMARY:Private: dentist',
      `DTSTART:${utcStamp(e.date, e.from)}`,
      `DTEND:${utcStamp(e.date, e.to)}`,
      ...(e.extra ?? []),
      'END:VEVENT',
    ]),
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}

/** The owner's calendar provider: what it answers can be changed by the test. */
type Feed = { status: number; body: string; delayMs: number; hits: number };

async function startCalendarServer(feed: Feed) {
  const server: Server = createServer((req, res) => {
    if (req.url === SECRET_PATH) {
      feed.hits += 1;
      setTimeout(() => {
        res.writeHead(feed.status, { 'content-type': 'text/calendar' });
        res.end(feed.body);
      }, feed.delayMs);
      return;
    }
    if (req.url?.startsWith('/redirect/')) {
      const n = Number(req.url.slice('/redirect/'.length));
      res.writeHead(302, { location: n > 0 ? `/redirect/${n - 1}` : SECRET_PATH });
      res.end();
      return;
    }
    if (req.url === '/to-ftp') {
      res.writeHead(301, { location: 'ftp://files.example.com/cal.ics' });
      res.end();
      return;
    }
    if (req.url === '/huge') {
      res.writeHead(200, { 'content-type': 'text/calendar' });
      res.end('BEGIN:VCALENDAR\r\n' + 'X-PAD:'.padEnd(200_000, 'x') + '\r\nEND:VCALENDAR\r\n');
      return;
    }
    res.writeHead(404);
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { base: `http://127.0.0.1:${port}`, port, close: () => new Promise((r) => server.close(r)) };
}

describe.each(drivers)("the owner's calendar on $name", (driver) => {
  let t: FormsTestApp;
  let second: FormsTestApp | undefined;
  let drop: () => Promise<void>;
  let owner: OwnerCall;
  let server: Awaited<ReturnType<typeof startCalendarServer>>;
  const logs = logCapture();
  const feed: Feed = { status: 200, body: '', delayMs: 0, hits: 0 };
  const env = { CALENDAR_FEED_ALLOW_HTTP: 'true', CALENDAR_FEED_ALLOW_PRIVATE: 'true' };
  const limits = { timeoutMs: 1500, maxBytes: 100_000 };
  const busyDay = bookableDate(2);

  beforeAll(async () => {
    server = await startCalendarServer(feed);
    const db = await driver.env();
    drop = db.drop;
    t = await makeFormsApp(
      { ...db.env, ...env },
      { logger: logs.logger, services: { calendarFeed: limits } },
    );
    second = await makeFormsApp({ ...db.env, ...env }, { services: { calendarFeed: limits } });
    owner = asOwner(t.app, await signInOwner(t.app));
  });
  afterAll(async () => {
    await second?.app.close();
    await t?.app.close();
    await server?.close();
    await drop?.();
  });

  const publicAnswer = async (): Promise<PublicAvailability> =>
    (await apiCall(t.app, 'GET', `/api/bookings/availability`)).json() as PublicAvailability;
  const setAddress = (address: string) =>
    owner('POST', '/api/owner/availability/calendar', { body: { address } });
  const failureMails = async () =>
    Number(
      (
        await t.query<{ n: string }>(`select count(*) as n from outbox where kind = 'owner.calendar-failed'`)
      )[0]!.n,
    );

  it('closes the half-days its busy events overlap, and shows the address masked', async () => {
    feed.body = icsOf([
      { date: busyDay, from: '10:00', to: '11:00' },
      // Free and cancelled events close nothing.
      { date: busyDay, from: '14:00', to: '15:00', extra: ['TRANSP:TRANSPARENT'] },
      { date: bookableDate(3), from: '14:00', to: '15:00', extra: ['STATUS:CANCELLED'] },
    ]);
    const res = await setAddress(`${server.base}${SECRET_PATH}`);
    expect(res.statusCode, res.body).toBe(200);
    const calendar = res.json().calendar;
    expect(calendar).toMatchObject({ events: 3, busyHalfDays: 1, error: null });
    expect(calendar.address).toBe(`http://127.0.0.1:${server.port}/….ics`);
    expect(res.body).not.toContain('7f3k9q2m8x4w');
    expect(calendar.lastGoodAt).not.toBeNull();

    const answer = await publicAnswer();
    expect(stateIn(answer, busyDay, 'morning')).toBe('full');
    expect(stateIn(answer, busyDay, 'afternoon')).toBe('free');
    expect(stateIn(answer, bookableDate(3), 'afternoon')).toBe('free');
    // The public answer never carries an event's words.
    expect(JSON.stringify(answer)).not.toContain('dentist');

    const refused = await t.post(bodies.booking(busyDay, { email: 'feed1@example.org' }));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().reason).toBe('taken');

    const audited = await t.query<{ action: string; detail: unknown }>(
      `select action, detail from audit_log where action = 'availability.calendar'`,
    );
    expect(audited).toEqual([{ action: 'availability.calendar', detail: { removed: false } }]);
  });

  it("names the owner's calendar when the owner confirms a session onto a busy half-day", async () => {
    const day = bookableDate(4);
    const asked = await t.post(bodies.booking(day, { email: 'feed2@example.org' }));
    expect(asked.statusCode, asked.body).toBe(200);
    const reference = asked.json().reference as string;
    feed.body = icsOf([
      { date: busyDay, from: '10:00', to: '11:00' },
      { date: day, from: '09:00', to: '09:30' },
    ]);
    expect(
      (await owner('POST', '/api/owner/availability/calendar/refresh')).json().calendar.busyHalfDays,
    ).toBe(2);
    const { id } = (
      (await owner('GET', '/api/owner/bookings?view=requested')).json().items as {
        id: string;
        reference: string;
      }[]
    ).find((b) => b.reference === reference)!;
    const refused = await owner('POST', `/api/owner/bookings/${id}/confirm`, {
      body: { choice: 1, start: '10:00' },
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatch(
      /is closed by your own calendar \(busy then\)\. Choose another time, or confirm it anyway\.$/,
    );
  });

  it('keeps the last good copy when the feed fails, warns in the overview, and e-mails the owner once per failure', async () => {
    feed.status = 404;
    const failed = await owner('POST', '/api/owner/availability/calendar/refresh');
    expect(failed.statusCode).toBe(200);
    expect(failed.json().calendar.error).toBe(
      "The calendar address answered 404 (not found): it may have been replaced in your calendar's settings.",
    );
    expect(stateIn(await publicAnswer(), busyDay, 'morning')).toBe('full');
    const warnings = (await owner('GET', '/api/owner/overview')).json().calendarWarnings as string[];
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^Your calendar could not be read: The calendar address answered 404 .* The busy times of the last good copy \(read \d+ \w+ at \d\d:\d\d\) are still used\.$/,
    );
    expect(await failureMails()).toBe(1);

    // Failing again: no second e-mail.
    await owner('POST', '/api/owner/availability/calendar/refresh');
    expect(await failureMails()).toBe(1);
    // Read again: the warning goes; the next failure is a new one and is e-mailed.
    feed.status = 200;
    expect(
      (await owner('POST', '/api/owner/availability/calendar/refresh')).json().calendar.error,
    ).toBeNull();
    expect((await owner('GET', '/api/owner/overview')).json().calendarWarnings).toEqual([]);
    feed.status = 500;
    await owner('POST', '/api/owner/availability/calendar/refresh');
    expect(await failureMails()).toBe(2);
    feed.status = 200;
    await owner('POST', '/api/owner/availability/calendar/refresh');

    const [mail] = await t.query<{ message: { subject: string; text?: string; html?: string } }>(
      `select message from outbox where kind = 'owner.calendar-failed' order by created_at limit 1`,
    );
    expect(mail!.message.subject).toBe('Your calendar could not be read');
    expect(JSON.stringify(mail)).not.toContain('7f3k9q2m8x4w');
    // The secret never reaches the log.
    expect(logs.lines.join('\n')).not.toContain('7f3k9q2m8x4w');
  });

  it('refuses a feed that is too slow, too large, not a calendar, or redirects too often or off the web', async () => {
    const errorOf = async (address: string) => (await setAddress(address)).json().calendar.error as string;
    feed.delayMs = 3000;
    expect(await errorOf(`${server.base}${SECRET_PATH}`)).toBe('The calendar took too long to answer.');
    feed.delayMs = 0;
    expect(await errorOf(`${server.base}/huge`)).toBe(
      'The calendar is larger than 98 kB, the most that is read.',
    );
    feed.body = '<html>Sign in to see this calendar</html>';
    expect(await errorOf(`${server.base}${SECRET_PATH}`)).toBe(
      'The calendar address did not answer with a calendar (an iCal file).',
    );
    expect(await errorOf(`${server.base}/redirect/9`)).toBe('The calendar address redirects too many times.');
    expect(await errorOf(`${server.base}/to-ftp`)).toBe(
      'The calendar address redirects to an address that is not https.',
    );
    // A new address starts afresh: none of the old copy's busy times stay.
    expect(stateIn(await publicAnswer(), busyDay, 'morning')).toBe('free');
    feed.body = icsOf([{ date: busyDay, from: '10:00', to: '11:00' }]);
    expect(await errorOf(`${server.base}/redirect/2`)).toBeNull();
    expect(stateIn(await publicAnswer(), busyDay, 'morning')).toBe('full');
  });

  it('is read by one instance when both find it due', async () => {
    const other = second ?? t;
    const deps = (app: FormsTestApp) => ({
      db: app.app.services.database.db,
      config: app.config,
      availabilityUrl: 'https://www.sterling.test/owner/availability',
      log: app.app.log,
      wakeOutbox: () => {},
      expand: (ics: string, range: { from: string; to: string }) => expandFeed(ics, range),
      limits,
    });
    const now = new Date(Date.now() + 3600_000);
    const hits = feed.hits;
    const results = await Promise.all([
      refreshCalendarFeed(deps(t), { now }),
      refreshCalendarFeed(deps(other), { now }),
    ]);
    expect(results.sort()).toEqual(['read', 'taken']);
    expect(feed.hits - hits).toBe(1);
    // Not due again until CALENDAR_FEED_EVERY_MINUTES have passed.
    expect(await refreshCalendarFeed(deps(t), { now: new Date(now.getTime() + 60_000) })).toBe('taken');
  });

  it('removing the address frees its half-days, and an address that is not one is refused at the edge', async () => {
    const removed = await setAddress('');
    expect(removed.json().calendar).toMatchObject({ address: null, busyHalfDays: 0 });
    expect(stateIn(await publicAnswer(), busyDay, 'morning')).toBe('free');
    expect((await owner('POST', '/api/owner/availability/calendar/refresh')).statusCode).toBe(409);
    for (const address of ['calendar', 'javascript:alert(1)', 'file:///etc/passwd', 'x'.repeat(2001)]) {
      const res = await setAddress(address);
      expect(res.statusCode, address).toBe(400);
      expect(res.json().fieldErrors.address).toBeTruthy();
    }
    expect(
      (await owner('POST', '/api/owner/availability/calendar', { body: { address: 1 } })).statusCode,
    ).toBe(400);
    expect(
      (await apiCall(t.app, 'POST', '/api/owner/availability/calendar', { body: { address: '' } }))
        .statusCode,
    ).toBe(401);
  });
});

describe("the owner's calendar without the test settings", () => {
  let t: FormsTestApp;
  let owner: OwnerCall;
  let server: Awaited<ReturnType<typeof startCalendarServer>>;
  beforeAll(async () => {
    server = await startCalendarServer({ status: 200, body: icsOf([]), delayMs: 0, hits: 0 });
    t = await makeFormsApp(
      { CALENDAR_FEED_ALLOW_HTTP: 'false' },
      { services: { calendarFeed: { timeoutMs: 2000 } } },
    );
    owner = asOwner(t.app, await signInOwner(t.app));
  });
  afterAll(async () => {
    await t?.app.close();
    await server?.close();
  });

  it('refuses http, and an address that is or resolves to a private, loopback or link-local one', async () => {
    const http = await owner('POST', '/api/owner/availability/calendar', {
      body: { address: `${server.base}${SECRET_PATH}` },
    });
    expect(http.statusCode).toBe(400);
    expect(http.json().fieldErrors.address).toBe(
      'The calendar address must start with https:// or webcal://.',
    );
    const privateMessage = 'The calendar address leads to a private network address, which is not allowed.';
    for (const address of [
      `https://127.0.0.1:${server.port}${SECRET_PATH}`,
      `webcal://localhost:${server.port}${SECRET_PATH}`,
      'https://169.254.169.254/latest/meta-data/',
      'https://[::1]/cal.ics',
      'https://10.0.0.8/cal.ics',
    ]) {
      const res = await owner('POST', '/api/owner/availability/calendar', { body: { address } });
      expect(res.statusCode, address).toBe(200);
      expect(res.json().calendar.error, address).toBe(privateMessage);
    }
  });
});
