/**
 * The owner's diary, a calendar subscription, on PostgreSQL with a real SMTP peer:
 * the console makes its secret address (the same one every time it is shown) and replaces it
 * (the old one then answers 404, and both are audited); the feed, read by a real iCalendar
 * parser, holds a confirmed session and a published masterclass with the UID and SEQUENCE of the
 * invitations e-mailed about them, and a cancelled session turns STATUS:CANCELLED with the
 * cancellation's SEQUENCE instead of vanishing; an unchanged feed is a 304; any other key, a
 * tampered one or none is a 404; a client asking too often gets 429. A session's time that
 * overlaps a confirmed session or a published masterclass is refused with the clash named, on
 * confirming, moving and the owner's e-mailed link, and the owner may insist (audited).
 */
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signLink } from '../../src/features/booking/booking-links.server';
import { ukLocalInput } from '../../src/features/events/event-times';
import { DIARY_GUESS_LIMIT, DIARY_RATE_LIMIT } from '../../src/server/console/diary';
import {
  bodies,
  bookableDate,
  makeFormsApp,
  startSmtpPeer,
  testDrivers,
  until,
  type FormsTestApp,
  type ReceivedMail,
  type SmtpPeer,
} from './forms-support';
import { apiCall, asOwner, signInOwner, type OwnerCall } from './owner-session';

const HOUR = 3600_000;

type Entry = { uid: string; sequence: number; status: string; summary: string; start: string };

