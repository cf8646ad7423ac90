/**
 * The applicant moves their own session (decision 039), on PostgreSQL with a real
 * SMTP peer: the confirmation and its invitation carry the reschedule and cancel links; the
 * reschedule link offers only free half-days (a taken one is refused and the link stays good),
 * holds the half-day asked for, and leaves the session where it is until the owner confirms the
 * new time (console) or keeps the current one (e-mailed link); a link of a session less than
 * 48 hours away, of a cancelled session or of one that has begun does nothing and says why.
 * And the owner's side of a booking (issue #24 item 9): confirming a Zoom session asks for its
 * meeting link (the settings' default offered), so its invitation never says "to be agreed"; a
 * decline carries the owner's reason and another half-day, and says truly what was asked for.
 */
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stateIn, type PublicAvailability } from '../../src/features/booking/availability';
import { availabilityCopy, bookingActionCopy } from '../../src/content/booking';
import { addDays, ukDateOf } from '../../src/lib/uk-dates';
import {
  bodies,
  bookableDate,
  makeFormsApp,
  startSmtpPeer,
  testDrivers,
  type FormsTestApp,
  type ReceivedMail,
  type SmtpPeer,
} from './forms-support';
import { apiCall, asOwner, signInOwner, type OwnerCall } from './owner-session';

const drivers = await testDrivers('booking_move');

function linkFrom(mail: ReceivedMail, label: string): string {
  const match = new RegExp(`${label}: (https://\\S+)`).exec(mail.text);
  if (!match?.[1]) throw new Error(`no "${label}" link in ${mail.header('subject')}`);
  return match[1];
}
const tokenOf = (url: string) => new URL(url).searchParams.get('token') ?? '';

