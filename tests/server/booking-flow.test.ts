/**
 * The booking end to end on the server, over a real PostgreSQL (a database of its
 * own per run) with a real SMTP peer: one request stores the booking once and sends exactly two
 * e-mails; a retry with the same key changes nothing; the owner's signed links confirm (with a
 * real .ics in Europe/London time) or decline; forged, expired and reused links are refused; the
 * applicant's cancel link sends METHOD:CANCEL for the same UID.
 */
import { createHmac, randomBytes } from 'node:crypto';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { earliestBookableDate, latestBookableDate } from '../../src/features/booking/booking-dates';
import { signLink, type LinkAction } from '../../src/features/booking/booking-links.server';
import { createSignedTokens } from '../../src/server/kit/http/signed-tokens';
import { REFERENCE_PATTERN } from '../../src/features/booking/booking-reference';
import {
  OWNER,
  SECRET,
  makeFormsApp,
  readyTokens,
  startSmtpPeer,
  testDrivers,
  type FormsTestApp,
  type ReceivedMail,
  type SmtpPeer,
  workingDay,
} from './forms-support';

/** The first of the given month-days that is bookable today (tomorrow .. a year ahead). */
function nextBookable(monthDay: string): string {
  const now = new Date();
  const earliest = earliestBookableDate(now);
  const latest = latestBookableDate(now);
  const year = Number(earliest.slice(0, 4));
  for (const y of [year, year + 1]) {
    const candidate = `${y}-${monthDay}`;
    if (candidate >= earliest && candidate <= latest) return candidate;
  }
  throw new Error(`no bookable ${monthDay}`);
}

// Each applicant asks for a half-day of their own (a request holds its first choice): the n-th
// working day of July (British Summer Time, UTC+1) and from 5 January (GMT, UTC+0).
const SUMMER = nextBookable('07-01');
const WINTER = nextBookable('01-05');

let applicantCounter = 0;
function bookingBody(over: Record<string, unknown> = {}) {
  applicantCounter += 1;
  return {
    formType: 'booking',
    sessionType: 'inPerson',
    firstChoiceDate: workingDay(SUMMER, applicantCounter),
    firstChoiceTime: 'morning',
    secondChoiceDate: workingDay(WINTER, applicantCounter),
    secondChoiceTime: 'afternoon',
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: `ada.${applicantCounter}.${Date.now()}@example.org`,
    phone: '+44 7700 900123',
    company: 'Analytical Engines Ltd',
    role: 'Partner',
    notes: 'Step-free access, please. <b>Not bold</b>',
    website: '',
    formToken: readyTokens.booking,
    ...over,
  };
}

function linkFrom(mail: ReceivedMail, label: string): string {
  const match = new RegExp(`${label}: (https://\\S+)`).exec(mail.text);
  if (!match?.[1]) throw new Error(`no "${label}" link in ${mail.header('subject')}`);
  return match[1];
}

/** A link as booking e-mails carried them before they were signed tokens (`<JSON>.<HMAC>`). */
function signOldFormatLink(link: { bookingId: string; action: LinkAction; expiresAt: Date }): string {
  const payload = {
    b: link.bookingId,
    a: link.action,
    e: Math.floor(link.expiresAt.getTime() / 1000),
    j: randomBytes(12).toString('base64url'),
  };
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  const key = createHmac('sha256', SECRET).update('booking-links/v1').digest();
  return `${body}.${createHmac('sha256', key).update(body).digest('base64url')}`;
}

function tokenOf(url: string): string {
  return new URL(url).searchParams.get('token') ?? '';
}

