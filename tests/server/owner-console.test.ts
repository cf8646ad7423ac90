/**
 * The owner's console API over a real PostgreSQL database of its own, with a real
 * SMTP peer: nothing answers without a live session; a sign-in link works once, expires, and
 * never reaches an address that is not the owner's; a cross-site request is refused; "Not spam"
 * delivers exactly once when pressed twice at once; a reschedule sends an .ics with the same UID
 * and a higher SEQUENCE; inbox filters, search and keyset paging; retry of a failed e-mail; the
 * audit log; the daily spam digest; and no address or visitor text in the logs.
 */
import { createHash } from 'node:crypto';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInLink, SIGN_IN_SENT } from '../../src/server/console/sign-in';
import { FILES_NOT_SENT } from '../../src/server/console/overview';
import {
  bodies,
  bookableDate,
  type FormsTestApp,
  logCapture,
  makeFormsApp,
  nextAddress,
  OWNER,
  type SmtpPeer,
  startSmtpPeer,
  testDrivers,
  until,
} from './forms-support';
import { apiCall, asOwner, signInOwner } from './owner-session';

/** The stored id of a session: the SHA-256 of its cookie's value. */
const sessionId = (cookie: string) => createHash('sha256').update(cookie.split('=')[1]!).digest('base64url');