/** Every VEVENT of a calendar, read by ical.js. */
function entriesOf(ics: string): Entry[] {
  const cal = new ICAL.Component(ICAL.parse(ics));
  for (const tz of cal.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(tz);
  return cal.getAllSubcomponents('vevent').map((vevent) => {
    const event = new ICAL.Event(vevent);
    return {
      uid: event.uid,
      sequence: event.sequence,
      status: String(vevent.getFirstPropertyValue('status')),
      summary: event.summary,
      start: event.startDate.toJSDate().toISOString(),
    };
  });
}

/** The calendar file attached to an e-mail, as the entries it holds. */
function invitationOf(mail: ReceivedMail): Entry {
  const file = mail.attachments.find((a) => a.contentType.startsWith('text/calendar'));
  if (!file) throw new Error(`no calendar file in "${mail.header('subject')}"`);
  return entriesOf(file.content)[0]!;
}

/** A masterclass four days ahead, online, as the console's form sends it. */
function eventBody(title: string) {
  const start = new Date(Date.now() + 96 * HOUR);
  return {
    title,
    summary: 'Allocation sizing, UK tax and custody, then questions.',
    startsAt: ukLocalInput(start),
    endsAt: ukLocalInput(new Date(start.getTime() + 1.5 * HOUR)),
    mode: 'online',
    place: '',
    joinUrl: 'https://meet.example.net/j/diary',
    capacity: 10,
    registrationOpensAt: '',
    registrationClosesAt: '',
  };
}

const drivers = await testDrivers('diary');

describe.each(drivers)('the owner’s diary on $name', (driver) => {
  let t: FormsTestApp;
  let smtp: SmtpPeer;
  let drop: () => Promise<void>;
  let owner: OwnerCall;

  beforeAll(async () => {
    smtp = await startSmtpPeer();
    const db = await driver.env();
    drop = db.drop;
    t = await makeFormsApp({ SMTP_URL: smtp.url, ...db.env });
    owner = asOwner(t.app, await signInOwner(t.app));
  });
  afterAll(async () => {
    await t?.app.close();
    await smtp?.close();
    await drop?.();
  });

  /** The feed at `address` (the console's https address), asked from `remoteAddress`. */
  const feed = (address: string, headers: Record<string, string> = {}, remoteAddress?: string) => {
    const url = new URL(address);
    return apiCall(t.app, 'GET', `${url.pathname}${url.search}`, { headers, remoteAddress });
  };

  async function drained() {
    t.app.services.outbox.wake();
    await t.app.services.outbox.drain();
  }

  const mailTo = (to: string, subject: RegExp) =>
    until(() => smtp.mails.find((m) => m.envelopeTo.includes(to) && subject.test(m.header('subject') ?? '')));

  it('has no address until the owner makes one, then shows the same address every time', async () => {
    expect((await owner('GET', '/api/owner/diary')).json()).toEqual({ address: null });
    const made = await owner('POST', '/api/owner/diary/address');
    expect(made.statusCode, made.body).toBe(200);
    const { address } = made.json();
    expect(address.https).toMatch(
      /^https:\/\/www\.sterling\.test\/calendar\/diary\.ics\?key=[\w-]+\.[\w-]+\.[\w-]+$/,
    );
    expect(address.webcal).toBe(address.https.replace(/^https:/, 'webcal:'));
    expect((await owner('GET', '/api/owner/diary')).json().address).toEqual(address);
    const audit = await t.query<{ action: string }>(
      `select action from audit_log where action like 'diary.%'`,
    );
    expect(audit.map((a) => a.action)).toEqual(['diary.create']);
  });

  it('holds a confirmed session and a published masterclass with their invitations’ UID and SEQUENCE', async () => {
    const { address } = (await owner('GET', '/api/owner/diary')).json();
    const email = `diary-${driver.name.toLowerCase()}@example.org`;
    expect((await t.post(bodies.booking(bookableDate(3), { email }))).statusCode).toBe(200);
    const [booking] = (await owner('GET', '/api/owner/bookings')).json().items as { id: string }[];
    const confirmed = await owner('POST', `/api/owner/bookings/${booking!.id}/confirm`, {
      body: { choice: 1, start: '09:30' },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);

    const created = await owner('POST', '/api/owner/events', { body: eventBody('Bitcoin for High Earners') });
    const eventId = created.json().id as string;
    expect((await owner('POST', `/api/owner/events/${eventId}/publish`)).statusCode).toBe(200);
    expect(
      (await owner('POST', '/api/owner/events', { body: eventBody('A draft nobody sees') })).statusCode,
    ).toBe(200);

    await drained();
    const invitation = invitationOf(await mailTo(email, /is confirmed/));
    const publicFile = await apiCall(t.app, 'GET', `/api/events/${eventId}/calendar.ics`);

    const res = await feed(address.https);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.headers['cache-control']).toBe('private, max-age=300');
    expect(res.headers['x-robots-tag']).toBe('noindex');
    const entries = entriesOf(res.body);
    const session = entries.find((e) => e.uid === invitation.uid);
    expect(session).toMatchObject({
      sequence: invitation.sequence,
      status: 'CONFIRMED',
      start: invitation.start,
    });
    expect(session!.summary).toContain('Mary Somerville');
    const masterclass = entriesOf(publicFile.body)[0]!;
    expect(entries.find((e) => e.uid === masterclass.uid)).toMatchObject({
      sequence: masterclass.sequence,
      status: 'CONFIRMED',
      summary: 'Masterclass: Bitcoin for High Earners',
    });
    expect(res.body).not.toContain('A draft nobody sees');
    // The joining link is the attendees' alone, even in the owner's diary.
    expect(res.body).not.toContain('meet.example.net');

    // The owner cancels: the entry stays, cancelled, with the cancellation's SEQUENCE.
    expect((await owner('POST', `/api/owner/bookings/${booking!.id}/cancel`)).statusCode).toBe(200);
    await drained();
    const cancellation = invitationOf(await mailTo(email, /is cancelled/));
    const after = entriesOf((await feed(address.https)).body).find((e) => e.uid === invitation.uid);
    expect(after).toMatchObject({ status: 'CANCELLED', sequence: cancellation.sequence });
    expect(cancellation.sequence).toBeGreaterThan(invitation.sequence);
  });

  it('answers an unchanged feed with 304, and a changed one with a new body', async () => {
    const { address } = (await owner('GET', '/api/owner/diary')).json();
    const first = await feed(address.https);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await feed(address.https, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    await t.post(bodies.booking(bookableDate(5), { email: 'second@example.org', firstName: 'Emmy' }));
    const [booking] = (await owner('GET', '/api/owner/bookings')).json().items as { id: string }[];
    await owner('POST', `/api/owner/bookings/${booking!.id}/confirm`, {
      body: { choice: 1, start: '10:00' },
    });
    const changed = await feed(address.https, { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.body).toContain('Emmy');
  });

  it('refuses any key but the current one with 404: none, tampered, another purpose’s, a replaced one', async () => {
    const { address } = (await owner('GET', '/api/owner/diary')).json();
    const url = new URL(address.https);
    const key = url.searchParams.get('key')!;
    const tampered = `${key.slice(0, -5)}${key.slice(-5) === 'AAAAA' ? 'BBBBB' : 'AAAAA'}`;
    const otherPurpose = await t.app.services.links.tokens.sign('unsubscribe', 'x');
    for (const query of [
      '',
      '?key=',
      `?key=${tampered}`,
      `?key=${otherPurpose}`,
      `?key=${'a'.repeat(5000)}`,
    ]) {
      const res = await apiCall(t.app, 'GET', `${url.pathname}${query}`);
      expect(res.statusCode, query.slice(0, 40)).toBe(404);
      expect(res.body).not.toContain('BEGIN:VCALENDAR');
    }

    const replaced = await owner('POST', '/api/owner/diary/address');
    const next = replaced.json().address;
    expect(next.https).not.toBe(address.https);
    expect((await feed(address.https)).statusCode).toBe(404);
    expect((await feed(next.https)).statusCode).toBe(200);
    const audit = await t.query<{ action: string }>(
      `select action from audit_log where action like 'diary.%' order by id`,
    );
    expect(audit.map((a) => a.action)).toEqual(['diary.create', 'diary.replace']);
  });

  it('limits wrong keys per client, apart from the valid key, which guesses never lock out', async () => {
    const { address } = (await owner('GET', '/api/owner/diary')).json();
    const client = '203.0.113.77';
    for (let i = 0; i < DIARY_GUESS_LIMIT.max; i += 1) {
      const guess = await feed(
        i % 2 ? `${address.https}x` : `${address.https.split('?')[0]}?key=guess${i}`,
        {},
        client,
      );
      expect(guess.statusCode).toBe(404);
    }
    const refused = await feed(`${address.https}x`, {}, client);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // The owner's calendar, from the same address, is still served.
    expect((await feed(address.https, {}, client)).statusCode).toBe(200);
    // Another client's guesses are its own.
    expect((await feed(`${address.https}x`, {}, '203.0.113.78')).statusCode).toBe(404);
  });

  it('limits how often the valid key is asked for, from any client', async () => {
    const { address } = (await owner('GET', '/api/owner/diary')).json();
    // Some were served by the tests above: the key's count goes on from there, whichever client asks.
    let served = 0;
    let refused = 0;
    for (let i = 0; i <= DIARY_RATE_LIMIT.max && refused === 0; i += 1) {
      const res = await feed(address.https, {}, `198.51.100.${(i % 200) + 1}`);
      if (res.statusCode === 429) refused += 1;
      else {
        expect(res.statusCode).toBe(200);
        served += 1;
      }
    }
    expect(refused).toBe(1);
    expect(served).toBeLessThan(DIARY_RATE_LIMIT.max);
  });
});

describe.each(drivers)('a session’s time against the owner’s diary on $name', (driver) => {
  let t: FormsTestApp;
  let drop: () => Promise<void>;
  let owner: OwnerCall;

  beforeAll(async () => {
    const db = await driver.env();
    drop = db.drop;
    t = await makeFormsApp(db.env);
    owner = asOwner(t.app, await signInOwner(t.app));
  });
  afterAll(async () => {
    await t?.app.close();
    await drop?.();
  });

  let people = 0;
  /**
   * A booking request for the morning (or afternoon) of `date`: its id and reference. The visitor's
   * form no longer lets two requests ask for one half-day (the first holds it), so the request asks
   * for a free working day of its own and is then moved to `date` in the table: a request as one
   * released from spam, or made before that day filled up, stands.
   */
  async function requested(date: string, time = 'morning'): Promise<{ id: string; reference: string }> {
    people += 1;
    const answer = await t.post(
      bodies.booking(bookableDate(100 + people), {
        email: `clash${people}-${driver.name.toLowerCase()}@example.org`,
        firstChoiceTime: time,
      }),
    );
    expect(answer.statusCode, answer.body).toBe(200);
    const { reference } = answer.json() as { reference: string };
    await t.query(`update bookings set first_choice_date = '${date}' where reference = '${reference}'`);
    const list = (await owner('GET', '/api/owner/bookings')).json().items as {
      id: string;
      reference: string;
    }[];
    return list.find((b) => b.reference === reference)!;
  }

  const confirm = (id: string, start: string, insist?: boolean) =>
    owner('POST', `/api/owner/bookings/${id}/confirm`, {
      body: { choice: 1, start, ...(insist === undefined ? {} : { insist }) },
    });

  const auditOf = (reference: string) =>
    t.query<{ action: string; detail: Record<string, unknown> | null }>(
      `select action, detail from audit_log where target = '${reference}' order by id`,
    );

  it('refuses to confirm a time that overlaps a confirmed session, naming it; the owner may insist, audited', async () => {
    const day = bookableDate(20);
    const first = await requested(day);
    expect((await confirm(first.id, '10:00')).statusCode).toBe(200);
    const second = await requested(day);

    const refused = await confirm(second.id, '10:30');
    expect(refused.statusCode).toBe(409);
    const body = refused.json();
    expect(body.error).toMatch(
      new RegExp(`^This time clashes with booking ${first.reference}, .+, 10am-10:45am UK time\\.`),
    );
    expect(body.fieldErrors.start).toBe(body.error);
    const still = (await owner('GET', '/api/owner/bookings')).json().items as { id: string }[];
    expect(still.some((b) => b.id === second.id)).toBe(true);

    // Back to back is no clash: 10:45 starts as the first ends.
    const third = await requested(day);
    expect((await confirm(third.id, '10:45')).statusCode).toBe(200);

    const insisted = await confirm(second.id, '10:30', true);
    expect(insisted.statusCode, insisted.body).toBe(200);
    expect(await auditOf(second.reference)).toEqual([
      { action: 'booking.confirm', detail: { clash: `booking ${first.reference}` } },
    ]);
    expect(await auditOf(third.reference)).toEqual([{ action: 'booking.confirm', detail: null }]);
    const words = (await owner('GET', '/api/owner/audit')).json().items as {
      sentence?: string;
      what?: string;
    }[];
    expect(JSON.stringify(words)).toContain(
      `confirmed booking ${second.reference}, despite a clash with booking ${first.reference}`,
    );
  });

  it('refuses to move a session onto a published masterclass, and not onto a cancelled session', async () => {
    const day = bookableDate(24);
    const created = await owner('POST', '/api/owner/events', {
      body: { ...eventBody('Custody in practice'), startsAt: `${day}T14:00`, endsAt: `${day}T15:30` },
    });
    expect(created.statusCode, created.body).toBe(200);
    const eventId = created.json().id as string;
    expect((await owner('POST', `/api/owner/events/${eventId}/publish`)).statusCode).toBe(200);

    const session = await requested(bookableDate(23));
    expect((await confirm(session.id, '09:00')).statusCode).toBe(200);
    const move = (start: string, insist?: boolean) =>
      owner('POST', `/api/owner/bookings/${session.id}/reschedule`, {
        body: { date: day, start, ...(insist === undefined ? {} : { insist }) },
      });
    const refused = await move('15:00');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toContain('This time clashes with the masterclass “Custody in practice”');
    expect(refused.json().error).toContain(
      '2pm-3:30pm UK time. Choose another start time, or move it anyway.',
    );
    expect((await move('15:30')).statusCode).toBe(200);

    // A cancelled session leaves its time free.
    const other = await requested(day, 'afternoon');
    expect((await confirm(other.id, '15:30')).statusCode).toBe(409);
    expect((await owner('POST', `/api/owner/bookings/${session.id}/cancel`)).statusCode).toBe(200);
    expect((await confirm(other.id, '15:30')).statusCode).toBe(200);
    // The masterclass still holds its time, unless the owner insists.
    const last = await requested(day, 'afternoon');
    expect((await confirm(last.id, '14:15')).statusCode).toBe(409);
    expect((await confirm(last.id, '14:15', true)).statusCode).toBe(200);
    expect(await auditOf(last.reference)).toEqual([
      { action: 'booking.confirm', detail: { clash: 'the masterclass “Custody in practice”' } },
    ]);
  });

  it('confirms one of two overlapping times asked at once, and refuses the other', async () => {
    const day = bookableDate(30);
    const a = await requested(day);
    const b = await requested(day);
    const answers = await Promise.all([confirm(a.id, '11:00'), confirm(b.id, '11:15')]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
  });

  it('refuses the owner’s e-mailed link for a clashing time, pointing to the console, and leaves the link unused', async () => {
    const day = bookableDate(33);
    const first = await requested(day);
    expect((await confirm(first.id, '09:30')).statusCode).toBe(200);
    const second = await requested(day);
    const { token } = await signLink(t.app.services.links.tokens, {
      bookingId: second.id,
      action: 'confirm-first',
      expiresAt: new Date(Date.now() + 86_400_000),
    });
    const act = (start: string) =>
      apiCall(t.app, 'POST', '/api/bookings/link/act', { body: { token, start } });
    const refused = await act('09:45');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatch(
      /clashes with booking .+ confirm it anyway from the Bookings page of the console\.$/,
    );
    // Refused before it was used: the same link still confirms another time.
    expect((await act('10:15')).statusCode).toBe(200);
  });
});
