/**
 * A confirmed session's reminder (decision 038), on PostgreSQL, with a real SMTP
 * peer and the outbox's clock moved rather than waited for: it leaves once, 24 hours before the
 * start; none for a session confirmed or moved within those 24 hours; none after a cancellation;
 * a move queues it anew for the new time (never two); and one that falls due while the server is
 * down is not sent once its grace has passed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REMINDER_GRACE_HOURS, REMINDER_HOURS_BEFORE } from '../../src/content/booking';
import { addDays, ukDateOf, ukWallTimeToInstant } from '../../src/lib/uk-dates';
import {
  bodies,
  bookableDate,
  makeFormsApp,
  startSmtpPeer,
  testDrivers,
  until,
  type FormsTestApp,
  type SmtpPeer,
} from './forms-support';
import { asOwner, signInOwner, type OwnerCall } from './owner-session';

const HOUR = 3600_000;
const SUBJECT = 'Tomorrow: your strategy session';
const drivers = await testDrivers('booking_reminders');

describe.each(drivers)('booking reminders on $name', (driver) => {
  let t: FormsTestApp;
  let smtp: SmtpPeer;
  let drop: () => Promise<void>;
  let owner: OwnerCall;
  /** The outbox's clock runs this far ahead of the real one. */
  let ahead = 0;
  let people = 0;

  beforeAll(async () => {
    smtp = await startSmtpPeer();
    const db = await driver.env();
    drop = db.drop;
    t = await makeFormsApp(
      { SMTP_URL: smtp.url, ...db.env },
      { services: { outbox: { clock: () => new Date(Date.now() + ahead) } } },
    );
    owner = asOwner(t.app, await signInOwner(t.app));
  });
  afterAll(async () => {
    ahead = 0;
    await t?.app.close();
    await smtp?.close();
    await drop?.();
  });

  async function drained() {
    t.app.services.outbox.wake();
    await t.app.services.outbox.drain();
  }
  const remindersTo = (to: string) =>
    smtp.mails.filter((m) => m.envelopeTo.includes(to) && m.header('subject') === SUBJECT);

  /** A confirmed session on `day` at 09:30 UK time: its booking id, reference and the applicant's address. */
  async function confirmedSession(day: string) {
    people += 1;
    const email = `remind${people}@example.org`;
    const asked = await t.post(bodies.booking(day, { email }));
    expect(asked.statusCode, asked.body).toBe(200);
    const reference = asked.json().reference as string;
    const { id } = (
      (await owner('GET', '/api/owner/bookings?view=requested')).json().items as {
        id: string;
        reference: string;
      }[]
    ).find((b) => b.reference === reference)!;
    const confirmed = await owner('POST', `/api/owner/bookings/${id}/confirm`, {
      body: { choice: 1, start: '09:30' },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    return { id, email, start: ukWallTimeToInstant(day, '09:30').getTime() };
  }

  const pendingReminders = (email: string) =>
    t.query<{ due: string; message: { notAfter?: string } }>(
      `select next_attempt_at as due, message from outbox
        where kind = 'booking.reminder' and to_address = '${email}' and status = 'pending'`,
    );

  it('leaves once, 24 hours before the start, by the outbox clock', async () => {
    const { email, start } = await confirmedSession(bookableDate(3));
    const [row] = await pendingReminders(email);
    expect(new Date(row!.due).getTime()).toBe(start - REMINDER_HOURS_BEFORE * HOUR);
    expect(Date.parse(row!.message.notAfter!)).toBe(
      start - (REMINDER_HOURS_BEFORE - REMINDER_GRACE_HOURS) * HOUR,
    );

    ahead = start - REMINDER_HOURS_BEFORE * HOUR - 60_000 - Date.now();
    await drained();
    expect(remindersTo(email)).toHaveLength(0);
    ahead = start - REMINDER_HOURS_BEFORE * HOUR + 60_000 - Date.now();
    await drained();
    await until(() => remindersTo(email).length === 1);
    ahead = start - HOUR - Date.now();
    await drained();
    await drained();
    expect(remindersTo(email)).toHaveLength(1);
    const [mail] = remindersTo(email);
    expect(mail!.text).toContain('9:30am-10:15am UK time');
    expect(mail!.text).toContain('https://www.sterling.test/booking/cancel?token=');
    ahead = 0;
  });

  it('is not sent after a cancellation', async () => {
    const { id, email, start } = await confirmedSession(bookableDate(4));
    expect(await pendingReminders(email)).toHaveLength(1);
    expect((await owner('POST', `/api/owner/bookings/${id}/cancel`)).statusCode).toBe(200);
    expect(await pendingReminders(email)).toHaveLength(0);
    ahead = start - REMINDER_HOURS_BEFORE * HOUR + 60_000 - Date.now();
    await drained();
    await drained();
    expect(remindersTo(email)).toHaveLength(0);
    ahead = 0;
  });

  it('moves with the session (one reminder, at the new time), and none for a session moved within 24 hours', async () => {
    const day = bookableDate(5);
    const { id, email } = await confirmedSession(day);
    const later = bookableDate(8);
    const moved = await owner('POST', `/api/owner/bookings/${id}/reschedule`, {
      body: { date: later, start: '14:00' },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const rows = await pendingReminders(email);
    expect(rows).toHaveLength(1);
    expect(new Date(rows[0]!.due).getTime()).toBe(
      ukWallTimeToInstant(later, '14:00').getTime() - REMINDER_HOURS_BEFORE * HOUR,
    );

    // Moved to a time less than 24 hours ahead: its reminder would be late, so there is none.
    const now = Date.now();
    const today = ukDateOf(new Date(now));
    const soon = ['09:00', '10:00', '11:00', '13:00', '14:00', '15:00', '16:00']
      .map((start) => ({ date: today, start }))
      .concat([{ date: addDays(today, 1), start: '09:00' }])
      .find((s) => ukWallTimeToInstant(s.date, s.start).getTime() > now + 10 * 60_000)!;
    const close = await owner('POST', `/api/owner/bookings/${id}/reschedule`, {
      body: { ...soon, insist: true },
    });
    expect(close.statusCode, close.body).toBe(200);
    expect(await pendingReminders(email)).toHaveLength(0);
  });

  it('falls due during downtime and is claimed after its grace: not sent, marked late', async () => {
    const { email, start } = await confirmedSession(bookableDate(6));
    ahead = start - (REMINDER_HOURS_BEFORE - REMINDER_GRACE_HOURS) * HOUR + 60_000 - Date.now();
    await drained();
    await drained();
    expect(remindersTo(email)).toHaveLength(0);
    const rows = await t.query<{ status: string; last_error: string }>(
      `select status, last_error from outbox where kind = 'booking.reminder' and to_address = '${email}'`,
    );
    expect(rows).toEqual([{ status: 'skipped', last_error: 'late' }]);
    ahead = 0;
  });
});