function parseIcs(ics: string) {
  const cal = new ICAL.Component(ICAL.parse(ics));
  for (const tz of cal.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(tz);
  const vevent = cal.getFirstSubcomponent('vevent');
  if (!vevent) throw new Error('no VEVENT');
  return { method: cal.getFirstPropertyValue('method'), vevent, event: new ICAL.Event(vevent) };
}

/** Every console API that needs a session. */
const GUARDED: [method: 'GET' | 'POST', url: string][] = [
  ['GET', '/api/owner/session'],
  ['GET', '/api/owner/overview'],
  ['GET', '/api/owner/submissions'],
  ['GET', '/api/owner/submissions/00000000-0000-4000-8000-000000000000'],
  ['POST', '/api/owner/submissions/00000000-0000-4000-8000-000000000000/release'],
  ['POST', '/api/owner/submissions/00000000-0000-4000-8000-000000000000/delete'],
  ['POST', '/api/owner/submissions/00000000-0000-4000-8000-000000000000/mark-spam'],
  ['GET', '/api/owner/bookings'],
  ['GET', '/api/owner/bookings/reschedule-options'],
  ['POST', '/api/owner/bookings/00000000-0000-4000-8000-000000000000/confirm'],
  ['POST', '/api/owner/bookings/00000000-0000-4000-8000-000000000000/decline'],
  ['POST', '/api/owner/bookings/00000000-0000-4000-8000-000000000000/cancel'],
  ['POST', '/api/owner/bookings/00000000-0000-4000-8000-000000000000/reschedule'],
  ['GET', '/api/owner/deliveries'],
  ['POST', '/api/owner/deliveries/1/retry'],
  ['GET', '/api/owner/audit'],
  ['GET', '/api/owner/passkeys'],
  ['POST', '/api/owner/passkeys/register/options'],
  ['POST', '/api/owner/passkeys/register'],
  ['POST', '/api/owner/passkeys/x/delete'],
  ['POST', '/api/owner/sign-out'],
  ['POST', '/api/owner/sign-out-everywhere'],
  // Personal data.
  ['GET', '/api/owner/subscribers'],
  ['GET', '/api/owner/suppressions'],
  ['GET', '/api/owner/exports/submissions.csv'],
  ['GET', '/api/owner/exports/subscribers.csv'],
  ['GET', '/api/owner/people?email=a@example.org'],
  ['GET', '/api/owner/people/export.json?email=a@example.org'],
  ['POST', '/api/owner/people/erase'],
  ['GET', '/api/owner/retention'],
  ['POST', '/api/owner/retention/run'],
  // Masterclasses.
  ['GET', '/api/owner/events'],
  ['GET', '/api/owner/events/00000000-0000-4000-8000-000000000000'],
  ['POST', '/api/owner/events'],
  ['POST', '/api/owner/events/00000000-0000-4000-8000-000000000000'],
  ['POST', '/api/owner/events/00000000-0000-4000-8000-000000000000/publish'],
  ['POST', '/api/owner/events/00000000-0000-4000-8000-000000000000/cancel'],
  ['POST', '/api/owner/events/00000000-0000-4000-8000-000000000000/message'],
  ['GET', '/api/owner/exports/events/00000000-0000-4000-8000-000000000000/attendees.csv'],
];

const drivers = await testDrivers('console');

describe.each(drivers)('the owner console on $name', (driver) => {
  let t: FormsTestApp;
  let smtp: SmtpPeer;
  let drop: () => Promise<void>;
  const log = logCapture();

  beforeAll(async () => {
    smtp = await startSmtpPeer();
    const db = await driver.env();
    drop = db.drop;
    t = await makeFormsApp(
      { SMTP_URL: smtp.url, OWNER_EMAILS: 'partner@sterling.test', ...db.env },
      { logger: log.logger },
    );
  });
  afterAll(async () => {
    await t?.app.close();
    await smtp?.close();
    await drop?.();
  });

  const mailsTo = (to: string, kind?: string) =>
    smtp.mails.filter((m) => m.envelopeTo.includes(to) && (!kind || m.header('subject')?.includes(kind)));

  it('answers 401 to every console API without a session, with a made-up one, signed out, idle or too old', async () => {
    for (const [method, url] of GUARDED) {
      expect((await apiCall(t.app, method, url)).statusCode, `${method} ${url}`).toBe(401);
      expect((await apiCall(t.app, method, url, { cookie: '__Host-owner_session=forged' })).statusCode).toBe(
        401,
      );
    }
    const signedOut = await signInOwner(t.app);
    expect((await apiCall(t.app, 'GET', '/api/owner/session', { cookie: signedOut })).statusCode).toBe(200);
    expect((await apiCall(t.app, 'POST', '/api/owner/sign-out', { cookie: signedOut })).statusCode).toBe(200);
    for (const [method, url] of GUARDED) {
      expect((await apiCall(t.app, method, url, { cookie: signedOut })).statusCode, `${method} ${url}`).toBe(
        401,
      );
    }

    const idle = await signInOwner(t.app);
    const old = await signInOwner(t.app);
    expect((await apiCall(t.app, 'GET', '/api/owner/session', { cookie: idle })).statusCode).toBe(200);
    // Idle 12 hours: its last request was 12 h 1 min ago. Too old: it began 7 days and a minute ago.
    await t.query(
      `update owner_sessions set last_seen_at = now() - interval '12 hours 1 minute' where id = '${sessionId(idle)}'`,
    );
    await t.query(
      `update owner_sessions set created_at = now() - interval '7 days 1 minute' where id = '${sessionId(old)}'`,
    );
    for (const cookie of [idle, old]) {
      for (const [method, url] of GUARDED) {
        expect((await apiCall(t.app, method, url, { cookie })).statusCode, `${method} ${url}`).toBe(401);
      }
    }
  });

  it('sets a __Host- cookie that is HttpOnly, SameSite=Strict and Secure, and answers no-store', async () => {
    const url = await signInLink(t.config, t.app.services.links, OWNER);
    const res = await apiCall(t.app, 'POST', '/api/owner/sign-in/link', {
      body: { token: new URL(url).searchParams.get('token') },
    });
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/^__Host-owner_session=[A-Za-z0-9_-]{43};/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    expect(cookie).toContain('Secure');
    expect(cookie).toContain('Path=/');
    expect(cookie).not.toContain('Domain');
    const session = await apiCall(t.app, 'GET', '/api/owner/session', { cookie: cookie.split(';')[0] });
    expect(session.headers['cache-control']).toBe('no-store');
    expect(session.json()).toMatchObject({ email: OWNER, passkeys: 0 });
  });

  it('e-mails the owner a link that works once and expires after 15 minutes', async () => {
    const before = mailsTo(OWNER).length;
    const asked = await apiCall(t.app, 'POST', '/api/owner/sign-in', {
      body: { email: ` ${OWNER.toUpperCase()} ` },
    });
    expect(asked.statusCode).toBe(202);
    expect(asked.json()).toEqual({ message: SIGN_IN_SENT });
    const mail = await until(async () =>
      mailsTo(OWNER)
        .slice(before)
        .find((m) => m.text.includes('/owner/sign-in?token=')),
    );
    const link = /(https:\/\/www\.sterling\.test\/owner\/sign-in\?token=\S+)/.exec(mail.text)![1]!;
    const token = new URL(link).searchParams.get('token');

    const first = await apiCall(t.app, 'POST', '/api/owner/sign-in/link', { body: { token } });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ email: OWNER });
    const again = await apiCall(t.app, 'POST', '/api/owner/sign-in/link', { body: { token } });
    expect(again.statusCode).toBe(409);
    expect(again.headers['set-cookie']).toBeUndefined();

    const stale = await signInLink(
      t.config,
      t.app.services.links,
      OWNER,
      new Date(Date.now() - 15 * 60_000 - 1000),
    );
    const expired = await apiCall(t.app, 'POST', '/api/owner/sign-in/link', {
      body: { token: new URL(stale).searchParams.get('token') },
    });
    expect(expired.statusCode).toBe(410);
    const forged = await apiCall(t.app, 'POST', '/api/owner/sign-in/link', { body: { token: `${token}x` } });
    expect(forged.statusCode).toBe(400);
  });

  it('lets a further owner address sign in, and never sends a link to any other address', async () => {
    const stranger = 'someone.else@example.org';
    const answer = await apiCall(t.app, 'POST', '/api/owner/sign-in', { body: { email: stranger } });
    expect(answer.statusCode).toBe(202);
    expect(answer.json()).toEqual({ message: SIGN_IN_SENT });
    const partner = await apiCall(t.app, 'POST', '/api/owner/sign-in', {
      body: { email: 'partner@sterling.test' },
    });
    expect(partner.json()).toEqual(answer.json());
    await until(async () => mailsTo('partner@sterling.test').length > 0);
    const rows = await t.query<{ n: number }>(
      `select count(*)::int as n from outbox where to_address = '${stranger}'`,
    );
    expect(rows[0]!.n).toBe(0);
    expect(mailsTo(stranger)).toHaveLength(0);
    expect(await signInOwner(t.app, 'partner@sterling.test')).toMatch(/^__Host-owner_session=/);
    const invalid = await apiCall(t.app, 'POST', '/api/owner/sign-in', { body: { email: 'not an address' } });
    expect(invalid.statusCode).toBe(400);
  });

  it('limits sign-in requests per client', async () => {
    const remoteAddress = nextAddress();
    const codes: number[] = [];
    for (let i = 0; i < 7; i += 1) {
      const res = await apiCall(t.app, 'POST', '/api/owner/sign-in', {
        body: { email: 'nobody@example.org' },
        remoteAddress,
      });
      codes.push(res.statusCode);
    }
    expect(codes).toEqual([202, 202, 202, 202, 202, 429, 429]);
  });

  it('refuses cross-site requests, signed in or not', async () => {
    const owner = asOwner(t.app, await signInOwner(t.app));
    const evil = await apiCall(t.app, 'POST', '/api/owner/sign-in', {
      body: { email: OWNER },
      headers: { origin: 'https://evil.example' },
    });
    expect(evil.statusCode).toBe(403);
    const read = await owner('GET', '/api/owner/submissions', {
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(read.statusCode).toBe(403);
    const act = await owner('POST', '/api/owner/sign-out-everywhere', {
      headers: { origin: 'https://evil.example' },
    });
    expect(act.statusCode).toBe(403);
    expect((await owner('GET', '/api/owner/session')).statusCode).toBe(200);
  });

  it('"Not spam" delivers a held submission exactly once, even pressed twice at once', async () => {
    const owner = asOwner(t.app, await signInOwner(t.app));
    const email = `held.${Date.now()}@example.org`;
    const res = await t.post(bodies.contact({ email, website: 'https://spam.example' }));
    expect(res.statusCode).toBe(200);
    const id = (res.json() as { id: string }).id;
    const spam = (await owner('GET', '/api/owner/submissions?status=spam')).json() as {
      items: { id: string; spamReason: string }[];
    };
    expect(spam.items.find((s) => s.id === id)?.spamReason).toBe('honeypot');

    const [a, b] = await Promise.all([
      owner('POST', `/api/owner/submissions/${id}/release`),
      owner('POST', `/api/owner/submissions/${id}/release`),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const ok = [a, b].find((r) => r.statusCode === 200)!;
    expect(ok.json()).toEqual({ ok: true, emails: 1 });
    const outbox = await t.query<{ kind: string }>(`select kind from outbox where submission_id = '${id}'`);
    expect(outbox.map((r) => r.kind)).toEqual(['contact.owner']);
    await until(async () => smtp.mails.some((m) => m.text.includes(email)));
    // A third press, later, changes nothing either.
    expect((await owner('POST', `/api/owner/submissions/${id}/release`)).statusCode).toBe(409);
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.mails.filter((m) => m.text.includes(email))).toHaveLength(1);

    const detail = (await owner('GET', `/api/owner/submissions/${id}`)).json() as {
      spam: boolean;
      releasedAt: string;
      consents: { wording: string }[];
      emails: { kind: string; status: string }[];
      fields: { name: string; value: string }[];
    };
    expect(detail.spam).toBe(false);
    expect(detail.releasedAt).toBeTruthy();
    expect(detail.consents).toHaveLength(1);
    expect(detail.fields).toContainEqual({ name: 'Email', value: email });
    await until(async () => {
      const d = (await owner('GET', `/api/owner/submissions/${id}`)).json() as typeof detail;
      return d.emails[0]?.status === 'sent';
    });
  });

  it('marks a delivered submission as spam, and deletes a held one with everything it had', async () => {
    const owner = asOwner(t.app, await signInOwner(t.app));
    const res = await t.post(bodies.contact({ email: `moved.${Date.now()}@example.org` }));
    const id = (res.json() as { id: string }).id;
    expect((await owner('POST', `/api/owner/submissions/${id}/delete`)).statusCode).toBe(409);
    expect((await owner('POST', `/api/owner/submissions/${id}/mark-spam`)).statusCode).toBe(200);
    expect((await owner('POST', `/api/owner/submissions/${id}/mark-spam`)).statusCode).toBe(409);
    // Released again, it sends nothing twice: its e-mail went when it arrived.
    expect((await owner('POST', `/api/owner/submissions/${id}/release`)).json()).toEqual({
      ok: true,
      emails: 0,
    });
    expect((await owner('POST', `/api/owner/submissions/${id}/mark-spam`)).statusCode).toBe(200);
    expect((await owner('POST', `/api/owner/submissions/${id}/delete`)).statusCode).toBe(200);
    expect((await owner('GET', `/api/owner/submissions/${id}`)).statusCode).toBe(404);
    const left = await t.query<{ n: number }>(
      `select (select count(*) from submissions where id = '${id}') + (select count(*) from outbox where submission_id = '${id}')
       + (select count(*) from consent_records where submission_id = '${id}') as n`,
    );
    expect(Number(left[0]!.n)).toBe(0);
  });

  it('finds submissions by form, date and search, newest first, one keyset page after another', async () => {
    const owner = asOwner(t.app, await signInOwner(t.app));
    const tag = `zq${Date.now().toString(36)}`;
    // 120 newsletter sign-ups over the last 120 hours, straight into the table.
    await t.query(`insert into submissions (id, form_type, fields, received_at)
      select gen_random_uuid(), 'newsletter',
             jsonb_build_object('firstName', 'Reader', 'lastName', '${tag}' || n, 'email', 'reader' || n || '@example.org'),
             now() - make_interval(hours => n)
      from generate_series(1, 120) as n`);
    const seen: string[] = [];
    let next: string | null = null;
    let pages = 0;
    do {
      const res = await owner(
        'GET',
        `/api/owner/submissions?form=newsletter&q=${tag}${next ? `&after=${next}` : ''}`,
      );
      expect(res.statusCode).toBe(200);
      const page = res.json() as { items: { name: string; receivedAt: string }[]; next: string | null };
      seen.push(...page.items.map((i) => i.name));
      next = page.next;
      pages += 1;
    } while (next);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(120);
    expect(new Set(seen).size).toBe(120);
    expect(seen[0]).toBe(`Reader ${tag}1`);
    expect(seen[119]).toBe(`Reader ${tag}120`);

    // Case-insensitive, any part of the e-mail address; % and _ are taken literally.
    const one = (await owner('GET', `/api/owner/submissions?q=READER77@`)).json() as {
      items: { email: string }[];
    };
    expect(one.items.map((i) => i.email)).toEqual(['reader77@example.org']);
    const literal = (await owner('GET', `/api/owner/submissions?q=${encodeURIComponent('%_')}`)).json() as {
      items: unknown[];
    };
    expect(literal.items).toHaveLength(0);
    const other = (await owner('GET', `/api/owner/submissions?form=contact&q=${tag}`)).json() as {
      items: unknown[];
    };
    expect(other.items).toHaveLength(0);

    const ukToday = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(new Date());
    const today = (
      await owner('GET', `/api/owner/submissions?q=${tag}&from=${ukToday}&to=${ukToday}`)
    ).json() as {
      items: { receivedAt: string }[];
    };
    for (const item of today.items) {
      expect(
        new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(new Date(item.receivedAt)),
      ).toBe(ukToday);
    }
    for (const bad of [
      'form=nope',
      'status=deleted',
      'from=2025-13-45',
      'after=garbage',
      `q=${'x'.repeat(101)}`,
    ]) {
      expect((await owner('GET', `/api/owner/submissions?${bad}`)).statusCode, bad).toBe(400);
    }
  });

  it('refuses a date or a page cursor the database cannot read with a 400, never a 500', async () => {
    const owner = asOwner(t.app, await signInOwner(t.app));
    const cursor = (text: string) => Buffer.from(text).toString('base64url');
    const id = '00000000-0000-4000-8000-000000000000';
    const page = 'The page filter is not valid.';
    for (const [query, error] of [
      ['from=0000-01-01', 'The from date filter is not valid.'],
      ['to=0000-12-31', 'The to date filter is not valid.'],
      ['from=2025-02-29', 'The from date filter is not valid.'],
      [`after=${cursor(`0000-01-01 00:00:00+00|${id}`)}`, page],
      [`after=${cursor(`1|${id}`)}`, page],
      [`after=${cursor(`2026-02-30 10:00:00+00|${id}`)}`, page],
      [`after=${cursor('2026-01-01 10:00:00+00|not-a-uuid')}`, page],
      ['after=garbage', page],
    ]) {
      const res = await owner('GET', `/api/owner/submissions?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json(), query).toEqual({ error });
    }
    for (const query of [
      'from=0001-01-01&to=9999-12-31',
      'from=2024-02-29',
      `after=${cursor(`2026-01-01 10:00:00.5+01|${id}`)}`,
    ]) {
      expect((await owner('GET', `/api/owner/submissions?${query}`)).statusCode, query).toBe(200);
    }
    // The export reads the same filters; a page cursor means nothing to it.
    expect((await owner('GET', '/api/owner/exports/submissions.csv?from=0000-01-01')).statusCode).toBe(400);
    expect((await owner('GET', '/api/owner/exports/submissions.csv?after=garbage')).statusCode).toBe(200);
    // An id that is not a UUID names no submission.
    for (const [method, path] of [
      ['GET', ''],
      ['POST', '/release'],
      ['POST', '/delete'],
      ['POST', '/mark-spam'],
    ] as const) {
      const res = await owner(method, `/api/owner/submissions/not-a-uuid${path}`);
      expect(res.statusCode, path).toBe(404);
      expect(res.json()).toEqual({ error: 'There is no such submission.' });
    }
  });

  it('confirms a booking from the console and reschedules it: same UID, higher SEQUENCE', async () => {
    const owner = asOwner(t.app, await signInOwner(t.app));
    const first = bookableDate(10);
    const email = `booker.${Date.now()}@example.org`;
    const res = await t.post(bodies.booking(first, { email }));
    expect(res.statusCode).toBe(200);
    const list = (await owner('GET', '/api/owner/bookings?view=requested')).json() as {
      items: { id: string; email: string; choices: { startTimes: { value: string }[] }[] }[];
    };
    const booking = list.items.find((b) => b.email === email)!;
    expect(booking.choices[0]!.startTimes[0]!.value).toBe('09:00');

    const confirmed = await owner('POST', `/api/owner/bookings/${booking.id}/confirm`, {
      body: { choice: 1, start: '09:30' },
    });
    expect(confirmed.statusCode).toBe(200);
    const invite = await until(async () =>
      smtp.mails.find(
        (m) => m.envelopeTo.includes(email) && m.attachments.some((a) => a.filename === 'invite.ics'),
      ),
    );
    const before = parseIcs(invite.attachments.find((a) => a.filename === 'invite.ics')!.content);

    const later = bookableDate(20);
    const moved = await owner('POST', `/api/owner/bookings/${booking.id}/reschedule`, {
      body: { date: later, start: '14:15' },
    });
    expect(moved.statusCode).toBe(200);
    expect((moved.json() as { message: string }).message).toContain('2:15pm-3pm UK time');
    const updated = await until(async () =>
      smtp.mails.find(
        (m) => m.envelopeTo.includes(email) && m.header('subject') === 'Your strategy session has moved',
      ),
    );
    const after = parseIcs(updated.attachments.find((a) => a.filename === 'invite.ics')!.content);
    expect(after.method).toBe('REQUEST');
    expect(after.event.uid).toBe(before.event.uid);
    expect(after.event.sequence).toBeGreaterThan(before.event.sequence);
    expect(after.event.startDate.toString()).toBe(`${later}T14:15:00`);
    expect(after.vevent.getFirstProperty('dtstart')?.getParameter('tzid')).toBe('Europe/London');

    const confirmedView = (await owner('GET', '/api/owner/bookings?view=confirmed')).json() as {
      items: { id: string; session: { date: string; start: string }; history: { status: string }[] }[];
    };
    const row = confirmedView.items.find((b) => b.id === booking.id)!;
    expect(row.session).toMatchObject({ date: later, start: '14:15' });
    expect(row.history.map((h) => h.status)).toEqual(['requested', 'confirmed', 'rescheduled']);
    for (const bad of [
      { date: '2000-01-01', start: '10:00' },
      { date: later, start: '10:07' },
      { date: later, start: '16:30' },
    ]) {
      expect(
        (await owner('POST', `/api/owner/bookings/${booking.id}/reschedule`, { body: bad })).statusCode,
      ).toBe(400);
    }
    const cancelled = await owner('POST', `/api/owner/bookings/${booking.id}/cancel`);
    expect(cancelled.statusCode).toBe(200);
    const cancellation = await until(async () =>
      smtp.mails.find(
        (m) => m.envelopeTo.includes(email) && m.attachments.some((a) => a.filename === 'cancellation.ics'),
      ),
    );
    const cancel = parseIcs(cancellation.attachments.find((a) => a.filename === 'cancellation.ics')!.content);
    expect(cancel.event.uid).toBe(before.event.uid);
    expect(cancel.event.sequence).toBeGreaterThan(after.event.sequence);
    expect(
      (
        await owner('POST', `/api/owner/bookings/${booking.id}/reschedule`, {
          body: { date: later, start: '10:00' },
        })
      ).statusCode,
    ).toBe(409);
  });

  it('sends a failed e-mail again from Deliveries', async () => {
    const owner = asOwner(t.app, await signInOwner(t.app));
    const email = `retry.${Date.now()}@example.org`;
    smtp.refuse(true);
    // The relay refuses; after the first attempt the row is marked failed for good (as the last attempt would).
    const res = await t.post(bodies.contact({ email }));
    const id = (res.json() as { id: string }).id;
    const [row] = await until(async () => {
      const rows = await t.query<{ id: number; last_error: string | null }>(
        `select id, last_error from outbox where submission_id = '${id}'`,
      );
      return rows[0]?.last_error ? rows : undefined;
    });
    // Waiting for its next attempt after the relay's refusal: "Retry" makes it due now.
    const waiting = (await owner('GET', '/api/owner/deliveries?status=pending')).json() as {
      items: { id: number; lastError: string }[];
    };
    expect(waiting.items.find((d) => d.id === Number(row!.id))?.lastError).toBe('EMESSAGE 451');
    await t.query(`update outbox set next_attempt_at = now() + interval '1 hour' where id = ${row!.id}`);
    // Due later: the list says when it goes (a waiting e-mail never looks stuck).
    const due = (
      (await owner('GET', '/api/owner/deliveries?status=pending')).json() as {
        items: { id: number; dueAt: string | null }[];
      }
    ).items.find((d) => d.id === Number(row!.id))!.dueAt;
    expect(new Date(due!).getTime()).toBeGreaterThan(Date.now() + 55 * 60_000);
    const [{ now: retriedAt }] = (await t.query<{ now: string }>(`select now()::text as now`)) as [
      { now: string },
    ];
    expect((await owner('POST', `/api/owner/deliveries/${row!.id}/retry`)).statusCode).toBe(200);
    // Its second attempt is over once its failure is recorded (last_attempt_at after the retry).
    await until(
      async () =>
        (
          await t.query<{ done: boolean }>(
            `select attempts >= 2 and last_attempt_at > '${retriedAt}'::timestamptz as done from outbox where id = ${row!.id}`,
          )
        )[0]!.done,
    );
    // Failed for good (as after its last attempt): "Retry" gives it a fresh set of attempts.
    await t.query(`update outbox set status = 'failed', last_error = '451' where id = ${row!.id}`);
    smtp.refuse(false);
    const failed = (await owner('GET', '/api/owner/deliveries?status=failed')).json() as {
      items: { id: number; lastError: string }[];
    };
    expect(failed.items.find((d) => d.id === Number(row!.id))?.lastError).toBe('451');
    const overview = (await owner('GET', '/api/owner/overview')).json() as {
      mailWarnings: string[];
    };
    expect(overview.mailWarnings).toContain(
      'The last send failed. The mail server was busy or refused for now (451). See Deliveries.',
    );

    expect((await owner('POST', `/api/owner/deliveries/${row!.id}/retry`)).statusCode).toBe(200);
    await until(async () => smtp.mails.some((m) => m.text.includes(email)));
    await until(
      async () =>
        (await t.query<{ status: string }>(`select status from outbox where id = ${row!.id}`))[0]?.status ===
        'sent',
    );
  });

  it('records every owner action in the audit log, and ends every session on "sign out everywhere"', async () => {
    const a = await signInOwner(t.app);
    const b = await signInOwner(t.app);
    const items: { action: string; actor: string; target: string | null }[] = [];
    let next: string | null = null;
    do {
      const page = (
        await apiCall(t.app, 'GET', `/api/owner/audit${next ? `?after=${next}` : ''}`, { cookie: a })
      ).json() as {
        items: typeof items;
        next: string | null;
      };
      items.push(...page.items);
      next = page.next;
    } while (next);
    const actions = new Set(items.map((i) => i.action));
    for (const action of [
      'sign-in.link',
      'submission.release',
      'submission.mark-spam',
      'submission.delete',
      'booking.confirm',
      'booking.reschedule',
      'booking.cancel',
      'delivery.retry',
    ]) {
      expect(actions, action).toContain(action);
    }
    expect(items.every((i) => !String(i.target).includes('@'))).toBe(true);
    expect(items.filter((i) => i.action === 'booking.reschedule').every((i) => i.actor === OWNER)).toBe(true);
    const ended = await apiCall(t.app, 'POST', '/api/owner/sign-out-everywhere', { cookie: a });
    expect((ended.json() as { ended: number }).ended).toBeGreaterThanOrEqual(2);
    expect((await apiCall(t.app, 'GET', '/api/owner/session', { cookie: b })).statusCode).toBe(401);
  });

  it('e-mails the owner one spam digest a day, only when something was held', async () => {
    const jobs = t.app.services.consoleJobs;
    const morning = new Date();
    morning.setUTCHours(9, 30, 0, 0); // 09:30 UTC is 09:30 or 10:30 in London: after 08:00
    await t.query(`delete from mail_throttle where key like 'digest.spam:%'`);
    await t.query(`update submissions set received_at = now() - interval '2 days' where spam`);
    await t.post(bodies.contact({ website: 'filled' }));
    const held = await jobs.runDigest(morning);
    expect(held).toBe(1);
    expect(await jobs.runDigest(morning)).toBe(0);
    const rows = await t.query<{ kind: string; to_address: string }>(
      `select kind, to_address from outbox where kind = 'owner.spam-digest'`,
    );
    expect(rows).toEqual([{ kind: 'owner.spam-digest', to_address: OWNER }]);
    const early = new Date(morning);
    early.setUTCHours(5);
    early.setUTCDate(early.getUTCDate() + 1);
    expect(await jobs.runDigest(early)).toBe(0);
  });

  it('serves /owner and every path under it as the console shell: noindex, no-store', async () => {
    for (const url of ['/owner', '/owner/', '/owner/inbox/123?x=1', '/owner/sign-in?token=abc']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-robots-tag']).toBe('noindex');
      expect(res.body).toContain('<meta name="robots" content="noindex"');
      // The console speaks to its own origin only.
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toMatch(/(^|;\s*)connect-src 'self'(;|$)/);
      expect(csp).not.toMatch(/connect-src[^;]*(https:|wss:|\*)/);
      // Images from other sites, for the newsletter's preview as a mail client shows it; nothing else.
      expect(csp).toMatch(/(^|;\s*)img-src 'self' data: https:(;|$)/);
      expect(csp).toMatch(/(^|;\s*)script-src 'self'[^;]*(;|$)/);
      expect(csp).not.toMatch(/script-src[^;]*https:/);
    }
    expect((await t.app.inject({ method: 'GET', url: '/ownerx' })).statusCode).toBe(404);
  });

  it('logs no address and no visitor text', () => {
    const all = log.lines.join('\n');
    expect(all).not.toMatch(/@example\.org/);
    expect(all).not.toContain(OWNER);
    expect(all).not.toContain('partner@sterling.test');
    expect(all).not.toContain('Somerville');
    expect(all).not.toContain('token=');
    expect(all).toContain('owner signed in');
  });
});

describe('the console in production with settings left at their defaults', () => {
  it('warns that e-mails are written to files, and names the settings left unset', async () => {
    const t = await makeFormsApp({ NODE_ENV: 'production' });
    try {
      const owner = asOwner(t.app, await signInOwner(t.app));
      const overview = (await owner('GET', '/api/owner/overview')).json() as {
        mailWarnings: string[];
        configWarnings: string[];
      };
      expect(overview.mailWarnings).toContain(FILES_NOT_SENT);
      const session = (await owner('GET', '/api/owner/session')).json() as {
        configWarnings: string[];
      };
      expect(session.configWarnings.join(' ')).toContain('SMTP_URL');
    } finally {
      await t.app.close();
    }
  });
});