function parseIcs(ics: string) {
  const cal = new ICAL.Component(ICAL.parse(ics));
  for (const tz of cal.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(tz);
  const vevent = cal.getFirstSubcomponent('vevent');
  if (!vevent) throw new Error('no VEVENT');
  return { method: cal.getFirstPropertyValue('method'), vevent, event: new ICAL.Event(vevent) };
}

const drivers = await testDrivers('booking');

describe.each(drivers)('booking on $name with a real SMTP peer', (driver) => {
  let t: FormsTestApp;
  let smtp: SmtpPeer;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    smtp = await startSmtpPeer();
    const db = await driver.env();
    drop = db.drop;
    t = await makeFormsApp({ SMTP_URL: smtp.url, ...db.env });
  });

  afterAll(async () => {
    await t?.app.close();
    await smtp?.close();
    await drop?.();
  });

  /** Waits until at least `count` e-mails match. */
  async function mailsWhere(
    match: (m: ReceivedMail) => boolean,
    count: number,
    what: string,
  ): Promise<ReceivedMail[]> {
    const until = Date.now() + 15_000;
    for (;;) {
      const found = smtp.mails.filter(match);
      if (found.length >= count) return found;
      if (Date.now() > until) throw new Error(`expected ${count} e-mails ${what}, got ${found.length}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  const mailsTo = (address: string, count: number) =>
    mailsWhere((m) => m.envelopeTo.includes(address), count, `to ${address}`);
  const ownerMailAbout = async (reference: string, subjectStart: string) =>
    (
      await mailsWhere(
        (m) =>
          m.envelopeTo.includes(OWNER) &&
          (m.header('subject') ?? '').startsWith(subjectStart) &&
          m.raw.includes(reference),
        1,
        `to the owner about ${reference}`,
      )
    )[0]!;

  const inspect = (token: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/bookings/link',
      headers: { 'content-type': 'application/json' },
      payload: { token },
    });
  const act = (token: string, start?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/bookings/link/act',
      headers: { 'content-type': 'application/json' },
      payload: { token, start },
    });

  async function book(over: Record<string, unknown> = {}) {
    const body = bookingBody(over);
    const key = `key-${Math.random().toString(36).slice(2)}-${Date.now()}`;
    const res = await t.post(body, { 'idempotency-key': key });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json() as { id: string; reference: string };
    const [applicantMail] = await mailsTo(body.email, 1);
    const ownerMail = await ownerMailAbout(answer.reference, 'New strategy session booking');
    if (!applicantMail) throw new Error('no e-mail to the applicant');
    const [row] = await t.query<{ id: string }>(
      `select id from bookings where submission_id = '${answer.id}'`,
    );
    return { body, key, answer, applicantMail, ownerMail, bookingId: row!.id };
  }

  it('stores the booking once with its reference and sends exactly two e-mails to the right recipients', async () => {
    const ownerBefore = smtp.mails.filter((m) => m.envelopeTo.includes(OWNER)).length;
    const { body, answer, applicantMail, ownerMail } = await book({
      bcc: 'intruder@example.net',
      to: 'intruder@example.net',
    });
    expect(answer.reference).toMatch(REFERENCE_PATTERN);

    const rows = await t.query<Record<string, unknown>>(
      `select b.reference, b.status, b.session_type, to_char(b.first_choice_date, 'YYYY-MM-DD') as first_date, b.first_choice_time,
              s.form_type, s.fields->>'email' as email
         from bookings b join submissions s on s.id = b.submission_id where s.id = '${answer.id}'`,
    );
    expect(rows).toEqual([
      {
        reference: answer.reference,
        status: 'requested',
        session_type: 'inPerson',
        first_date: body.firstChoiceDate,
        first_choice_time: 'morning',
        form_type: 'booking',
        email: body.email,
      },
    ]);
    const events = await t.query(
      `select e.status, e.actor from booking_status_events e join bookings b on b.id = e.booking_id where b.submission_id = '${answer.id}'`,
    );
    expect(events).toEqual([{ status: 'requested', actor: 'applicant' }]);

    await t.app.services.outbox.drain();
    const all = smtp.mails.filter((m) => m.raw.includes(answer.reference));
    expect(all).toHaveLength(2);
    expect(smtp.mails.filter((m) => m.envelopeTo.includes(OWNER)).length).toBe(ownerBefore + 1);
    expect(smtp.mails.some((m) => m.envelopeTo.includes('intruder@example.net'))).toBe(false);

    // The applicant's: reference, both choices in UK words, next steps, terms, cancel link.
    expect(applicantMail.envelopeTo).toEqual([body.email]);
    expect(applicantMail.header('subject')).toBe(`Your strategy session request ${answer.reference}`);
    expect(applicantMail.header('reply-to')).toBe(OWNER);
    const d = new Date(`${body.firstChoiceDate}T12:00:00Z`);
    const weekday = d.toLocaleDateString('en-GB', { weekday: 'long', timeZone: 'UTC' });
    const month = d.toLocaleDateString('en-GB', { month: 'long', timeZone: 'UTC' });
    expect(applicantMail.text).toContain(
      `${weekday} ${d.getUTCDate()} ${month} ${d.getUTCFullYear()}, morning 9am-12pm UK time`,
    );
    expect(applicantMail.text).toContain('afternoon 1pm-5pm UK time');
    expect(applicantMail.text).toContain('In-Person Workshop (London)');
    expect(applicantMail.text).toContain("We'll contact you within 24 hours to confirm the details.");
    expect(applicantMail.text).toContain('48 hours');
    expect(applicantMail.text).toMatch(
      /Cancel this booking: https:\/\/www\.sterling\.test\/booking\/cancel\?token=/,
    );

    // The owner's: every field, Reply-To the applicant, escaped HTML, the three links.
    expect(ownerMail.envelopeTo).toEqual([OWNER]);
    expect(ownerMail.header('reply-to')).toBe(body.email);
    for (const value of [
      'Ada Lovelace',
      body.email,
      '+44 7700 900123',
      'Analytical Engines Ltd',
      'Partner',
      'Step-free access',
    ]) {
      expect(ownerMail.text).toContain(value);
    }
    expect(ownerMail.html).toContain('&lt;b&gt;Not bold&lt;/b&gt;');
    expect(ownerMail.html).not.toContain('<b>Not bold</b>');
    for (const label of ['Confirm first choice', 'Confirm second choice', 'Decline']) {
      expect(linkFrom(ownerMail, label)).toMatch(/^https:\/\/www\.sterling\.test\/booking\/respond\?token=/);
    }
  });

  it('answers a retry with the same key with the same booking, storing and sending nothing new', async () => {
    const { body, key, answer } = await book();
    const count = async () =>
      (
        await t.query<{ n: number }>(
          `select (select count(*) from bookings)::int + (select count(*) from outbox)::int as n`,
        )
      )[0]!.n;
    const before = await count();
    const again = await t.post(body, { 'idempotency-key': key });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ id: answer.id, reference: answer.reference });
    expect(await count()).toBe(before);
    await t.app.services.outbox.drain();
    expect(smtp.mails.filter((m) => m.raw.includes(answer.reference))).toHaveLength(2);
  });

  it('refuses an invalid booking with the spec messages and stores nothing', async () => {
    const before = (await t.query<{ n: number }>('select count(*)::int as n from bookings'))[0]!.n;
    const res = await t.post(bookingBody({ firstName: 'A', phone: '12', firstChoiceDate: '2001-01-01' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().fieldErrors).toMatchObject({
      firstName: 'First name should be at least 2 characters',
      phone: 'Phone number must be at least 10 digits',
      firstChoiceDate: 'Please choose a date from tomorrow onwards',
    });
    expect((await t.query<{ n: number }>('select count(*)::int as n from bookings'))[0]!.n).toBe(before);
  });

  it('confirms the first choice from the owner link: the invite is in BST, and the link works once', async () => {
    const { body, answer, ownerMail, bookingId } = await book();
    const token = tokenOf(linkFrom(ownerMail, 'Confirm first choice'));

    const view = await inspect(token);
    expect(view.statusCode).toBe(200);
    expect(view.json()).toMatchObject({
      action: 'confirm-first',
      reference: answer.reference,
      status: 'requested',
      applicantName: 'Ada Lovelace',
    });
    expect(view.json().choice.startTimes.map((s: { value: string }) => s.value)).toEqual([
      '09:00',
      '09:15',
      '09:30',
      '09:45',
      '10:00',
      '10:15',
      '10:30',
      '10:45',
      '11:00',
      '11:15',
    ]);

    expect((await act(token, '11:30')).statusCode).toBe(400); // would end after noon
    const done = await act(token, '09:30');
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().status).toBe('confirmed');

    const [, invite] = await mailsTo(body.email, 2);
    expect(invite!.header('subject')).toBe('Your strategy session is confirmed');
    expect(invite!.text).toContain(answer.reference);
    const ics = invite!.attachments.find((a) => a.filename === 'invite.ics');
    expect(ics?.contentType).toBe('text/calendar');
    const { method, event, vevent } = parseIcs(ics!.content);
    expect(method).toBe('REQUEST');
    expect(vevent.getFirstProperty('dtstart')?.getParameter('tzid')).toBe('Europe/London');
    expect(event.startDate.toString()).toBe(`${body.firstChoiceDate}T09:30:00`);
    // 09:30 in summer is 08:30 UTC.
    expect(event.startDate.toJSDate().toISOString()).toBe(`${body.firstChoiceDate}T08:30:00.000Z`);
    expect(event.endDate.toJSDate().toISOString()).toBe(`${body.firstChoiceDate}T09:15:00.000Z`);
    expect(event.uid).toBe(`booking-${bookingId}@www.sterling.test`);
    expect(event.summary).toContain('In-Person Workshop (London)');

    const google = /Add to Google Calendar: (\S+)/.exec(invite!.text)?.[1] ?? '';
    expect(new URL(google).searchParams.get('dates')).toBe(
      `${body.firstChoiceDate.replace(/-/g, '')}T083000Z/${body.firstChoiceDate.replace(/-/g, '')}T091500Z`,
    );
    expect(invite!.text).toMatch(/Add to Outlook: https:\/\/outlook\.live\.com\//);

    // The same link again, and the other owner links, are refused.
    const reused = await act(token, '09:30');
    expect(reused.statusCode).toBe(409);
    expect(reused.json()).toMatchObject({ reason: 'used', error: 'This link has already been used.' });
    expect((await inspect(token)).json().reason).toBe('used');
    const second = await act(tokenOf(linkFrom(ownerMail, 'Confirm second choice')), '13:00');
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({ reason: 'closed', error: 'This booking is already confirmed.' });

    const history = await t.query<{ status: string; actor: string; at: Date | string }>(
      `select status, actor, at from booking_status_events where booking_id = '${bookingId}' order by at, id`,
    );
    expect(history.map((h) => [h.status, h.actor])).toEqual([
      ['requested', 'applicant'],
      ['confirmed', 'owner'],
    ]);
    expect(history.every((h) => !Number.isNaN(new Date(h.at).getTime()))).toBe(true);
  });

  it('confirms the second choice in winter: the invite is in GMT', async () => {
    const { body, ownerMail } = await book();
    const token = tokenOf(linkFrom(ownerMail, 'Confirm second choice'));
    expect((await act(token, '16:15')).statusCode).toBe(200);
    const [, invite] = await mailsTo(body.email, 2);
    const { event } = parseIcs(invite!.attachments.find((a) => a.filename === 'invite.ics')!.content);
    expect(event.startDate.toJSDate().toISOString()).toBe(`${body.secondChoiceDate}T16:15:00.000Z`);
    expect(event.endDate.toJSDate().toISOString()).toBe(`${body.secondChoiceDate}T17:00:00.000Z`);
  });

  it('refuses forged, tampered and expired links without changing anything', async () => {
    const { ownerMail, bookingId } = await book();
    const good = tokenOf(linkFrom(ownerMail, 'Confirm first choice'));
    const [header, payload, signature] = good.split('.') as [string, string, string];
    const flipped = `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const otherAction = Buffer.from(JSON.stringify({ ...decoded, a: 'decline' })).toString('base64url');
    const forgedElsewhere = (
      await signLink(createSignedTokens('another-secret-another-secret-0123456789'), {
        bookingId,
        action: 'confirm-first',
        expiresAt: new Date(Date.now() + 86_400_000),
      })
    ).token;

    for (const token of [
      `${header}.${payload}.${flipped}`,
      `${header}.${otherAction}.${signature}`,
      forgedElsewhere,
      'nonsense',
      '',
    ]) {
      const res = await act(token, '09:00');
      expect(res.statusCode, token).toBe(403);
      expect(res.json()).toMatchObject({ reason: 'invalid' });
      expect((await inspect(token)).statusCode).toBe(403);
    }

    const expired = (
      await signLink(t.app.services.links.tokens, {
        bookingId,
        action: 'confirm-first',
        expiresAt: new Date(Date.now() - 1000),
      })
    ).token;
    const res = await act(expired, '09:00');
    expect(res.statusCode).toBe(410);
    expect(res.json()).toMatchObject({ reason: 'expired', error: expect.stringContaining('expired') });

    const [row] = await t.query<{ status: string }>(`select status from bookings where id = '${bookingId}'`);
    expect(row?.status).toBe('requested');
    // The genuine link still works after all that (a time clear of the sessions confirmed above).
    expect((await act(good, '10:15')).statusCode).toBe(200);
  });

  it('still honours a link of the format sent before, once, until it expires', async () => {
    const { bookingId } = await book();
    const expired = signOldFormatLink({
      bookingId,
      action: 'decline',
      expiresAt: new Date(Date.now() - 1000),
    });
    expect((await act(expired)).json()).toMatchObject({ reason: 'expired' });
    const old = signOldFormatLink({
      bookingId,
      action: 'decline',
      expiresAt: new Date(Date.now() + 86_400_000),
    });
    expect((await inspect(old)).json()).toMatchObject({ action: 'decline', status: 'requested' });
    const res = await act(old);
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('declined');
    expect((await inspect(old)).json().reason).toBe('used');
  });

  it('declines from the owner link and tells the applicant', async () => {
    const { body, answer, ownerMail, bookingId } = await book();
    const res = await act(tokenOf(linkFrom(ownerMail, 'Decline')));
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('declined');
    const [, declined] = await mailsTo(body.email, 2);
    expect(declined!.header('subject')).toBe(`About your strategy session request ${answer.reference}`);
    const [row] = await t.query<{ status: string }>(`select status from bookings where id = '${bookingId}'`);
    expect(row?.status).toBe('declined');
  });

  it('cancels a confirmed session from the applicant link: METHOD:CANCEL with the same UID, and the owner is told', async () => {
    const { body, answer, ownerMail, bookingId } = await book();
    await act(tokenOf(linkFrom(ownerMail, 'Confirm first choice')), '11:00');
    const [, invite] = await mailsTo(body.email, 2);
    const request = parseIcs(invite!.attachments.find((a) => a.filename === 'invite.ics')!.content);

    const cancelToken = tokenOf(linkFrom(invite!, 'Cancel this booking'));
    const view = await inspect(cancelToken);
    expect(view.json()).toMatchObject({ action: 'cancel', status: 'confirmed', reference: answer.reference });
    expect(view.json().applicantName).toBeUndefined();
    expect(view.json().session).toContain('11am-11:45am UK time');

    const res = await act(cancelToken);
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('cancelled');

    const [, , cancelled] = await mailsTo(body.email, 3);
    expect(cancelled!.header('subject')).toBe(`Your strategy session ${answer.reference} is cancelled`);
    const cancel = parseIcs(cancelled!.attachments.find((a) => a.filename === 'cancellation.ics')!.content);
    expect(cancel.method).toBe('CANCEL');
    expect(cancel.event.uid).toBe(request.event.uid);
    expect(cancel.event.sequence).toBeGreaterThan(request.event.sequence);
    expect(cancel.vevent.getFirstPropertyValue('status')).toBe('CANCELLED');
    expect(cancel.event.startDate.toJSDate().toISOString()).toBe(
      request.event.startDate.toJSDate().toISOString(),
    );

    const ownerNotice = await ownerMailAbout(answer.reference, `Booking ${answer.reference} cancelled`);
    expect(ownerNotice.header('reply-to')).toBe(body.email);

    // The applicant's first cancel link (from the request e-mail) now meets a closed booking.
    const history = await t.query<{ status: string }>(
      `select status from booking_status_events where booking_id = '${bookingId}' order by at, id`,
    );
    expect(history.map((h) => h.status)).toEqual(['requested', 'confirmed', 'cancelled']);
    expect((await act(cancelToken)).json().reason).toBe('used');
  });

  it('cancels a request not yet confirmed without any calendar file', async () => {
    const { body, applicantMail, answer } = await book();
    const res = await act(tokenOf(linkFrom(applicantMail, 'Cancel this booking')));
    expect(res.statusCode).toBe(200);
    const [, cancelled] = await mailsTo(body.email, 2);
    expect(cancelled!.header('subject')).toBe(`Your strategy session ${answer.reference} is cancelled`);
    expect(cancelled!.attachments).toEqual([]);
  });

  it('serves the two link pages as prerendered, unindexed HTML', async () => {
    for (const url of ['/booking/respond?token=x', '/booking/cancel']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('name="robots" content="noindex"');
    }
  });

  it('answers link requests from another site with 403', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/bookings/link/act',
      headers: {
        'content-type': 'application/json',
        origin: 'https://evil.example',
        'sec-fetch-site': 'cross-site',
      },
      payload: { token: 'x' },
    });
    expect(res.statusCode).toBe(403);
  });
});
