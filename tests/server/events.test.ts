/**
 * Masterclasses over a real PostgreSQL database of their own, with a real SMTP
 * peer: capacity holds under 50 concurrent registrations; a cancellation promotes the first on
 * the waitlist and tells them; the reminders leave once each at their time (the outbox's clock
 * moved, not waited for); a time change sends the same UID with a higher SEQUENCE; a cancelled
 * event sends METHOD:CANCEL with the same UID to every attendee; the joining link never appears
 * in a public answer; the console's events API needs a session; erasure removes registrations.
 */
import ICAL from 'ical.js';
import pg from 'pg';
import { parse as parseCsv } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ukLocalInput } from '../../src/features/events/event-times';
import {
  bodies,
  makeFormsApp,
  testDrivers,
  startSmtpPeer,
  type FormsTestApp,
  type ReceivedMail,
  type SmtpPeer,
  until as pollUntil,
} from './forms-support';
import { apiCall, asOwner, signInOwner, type OwnerCall } from './owner-session';

const JOIN_URL = 'https://meet.example.net/j/secret-room-4242';
const HOUR = 3600_000;

function parseIcs(ics: string) {
  const cal = new ICAL.Component(ICAL.parse(ics));
  for (const tz of cal.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(tz);
  const vevent = cal.getFirstSubcomponent('vevent');
  if (!vevent) throw new Error('no VEVENT');
  return {
    method: String(cal.getFirstPropertyValue('method')),
    uid: String(vevent.getFirstPropertyValue('uid')),
    sequence: Number(vevent.getFirstPropertyValue('sequence')),
    event: new ICAL.Event(vevent),
  };
}

function icsOf(mail: ReceivedMail) {
  const file = mail.attachments.find((a) => a.contentType.startsWith('text/calendar'));
  if (!file) throw new Error(`no calendar file in "${mail.header('subject')}"`);
  return parseIcs(file.content);
}

/** The signed token of the cancel link in a masterclass e-mail. */
function cancelTokenOf(mail: ReceivedMail): string {
  const url = /https:\/\/www\.sterling\.test\/masterclass\/cancel\?token=[A-Za-z0-9._%-]+/.exec(mail.text);
  if (!url) throw new Error(`no cancel link in "${mail.header('subject')}"`);
  return decodeURIComponent(new URL(url[0]).searchParams.get('token')!);
}

/** The shared poll, with these tests' longer wait (a masterclass's e-mails go through the outbox). */
const until = <T>(fn: () => Promise<T | undefined | false> | T | undefined | false) => pollUntil(fn, 20_000);

const drivers = await testDrivers('events');

describe.each(drivers)('masterclasses on $name', (driver) => {
  let t: FormsTestApp;
  let smtp: SmtpPeer;
  let drop: () => Promise<void>;
  let owner: OwnerCall;
  let databaseUrl: string | undefined;
  /** The outbox's clock runs this far ahead of the real one. */
  let ahead = 0;

  beforeAll(async () => {
    smtp = await startSmtpPeer();
    const db = await driver.env();
    drop = db.drop;
    databaseUrl = (db.env as { DATABASE_URL?: string }).DATABASE_URL;
    t = await makeFormsApp(
      { SMTP_URL: smtp.url, ...db.env },
      { services: { outbox: { clock: () => new Date(Date.now() + ahead) } } },
    );
    owner = asOwner(t.app, await signInOwner(t.app));
  });
  afterAll(async () => {
    await t?.app.close();
    await smtp?.close();
    await drop?.();
  });

  /** A published event starting `startsInHours` from now, lasting 90 minutes. */
  async function publishedEvent(over: Record<string, unknown> = {}, startsInHours = 72): Promise<string> {
    const start = new Date(Date.now() + startsInHours * HOUR);
    const created = await owner('POST', '/api/owner/events', {
      body: {
        title: 'Bitcoin for High Earners',
        summary: 'Allocation sizing, UK tax and custody, then questions.',
        startsAt: ukLocalInput(start),
        endsAt: ukLocalInput(new Date(start.getTime() + 1.5 * HOUR)),
        mode: 'online',
        place: '',
        joinUrl: JOIN_URL,
        capacity: 10,
        registrationOpensAt: '',
        registrationClosesAt: '',
        ...over,
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().id as string;
    const published = await owner('POST', `/api/owner/events/${id}/publish`);
    expect(published.statusCode, published.body).toBe(200);
    return id;
  }

  const register = (eventId: string, email: string, over: Record<string, unknown> = {}) =>
    t.post(bodies.masterclass(eventId, { email, ...over }));

  const mailsTo = (to: string) => smtp.mails.filter((m) => m.envelopeTo.includes(to));

  async function drained() {
    t.app.services.outbox.wake();
    await t.app.services.outbox.drain();
  }

  it('answers 401 to every events API without a session', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    for (const [method, url] of [
      ['GET', '/api/owner/events'],
      ['GET', `/api/owner/events/${id}`],
      ['POST', '/api/owner/events'],
      ['POST', `/api/owner/events/${id}`],
      ['POST', `/api/owner/events/${id}/publish`],
      ['POST', `/api/owner/events/${id}/cancel`],
      ['POST', `/api/owner/events/${id}/message`],
      ['GET', `/api/owner/exports/events/${id}/attendees.csv`],
    ] as const) {
      expect((await apiCall(t.app, method, url)).statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('refuses bad event details field by field and a cross-site change', async () => {
    const res = await owner('POST', '/api/owner/events', {
      body: {
        title: '',
        summary: 'x',
        startsAt: '2020-01-01T10:00',
        endsAt: 'soon',
        mode: 'online',
        joinUrl: 'http://x',
        capacity: 0,
      },
    });
    expect(res.statusCode).toBe(400);
    const errors = res.json().fieldErrors;
    expect(Object.keys(errors).sort()).toEqual(['capacity', 'endsAt', 'joinUrl', 'startsAt', 'title']);
    expect(errors.startsAt).toBe('The start must be in the future.');
    const crossSite = await owner('POST', '/api/owner/events', {
      headers: { origin: 'https://evil.example' },
    });
    expect(crossSite.statusCode).toBe(403);
  });

  it('gives exactly 10 places and 40 waitlist entries to 50 concurrent registrations for 10 seats', async () => {
    const id = await publishedEvent({ capacity: 10 });
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => register(id, `crowd${i}@example.org`)),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(50).fill(200));
    const statuses = answers.map((a) => a.json().status as string);
    expect(statuses.filter((s) => s === 'registered')).toHaveLength(10);
    expect(statuses.filter((s) => s === 'waitlisted')).toHaveLength(40);
    const rows = await t.query<{ status: string; n: number }>(
      `select status, count(*)::int as n from event_registrations where event_id = '${id}' group by status order by status`,
    );
    expect(rows).toEqual([
      { status: 'registered', n: 10 },
      { status: 'waitlisted', n: 40 },
    ]);
    const detail = (await owner('GET', `/api/owner/events/${id}`)).json();
    expect(detail.attendees).toHaveLength(10);
    expect(detail.waitlist).toHaveLength(40);
    const next = (await apiCall(t.app, 'GET', '/api/events/next')).json();
    if (next.event?.id === id) expect(next.event.registration.placesLeft).toBe(0);
  });

  it('keeps one live registration a person an event, and refuses drafts and closed registration', async () => {
    const id = await publishedEvent({ capacity: 3 });
    const first = await register(id, 'Twice@Example.org');
    const again = await register(id, 'twice@example.org');
    expect([first.json().status, again.json().status]).toEqual(['registered', 'registered']);
    const counted = await t.query<{ n: number }>(
      `select count(*)::int as n from event_registrations where event_id = '${id}'`,
    );
    expect(counted).toEqual([{ n: 1 }]);

    const draft = await owner('POST', '/api/owner/events', {
      body: {
        title: 'Draft',
        summary: 'Not yet public.',
        startsAt: ukLocalInput(new Date(Date.now() + 50 * HOUR)),
        endsAt: ukLocalInput(new Date(Date.now() + 51 * HOUR)),
        mode: 'in-person',
        place: '1 Poultry, London',
        joinUrl: '',
        capacity: 5,
        registrationOpensAt: '',
        registrationClosesAt: '',
      },
    });
    const refused = await register(draft.json().id, 'early@example.org');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe(
      'This masterclass is not open for registration. Please reload the page.',
    );

    const closed = await publishedEvent({
      registrationClosesAt: ukLocalInput(new Date(Date.now() + 2 * 60_000)),
    });
    await t.query(
      `update events set registration_closes_at = now() - interval '1 minute' where id = '${closed}'`,
    );
    const late = await register(closed, 'late@example.org');
    expect(late.statusCode).toBe(409);
    expect(late.json().error).toBe('Registration for this masterclass has closed.');
  });

  it('promotes the first on the waitlist when a place is cancelled, and tells them', async () => {
    const id = await publishedEvent({ capacity: 1 });
    expect((await register(id, 'held@example.org', { firstName: 'Holder' })).json().status).toBe(
      'registered',
    );
    expect((await register(id, 'second@example.org', { firstName: 'Second' })).json().status).toBe(
      'waitlisted',
    );
    expect((await register(id, 'third@example.org', { firstName: 'Third' })).json().status).toBe(
      'waitlisted',
    );
    await drained();
    const confirmation = await until(() =>
      mailsTo('held@example.org').find((m) => m.header('subject')?.startsWith("You're registered")),
    );
    expect(mailsTo('second@example.org').map((m) => m.header('subject'))).toEqual([
      "You're on the waitlist: Bitcoin for High Earners",
    ]);
    // The waitlist e-mail never carries the joining link; the confirmation does.
    expect(mailsTo('second@example.org')[0]!.text).not.toContain(JOIN_URL);
    expect(confirmation.text).toContain(JOIN_URL);

    const token = cancelTokenOf(confirmation);
    const view = await apiCall(t.app, 'POST', '/api/events/registration', { body: { token } });
    expect(view.statusCode).toBe(200);
    expect(view.json()).toMatchObject({
      title: 'Bitcoin for High Earners',
      status: 'registered',
      eventCancelled: false,
    });
    expect(view.body).not.toContain(JOIN_URL);
    const [cancelled, twice] = await Promise.all([
      apiCall(t.app, 'POST', '/api/events/registration/cancel', { body: { token } }),
      apiCall(t.app, 'POST', '/api/events/registration/cancel', { body: { token } }),
    ]);
    expect([cancelled.statusCode, twice.statusCode]).toEqual([200, 200]);
    expect([cancelled, twice].map((r) => (r.json() as { message: string }).message)).toContain(
      'Your registration is cancelled. Thank you for letting us know: your place has gone to the next person waiting.',
    );
    await drained();
    await until(() =>
      mailsTo('held@example.org').some((m) => m.header('subject')?.startsWith('Registration cancelled')),
    );

    const promoted = await until(() =>
      mailsTo('second@example.org').find(
        (m) => m.header('subject') === 'A place is yours: Bitcoin for High Earners',
      ),
    );
    expect(promoted.text).toContain(JOIN_URL);
    expect(icsOf(promoted).method).toBe('REQUEST');
    const rows = await t.query<{ email: string; status: string }>(
      `select s.fields->>'email' as email, r.status from event_registrations r join submissions s on s.id = r.submission_id
       where r.event_id = '${id}' order by r.seq`,
    );
    expect(rows).toEqual([
      { email: 'held@example.org', status: 'cancelled' },
      { email: 'second@example.org', status: 'registered' },
      { email: 'third@example.org', status: 'waitlisted' },
    ]);
    // Only one place was freed, and one e-mail said so, however often the link was pressed.
    await drained();
    expect(
      mailsTo('held@example.org').filter((m) => m.header('subject')?.startsWith('Registration cancelled')),
    ).toHaveLength(1);
    expect(mailsTo('third@example.org').map((m) => m.header('subject'))).toEqual([
      "You're on the waitlist: Bitcoin for High Earners",
    ]);
    // A forged link is refused.
    const forged = await apiCall(t.app, 'POST', '/api/events/registration/cancel', {
      body: { token: `${token}x` },
    });
    expect(forged.statusCode).toBe(403);
  });

  it('confirms each masterclass a person registers for on one day; a cancellation removes the calendar entry, and registering again is confirmed', async () => {
    const first = await publishedEvent({ title: 'Custody for Advisers' });
    const second = await publishedEvent({ title: 'Tax for Advisers' }, 96);
    const person = 'two.classes@example.org';
    expect((await register(first, person)).json().status).toBe('registered');
    expect((await register(second, person)).json().status).toBe('registered');
    // The same address again while registered: the same answer, no second place or e-mail.
    expect((await register(first, person)).json().status).toBe('registered');
    await drained();
    const subjects = () =>
      mailsTo(person)
        .map((m) => m.header('subject'))
        .sort();
    expect(subjects()).toEqual([
      "You're registered: Custody for Advisers",
      "You're registered: Tax for Advisers",
    ]);

    // Cancelled with the e-mail's link: an e-mail whose file removes the same calendar entry.
    const confirmation = mailsTo(person).find((m) => m.header('subject')?.includes('Custody'))!;
    const token = cancelTokenOf(confirmation);
    const cancelled = await apiCall(t.app, 'POST', '/api/events/registration/cancel', { body: { token } });
    expect(cancelled.statusCode).toBe(200);
    // Nobody was waiting: the answer does not say the place went to someone.
    expect(cancelled.json().message).toBe('Your registration is cancelled. Thank you for letting us know.');
    const withdrawn = await until(() =>
      mailsTo(person).find((m) => m.header('subject') === 'Registration cancelled: Custody for Advisers'),
    );
    const removal = icsOf(withdrawn);
    const invite = icsOf(confirmation);
    expect(removal.method).toBe('CANCEL');
    expect(removal.uid).toBe(invite.uid);
    expect(removal.sequence).toBeGreaterThan(invite.sequence);
    expect(withdrawn.text).not.toContain(JOIN_URL);
    // Pressed again: nothing more is sent.
    await apiCall(t.app, 'POST', '/api/events/registration/cancel', { body: { token } });

    // Registered again the same day: a new registration, confirmed with its own calendar entry.
    expect((await register(first, person)).json().status).toBe('registered');
    await drained();
    const again = await until(() => {
      const found = mailsTo(person).filter(
        (m) => m.header('subject') === "You're registered: Custody for Advisers",
      );
      return found.length === 2 ? found[1] : undefined;
    });
    expect(icsOf(again).uid).not.toBe(invite.uid);
    expect(cancelTokenOf(again)).not.toBe(token);
    expect(subjects()).toEqual([
      'Registration cancelled: Custody for Advisers',
      "You're registered: Custody for Advisers",
      "You're registered: Custody for Advisers",
      "You're registered: Tax for Advisers",
    ]);
    const statuses = await t.query<{ status: string }>(
      `select status from outbox where lower(to_address) = '${person}' and kind in ('event.registered', 'event.withdrawn') order by id`,
    );
    expect(statuses.map((r) => r.status)).toEqual(['sent', 'sent', 'sent', 'sent']);
  });

  it('confirms leaving the waitlist, with no calendar file, and gives no place', async () => {
    const id = await publishedEvent({ capacity: 1 });
    expect((await register(id, 'seated@example.org')).json().status).toBe('registered');
    expect((await register(id, 'waiting@example.org')).json().status).toBe('waitlisted');
    await drained();
    const notice = await until(() => mailsTo('waiting@example.org')[0]);
    const left = await apiCall(t.app, 'POST', '/api/events/registration/cancel', {
      body: { token: cancelTokenOf(notice) },
    });
    expect(left.json().message).toBe('You have left the waitlist. Thank you for letting us know.');
    const confirmation = await until(() =>
      mailsTo('waiting@example.org').find((m) =>
        m.header('subject')?.startsWith('You have left the waitlist'),
      ),
    );
    expect(confirmation.attachments).toHaveLength(0);
    expect(confirmation.text).not.toContain(JOIN_URL);
    const rows = await t.query<{ status: string }>(
      `select status from event_registrations where event_id = '${id}' order by seq`,
    );
    expect(rows.map((r) => r.status)).toEqual(['registered', 'cancelled']);
  });

  it('sends each reminder once, 24 hours and 1 hour before the start, by the outbox clock', async () => {
    const id = await publishedEvent({ capacity: 5 }, 30);
    expect((await register(id, 'remind@example.org')).statusCode).toBe(200);
    await drained();
    const subjects = () => mailsTo('remind@example.org').map((m) => m.header('subject'));
    await until(() => subjects().length === 1);
    expect(subjects()).toEqual(["You're registered: Bitcoin for High Earners"]);

    const [event] = await t.query<{ starts_at: string }>(`select starts_at from events where id = '${id}'`);
    const start = new Date(event!.starts_at).getTime();
    // A minute short of 24 hours before: nothing yet.
    ahead = start - 24 * HOUR - 60_000 - Date.now();
    await drained();
    expect(subjects()).toHaveLength(1);
    ahead = start - 24 * HOUR + 60_000 - Date.now();
    await drained();
    await until(() => subjects().length === 2);
    await drained();
    expect(subjects()).toEqual([
      "You're registered: Bitcoin for High Earners",
      'Tomorrow: Bitcoin for High Earners',
    ]);
    ahead = start - HOUR + 60_000 - Date.now();
    await drained();
    await until(() => subjects().length === 3);
    await drained();
    await drained();
    expect(subjects()).toEqual([
      "You're registered: Bitcoin for High Earners",
      'Tomorrow: Bitcoin for High Earners',
      'Starting in an hour: Bitcoin for High Earners',
    ]);
    expect(mailsTo('remind@example.org')[2]!.text).toContain(JOIN_URL);
    const sent = await t.query<{ n: number }>(
      `select count(*)::int as n from outbox where to_address = 'remind@example.org' and kind like 'event.reminder%' and status = 'sent'`,
    );
    expect(sent).toEqual([{ n: 2 }]);
    ahead = 0;
  });

  it('moves the calendar entry on a time change (same UID, higher SEQUENCE) and queues the reminders anew', async () => {
    const id = await publishedEvent({ capacity: 5 }, 80);
    await register(id, 'moved@example.org');
    await drained();
    const first = icsOf(await until(() => mailsTo('moved@example.org')[0]));
    const detail = (await owner('GET', `/api/owner/events/${id}`)).json();
    const later = new Date(new Date(detail.startsAtIso).getTime() + 26 * HOUR);
    const res = await owner('POST', `/api/owner/events/${id}`, {
      body: {
        ...detail,
        startsAt: ukLocalInput(later),
        endsAt: ukLocalInput(new Date(later.getTime() + 2 * HOUR)),
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().notified).toBe(1);
    await drained();
    const update = await until(() =>
      mailsTo('moved@example.org').find((m) => m.header('subject')?.startsWith('Updated:')),
    );
    const moved = icsOf(update);
    expect(moved.method).toBe('REQUEST');
    expect(moved.uid).toBe(first.uid);
    expect(moved.sequence).toBeGreaterThan(first.sequence);
    expect(moved.event.startDate.toJSDate().getTime()).toBe(later.getTime() - (later.getTime() % 60_000));
    const reminders = await t.query<{ next_attempt_at: string }>(
      `select next_attempt_at from outbox where to_address = 'moved@example.org' and kind like 'event.reminder%' and status = 'pending' order by next_attempt_at`,
    );
    expect(reminders.map((r) => new Date(r.next_attempt_at).getTime())).toEqual([
      moved.event.startDate.toJSDate().getTime() - 24 * HOUR,
      moved.event.startDate.toJSDate().getTime() - HOUR,
    ]);
  });

  it('sends METHOD:CANCEL with the same UID to every attendee of a cancelled event, and tells the waitlist', async () => {
    const id = await publishedEvent({ capacity: 2 });
    for (const who of ['c1', 'c2', 'c3']) await register(id, `${who}@example.org`);
    await drained();
    const invites = await until(() => {
      const found = ['c1', 'c2'].map((w) =>
        mailsTo(`${w}@example.org`).find((m) => m.header('subject')?.startsWith("You're registered")),
      );
      return found.every(Boolean) ? (found as ReceivedMail[]) : undefined;
    });
    const res = await owner('POST', `/api/owner/events/${id}/cancel`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ notified: 3, event: { status: 'cancelled' } });
    await drained();
    for (const [i, who] of ['c1', 'c2'].entries()) {
      const cancel = await until(() =>
        mailsTo(`${who}@example.org`).find((m) => m.header('subject')?.startsWith('Cancelled:')),
      );
      const ics = icsOf(cancel);
      const invite = icsOf(invites[i]!);
      expect(ics.method).toBe('CANCEL');
      expect(ics.uid).toBe(invite.uid);
      expect(ics.sequence).toBeGreaterThan(invite.sequence);
    }
    const note = await until(() =>
      mailsTo('c3@example.org').find((m) => m.header('subject')?.startsWith('Cancelled:')),
    );
    expect(note.attachments).toHaveLength(0);
    expect(
      await t.query(
        `select id from outbox where status = 'pending' and kind like 'event.reminder%' and submission_id in (select submission_id from event_registrations where event_id = '${id}')`,
      ),
    ).toEqual([]);
    // The event's cancellation said it all: a cancel link pressed afterwards sends nothing more.
    const before = mailsTo('c1@example.org').length;
    const late = await apiCall(t.app, 'POST', '/api/events/registration/cancel', {
      body: { token: cancelTokenOf(invites[0]!) },
    });
    expect(late.statusCode).toBe(200);
    await drained();
    expect(mailsTo('c1@example.org')).toHaveLength(before);
    const refused = await register(id, 'after@example.org');
    expect(refused.statusCode).toBe(409);
    expect((await apiCall(t.app, 'GET', `/api/events/${id}/calendar.ics`)).statusCode).toBe(404);
  });

  it('never shows the joining link in a public answer', async () => {
    const id = await publishedEvent({ capacity: 3 }, 1.5);
    const next = await apiCall(t.app, 'GET', '/api/events/next');
    expect(next.statusCode).toBe(200);
    expect(next.headers['cache-control']).toBe('no-cache');
    const ics = await apiCall(t.app, 'GET', `/api/events/${id}/calendar.ics`);
    expect(ics.statusCode).toBe(200);
    expect(parseIcs(ics.body).method).toBe('PUBLISH');
    const registered = await register(id, 'public@example.org');
    const page = await t.app.inject({ method: 'GET', url: '/resources' });
    for (const body of [next.body, ics.body, registered.body, page.body])
      expect(body).not.toContain('secret-room-4242');
  });

  it('erases a person while their cancellation is under way: the cancellation ends first, and its e-mail goes with the rest', async () => {
    const id = await publishedEvent({ capacity: 1 });
    expect((await register(id, 'racer@example.org')).json().status).toBe('registered');
    expect((await register(id, 'next@example.org')).json().status).toBe('waitlisted');
    const [sub] = await t.query<{ id: string }>(
      `select submission_id as id from event_registrations where event_id = '${id}' order by seq limit 1`,
    );
    // On Postgres, a cancellation holds the event's lock while erasure starts, then queues its
    // e-mail to the person (as cancelByLink does) and commits.
    let blocker: pg.Client | undefined;
    if (databaseUrl) {
      blocker = new pg.Client({ connectionString: databaseUrl });
      await blocker.connect();
      await blocker.query('begin');
      await blocker.query('select id from events where id = $1 for update', [id]);
    }
    const erasing = owner('POST', '/api/owner/people/erase', { body: { email: 'racer@example.org' } });
    if (blocker) {
      // Once the erasure waits on the event's lock.
      await pollUntil(
        async () =>
          (
            await blocker.query(
              `select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
            )
          ).rowCount,
      );
      await blocker.query(`update event_registrations set status = 'cancelled' where submission_id = $1`, [
        sub!.id,
      ]);
      await blocker.query(
        `insert into outbox (kind, to_address, audience, submission_id, message)
         values ('event.withdrawn', 'racer@example.org', 'owner', $1, '{"subject":"x","content":{"preheader":"","heading":"","blocks":[]}}')`,
        [sub!.id],
      );
      await blocker.query('commit');
      await blocker.end();
    }
    const erased = await erasing;
    expect(erased.statusCode, erased.body).toBe(200);
    expect(
      await t.query(
        `select id from outbox where lower(to_address) = 'racer@example.org' or submission_id = '${sub!.id}'`,
      ),
    ).toEqual([]);
    expect(await t.query(`select id from submissions where id = '${sub!.id}'`)).toEqual([]);
  });

  it('exports the attendees with formulas neutralised, writes to them, and erases a registrant, whose place goes to the waitlist', async () => {
    const id = await publishedEvent({ capacity: 2 });
    await register(id, 'formula@example.org', { firstName: '=HYPERLINK("x")', company: '+44 Ltd' });
    await register(id, 'plain@example.org', { firstName: 'Plain Person' });
    await register(id, 'waiting@example.org', { firstName: 'Waiting' });
    const csv = await owner('GET', `/api/owner/exports/events/${id}/attendees.csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const rows = parseCsv(csv.body, { bom: true }) as string[][];
    expect(rows[0]).toEqual([
      'Status',
      'Name',
      'Email',
      'Role or company',
      'Registered at',
      'Promoted at',
      'Cancelled at',
    ]);
    expect(rows.slice(1).map((r) => [r[0], r[1], r[3]])).toEqual([
      ['registered', `'=HYPERLINK("x")`, `'+44 Ltd`],
      ['registered', 'Plain Person', 'Wealth Adviser'],
      ['waitlisted', 'Waiting', 'Wealth Adviser'],
    ]);

    const sent = await owner('POST', `/api/owner/events/${id}/message`, {
      body: { subject: 'Slides for tonight', message: 'The slides are attached to the joining page.' },
    });
    expect(sent.json()).toEqual({ ok: true, emails: 2 });
    await drained();
    await until(() => mailsTo('plain@example.org').find((m) => m.header('subject') === 'Slides for tonight'));
    expect(mailsTo('waiting@example.org').some((m) => m.header('subject') === 'Slides for tonight')).toBe(
      false,
    );

    const erased = await owner('POST', '/api/owner/people/erase', { body: { email: 'plain@example.org' } });
    expect(erased.statusCode).toBe(200);
    expect(
      await t.query(
        `select r.id from event_registrations r join submissions s on s.id = r.submission_id where s.email_key = 'plain@example.org'`,
      ),
    ).toEqual([]);
    // The place the erased person held goes to the first on the waitlist, who is told.
    expect(erased.json().counts).toMatchObject({ registrations: 1, promoted: 1 });
    const after = (await owner('GET', `/api/owner/events/${id}`)).json();
    expect(after.attendees.map((a: { email: string }) => a.email)).toEqual([
      'formula@example.org',
      'waiting@example.org',
    ]);
    expect(after.waitlist).toEqual([]);
    await drained();
    const told = await until(() =>
      mailsTo('waiting@example.org').find((m) => m.header('subject')?.startsWith('A place is yours')),
    );
    expect(told.text).toContain(JOIN_URL);
    const audit = (await owner('GET', '/api/owner/audit'))
      .json()
      .items.map((e: { action: string }) => e.action);
    expect(audit).toEqual(
      expect.arrayContaining(['event.create', 'event.publish', 'event.message', 'export.attendees']),
    );
  });
});