describe.each(drivers)('an applicant moves their session on $name', (driver) => {
  let t: FormsTestApp;
  let smtp: SmtpPeer;
  let drop: () => Promise<void>;
  let owner: OwnerCall;
  let people = 0;

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

  async function mailWhere(match: (m: ReceivedMail) => boolean, what: string): Promise<ReceivedMail> {
    const until = Date.now() + 15_000;
    for (;;) {
      const found = smtp.mails.filter(match).at(-1);
      if (found) return found;
      if (Date.now() > until) throw new Error(`no e-mail ${what}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  const mailTo = (to: string, subject: string) =>
    mailWhere((m) => m.envelopeTo.includes(to) && m.header('subject') === subject, `"${subject}" to ${to}`);

  const link = (path: string, body: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/json' },
      payload: body,
    });
  const inspect = (token: string) => link('/api/bookings/link', { token });
  const act = (token: string, input: Record<string, unknown> = {}) =>
    link('/api/bookings/link/act', { token, ...input });
  const availability = async () =>
    (await apiCall(t.app, 'GET', '/api/bookings/availability')).json() as PublicAvailability;

  /** A session confirmed on `day` at 09:30: its booking id, reference, applicant and confirmation e-mail. */
  async function confirmedSession(day: string) {
    people += 1;
    const email = `mover${people}@example.org`;
    const asked = await t.post(bodies.booking(day, { email }));
    expect(asked.statusCode, asked.body).toBe(200);
    const reference = asked.json().reference as string;
    const [row] = await t.query<{ id: string }>(`select id from bookings where reference = '${reference}'`);
    const confirmed = await owner('POST', `/api/owner/bookings/${row!.id}/confirm`, {
      body: { choice: 1, start: '09:30' },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const mail = await mailTo(email, 'Your strategy session is confirmed');
    return { id: row!.id, reference, email, mail };
  }

  it('carries both links in the confirmation and its invitation; a free half-day is asked for and held, the session stays', async () => {
    const day = bookableDate(4);
    const { id, email, mail } = await confirmedSession(day);
    const reschedule = linkFrom(mail, 'Move to another time');
    const cancel = linkFrom(mail, 'Cancel this booking');
    expect(new URL(reschedule).pathname).toBe('/booking/reschedule');
    const invite = mail.attachments.find((a) => a.contentType.startsWith('text/calendar'))!;
    const vevent = new ICAL.Component(ICAL.parse(invite.content)).getFirstSubcomponent('vevent')!;
    const description = String(vevent.getFirstPropertyValue('description'));
    expect(description).toContain(`Move to another time: ${reschedule}`);
    expect(description).toContain(`Cancel this booking: ${cancel}`);

    const token = tokenOf(reschedule);
    const view = (await inspect(token)).json();
    expect(view).toMatchObject({ action: 'reschedule', status: 'confirmed' });
    expect(view.session).toContain('9:30am-10:15am UK time');
    expect(view.applicantName).toBeUndefined();

    // A half-day another request holds is refused, and the link stays good for another.
    const held = bookableDate(7);
    expect((await t.post(bodies.booking(held, { email: `holder${people}@example.org` }))).statusCode).toBe(
      200,
    );
    const taken = await act(token, { date: held, time: 'morning' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({
      error: availabilityCopy.taken,
      fieldErrors: { date: availabilityCopy.taken },
    });
    expect((await act(token, { date: 'soon', time: 'morning' })).statusCode).toBe(400);
    expect((await act(token, { date: held, time: 'evening' })).statusCode).toBe(400);

    const wanted = bookableDate(8);
    const asked = await act(token, { date: wanted, time: 'afternoon' });
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json().message).toMatch(
      /^Your request to move to .* is sent\. Your session stays at .* until we confirm/,
    );
    expect((await act(token, { date: wanted, time: 'morning' })).statusCode).toBe(409);
    // Held for others; the session itself has not moved.
    expect(stateIn(await availability(), wanted, 'afternoon')).toBe('full');
    const [row] = await t.query<{ session_date: string; move_date: string; move_time: string }>(
      `select to_char(session_date, 'YYYY-MM-DD') as session_date, to_char(move_date, 'YYYY-MM-DD') as move_date, move_time from bookings where id = '${id}'`,
    );
    expect(row).toEqual({ session_date: day, move_date: wanted, move_time: 'afternoon' });
    await mailTo(email, `Your request to move session ${view.reference}`);

    // The owner sees it in the console, with the start times of the half-day asked for, and confirms.
    const listed = (await owner('GET', '/api/owner/bookings?view=confirmed'))
      .json()
      .items.find((b: { id: string }) => b.id === id);
    expect(listed.move.label).toContain('afternoon');
    expect((await owner('GET', '/api/owner/overview')).json().bookingsAwaitingAnswer).toBeGreaterThan(0);
    const outside = await owner('POST', `/api/owner/bookings/${id}/confirm-move`, {
      body: { start: '09:30' },
    });
    expect(outside.statusCode).toBe(400);
    const moved = await owner('POST', `/api/owner/bookings/${id}/confirm-move`, { body: { start: '14:00' } });
    expect(moved.statusCode, moved.body).toBe(200);
    const updated = await mailTo(email, 'Your strategy session has moved');
    const ics = updated.attachments.find((a) => a.contentType.startsWith('text/calendar'))!;
    const event = new ICAL.Component(ICAL.parse(ics.content)).getFirstSubcomponent('vevent')!;
    expect(Number(event.getFirstPropertyValue('sequence'))).toBe(1);
    expect(String(event.getFirstPropertyValue('uid'))).toBe(String(vevent.getFirstPropertyValue('uid')));
    const [after] = await t.query<{ session_date: string; session_start: string; move_date: string | null }>(
      `select to_char(session_date, 'YYYY-MM-DD') as session_date, session_start, move_date from bookings where id = '${id}'`,
    );
    expect(after).toEqual({ session_date: wanted, session_start: '14:00', move_date: null });
    const history = await t.query<{ status: string; actor: string }>(
      `select status, actor from booking_status_events where booking_id = '${id}' order by at, id`,
    );
    expect(history.map((h) => `${h.status}/${h.actor}`)).toEqual([
      'requested/applicant',
      'confirmed/owner',
      'move-asked/applicant',
      'rescheduled/owner',
    ]);
  });

  it('the owner keeps the current time from the e-mailed link: the applicant is told and the half-day freed', async () => {
    const day = bookableDate(5);
    const { id, reference, email, mail } = await confirmedSession(day);
    const wanted = bookableDate(9);
    expect(
      (await act(tokenOf(linkFrom(mail, 'Move to another time')), { date: wanted, time: 'morning' }))
        .statusCode,
    ).toBe(200);
    const ownerMail = await mailWhere(
      (m) => (m.header('subject') ?? '').endsWith(`asks to move session ${reference}`),
      'to the owner about the move',
    );
    const keep = tokenOf(linkFrom(ownerMail, 'Keep the current time'));
    const confirm = tokenOf(linkFrom(ownerMail, 'Confirm the new time'));
    const confirmView = (await inspect(confirm)).json();
    expect(confirmView.action).toBe('confirm-move');
    expect(confirmView.move).toContain('morning');
    expect(confirmView.choice.startTimes[0].value).toBe('09:00');
    expect((await act(keep)).json().message).toBe(bookingActionCopy.moveKeptDone);
    await mailTo(email, `Your strategy session ${reference} stays at its time`);
    expect(stateIn(await availability(), wanted, 'morning')).toBe('free');
    // The confirm link of a move no longer asked for does nothing, and says why.
    const stale = await inspect(confirm);
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error).toBe(bookingActionCopy.refusals.noMove);
    const [row] = await t.query<{ session_date: string }>(
      `select to_char(session_date, 'YYYY-MM-DD') as session_date from bookings where id = '${id}'`,
    );
    expect(row!.session_date).toBe(day);
  });

  it('a session less than 48 hours away, cancelled, or begun: the link does nothing and says why', async () => {
    const { id, email } = await confirmedSession(bookableDate(6));
    // Moved to tomorrow afternoon by the owner (insisting: tomorrow may be closed).
    const tomorrow = addDays(ukDateOf(new Date()), 1);
    expect(
      (
        await owner('POST', `/api/owner/bookings/${id}/reschedule`, {
          body: { date: tomorrow, start: '16:00', insist: true },
        })
      ).statusCode,
    ).toBe(200);
    const moved = await mailTo(email, 'Your strategy session has moved');
    const late = await inspect(tokenOf(linkFrom(moved, 'Move to another time')));
    expect(late.statusCode).toBe(410);
    expect(late.json()).toMatchObject({ reason: 'late', error: bookingActionCopy.refusals.late });

    // Begun: its cancel link says so.
    await t.query(
      `update bookings set session_date = '${ukDateOf(new Date())}', session_start = '00:00' where id = '${id}'`,
    );
    const begun = await inspect(tokenOf(linkFrom(moved, 'Cancel this booking')));
    expect(begun.statusCode).toBe(410);
    expect(begun.json().error).toBe(bookingActionCopy.refusals.sessionOver);

    // Cancelled: its reschedule link says so.
    const other = await confirmedSession(bookableDate(10));
    expect((await owner('POST', `/api/owner/bookings/${other.id}/cancel`)).statusCode).toBe(200);
    const closed = await inspect(tokenOf(linkFrom(other.mail, 'Move to another time')));
    expect(closed.statusCode).toBe(409);
    expect(closed.json().error).toBe('This booking is already cancelled.');
  });

  it('confirming a Zoom session asks for its meeting link; the default of the settings is used when none is given', async () => {
    const ask = async (day: string) => {
      people += 1;
      const email = `zoom${people}@example.org`;
      const asked = await t.post(bodies.booking(day, { email, sessionType: 'zoom' }));
      expect(asked.statusCode, asked.body).toBe(200);
      const [row] = await t.query<{ id: string }>(
        `select id from bookings where reference = '${asked.json().reference}'`,
      );
      return { id: row!.id, email };
    };
    const confirm = (id: string, over: Record<string, unknown> = {}) =>
      owner('POST', `/api/owner/bookings/${id}/confirm`, { body: { choice: 1, start: '10:00', ...over } });
    const locationOf = async (email: string) => {
      const mail = await mailTo(email, 'Your strategy session is confirmed');
      const ics = mail.attachments.find((a) => a.contentType.startsWith('text/calendar'))!;
      return String(
        new ICAL.Component(ICAL.parse(ics.content))
          .getFirstSubcomponent('vevent')!
          .getFirstPropertyValue('location'),
      );
    };

    const first = await ask(bookableDate(11));
    const missing = await confirm(first.id);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fieldErrors.meetingLink).toBe(bookingActionCopy.meetingLinkMissing);
    expect((await confirm(first.id, { meetingLink: 'http://zoom.example.com/j/1' })).statusCode).toBe(400);
    expect((await confirm(first.id, { meetingLink: 'https://zoom.example.com/j/1' })).statusCode).toBe(200);
    expect(await locationOf(first.email)).toBe('https://zoom.example.com/j/1');

    // A default set on the Availability page is used when the owner gives none.
    const settings = (await owner('GET', '/api/owner/availability')).json().settings;
    const saved = await owner('POST', '/api/owner/availability', {
      body: { ...settings, meetingLink: 'https://zoom.example.com/my/owner' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(
      (
        await owner('POST', '/api/owner/availability', {
          body: { ...settings, meetingLink: 'javascript:alert(1)' },
        })
      ).json().fieldErrors.meetingLink,
    ).toBe('Please paste the meeting link as a full web address (https://…).');
    const second = await ask(bookableDate(12));
    expect((await owner('GET', '/api/owner/bookings')).json().meetingLink).toBe(
      'https://zoom.example.com/my/owner',
    );
    expect((await confirm(second.id)).statusCode).toBe(200);
    expect(await locationOf(second.email)).toBe('https://zoom.example.com/my/owner');
    expect((await owner('POST', '/api/owner/availability', { body: settings })).statusCode).toBe(200);
  });

  it('a decline carries the owner’s reason and another half-day, and says truly what was asked for', async () => {
    const decline = async (over: Record<string, unknown>, body?: Record<string, unknown>) => {
      people += 1;
      const email = `declined${people}@example.org`;
      const asked = await t.post(bodies.booking(bookableDate(13), { email, ...over }));
      expect(asked.statusCode, asked.body).toBe(200);
      const [row] = await t.query<{ id: string }>(
        `select id from bookings where reference = '${asked.json().reference}'`,
      );
      const res = await owner('POST', `/api/owner/bookings/${row!.id}/decline`, { body });
      return { res, email, id: row!.id, reference: asked.json().reference as string };
    };
    const suggested = bookableDate(15);
    const one = await decline(
      {},
      { reason: 'I am at a conference that week.', suggestDate: suggested, suggestTime: 'afternoon' },
    );
    expect(one.res.statusCode, one.res.body).toBe(200);
    const mail = await mailTo(one.email, `About your strategy session request ${one.reference}`);
    expect(mail.text).toContain('the time you chose for your strategy session');
    expect(mail.text).not.toContain('neither');
    expect(mail.text).not.toContain('Second choice');
    expect(mail.text).toContain('Our note: I am at a conference that week.');
    expect(mail.text).toMatch(/We could offer \w+day \d+ \w+ \d{4}, afternoon 1pm-5pm UK time instead\./);

    const two = await decline({ secondChoiceDate: bookableDate(14), secondChoiceTime: 'afternoon' });
    expect(two.res.statusCode).toBe(200);
    const plain = await mailTo(two.email, `About your strategy session request ${two.reference}`);
    expect(plain.text).toContain('neither of the times you chose');
    expect(plain.text).not.toContain('Our note');

    // A suggestion must be a date ahead and a half-day, both or neither: nothing changes otherwise.
    for (const body of [
      { suggestDate: suggested },
      { suggestDate: '2020-01-01', suggestTime: 'morning' },
      { suggestDate: suggested, suggestTime: 'evening' },
      { reason: 'x'.repeat(501) },
    ]) {
      const refused = await decline({}, body);
      expect(refused.res.statusCode, JSON.stringify(body)).toBe(400);
      const [row] = await t.query<{ status: string }>(
        `select status from bookings where reference = '${refused.reference}'`,
      );
      expect(row!.status).toBe('requested');
      // Declined plainly, so the next request may ask for the same half-day.
      expect((await owner('POST', `/api/owner/bookings/${refused.id}/decline`)).statusCode).toBe(200);
    }
  });
});
