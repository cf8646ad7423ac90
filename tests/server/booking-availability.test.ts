/**
 * The owner's availability (decision 036), on PostgreSQL: the public answer offers
 * only free half-days (weekends, today, bank holidays and days off closed; a request's first
 * choice held; a published masterclass busy; the daily cap), says nothing more than free or not,
 * and follows the console's settings at once; a request whose half-day was taken meanwhile is
 * refused on its step-1 field and stores nothing; of two requests for the last free half-day at
 * once one is accepted (through two instances of the app); a hold ends after
 * REQUEST_HOLD_DAYS; the settings are checked at the edge, audited, and the owner's alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  answerEnd,
  AVAILABILITY_PAGE_DAYS,
  joinAnswers,
  stateIn,
  type PublicAvailability,
} from '../../src/features/booking/availability';
import { availabilityCopy, REQUEST_HOLD_DAYS } from '../../src/content/booking';
import { BANK_HOLIDAYS } from '../../src/features/booking/availability.server';
import { addDays, ukDateOf } from '../../src/lib/uk-dates';
import { bodies, bookableDate, makeFormsApp, testDrivers, type FormsTestApp } from './forms-support';
import { apiCall, asOwner, signInOwner, type OwnerCall } from './owner-session';

const drivers = await testDrivers('availability');

describe.each(drivers)('booking availability on $name', (driver) => {
  let t: FormsTestApp;
  let second: FormsTestApp | undefined;
  let drop: () => Promise<void>;
  let owner: OwnerCall;
  let people = 0;

  beforeAll(async () => {
    const db = await driver.env();
    drop = db.drop;
    t = await makeFormsApp(db.env);
    // A second instance of the app on the same database.
    second = await makeFormsApp(db.env);
    owner = asOwner(t.app, await signInOwner(t.app));
  });
  afterAll(async () => {
    await second?.app.close();
    await t?.app.close();
    await drop?.();
  });

  async function availability(
    from?: string,
  ): Promise<PublicAvailability & { raw: string; cache: string | undefined }> {
    const res = await apiCall(t.app, 'GET', `/api/bookings/availability${from ? `?from=${from}` : ''}`);
    expect(res.statusCode, res.body).toBe(200);
    return {
      ...(res.json() as PublicAvailability),
      raw: res.body,
      cache: res.headers['cache-control'] as string,
    };
  }

  const request = (app: FormsTestApp, date: string, over: Record<string, unknown> = {}) => {
    people += 1;
    return app.post(bodies.booking(date, { email: `avail${people}@example.org`, ...over }));
  };

  const bookingCount = async () =>
    Number((await t.query<{ n: string }>('select count(*) as n from bookings'))[0]!.n);

  it('offers weekday half-days from the next working day, and closes today, weekends and bank holidays', async () => {
    const answer = await availability();
    const today = ukDateOf(new Date());
    expect(answer.from).toBe(today);
    expect(answer.cache).toBe('no-store');
    expect(answer.halves).toMatch(/^[fcb]+$/);
    expect(answer.halves.length).toBe(2 * AVAILABILITY_PAGE_DAYS);
    expect(stateIn(answer, today, 'morning')).toBe('closed');
    const next = bookableDate(1);
    expect(stateIn(answer, next, 'morning')).toBe('free');
    expect(stateIn(answer, next, 'afternoon')).toBe('free');
    for (let i = 0; i < 14; i += 1) {
      const date = addDays(today, i);
      const weekday = new Date(`${date}T12:00:00Z`).getUTCDay();
      if (weekday === 0 || weekday === 6) expect(stateIn(answer, date, 'morning'), date).toBe('closed');
    }
    const christmas =
      `${today.slice(0, 4)}-12-25` > today
        ? `${today.slice(0, 4)}-12-25`
        : `${Number(today.slice(0, 4)) + 1}-12-25`;
    expect(stateIn(await availability(christmas), christmas, 'afternoon')).toBe('closed');
  });

  it('gives the year a page at a time, ends with the booking window, and refuses a malformed query', async () => {
    const first = await availability();
    const second = await availability(answerEnd(first));
    expect(second.from).toBe(answerEnd(first));
    const joined = joinAnswers(first, second);
    expect(joined.halves.length).toBe(4 * AVAILABILITY_PAGE_DAYS);
    // The last page stops at the window's end (365 days ahead), and past it there is nothing.
    const today = ukDateOf(new Date());
    const last = await availability(addDays(today, 360));
    expect(answerEnd(last)).toBe(addDays(today, 366));
    expect((await availability(addDays(today, 400))).halves).toBe('');
    // A date before today is today.
    expect((await availability('2020-01-01')).from).toBe(today);
    for (const query of ['?from=2026-02-30', '?from=tomorrow', '?from=2026-01-01&x=1', '?from[]=1']) {
      const res = await apiCall(t.app, 'GET', `/api/bookings/availability${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toEqual({ error: 'Please give the first date as YYYY-MM-DD.' });
    }
  });

  it('a request holds its first choice: the next visitor is not offered it, and one who asks anyway is refused on step 1', async () => {
    const day = bookableDate(3);
    expect((await request(t, day)).statusCode).toBe(200);
    const answer = await availability();
    expect(stateIn(answer, day, 'morning')).toBe('full');
    expect(stateIn(answer, day, 'afternoon')).toBe('free');

    const before = await bookingCount();
    const refused = await request(t, day);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      error: availabilityCopy.taken,
      reason: 'taken',
      fieldErrors: { firstChoiceDate: availabilityCopy.taken },
    });
    // A second choice on a taken half-day is named as the second choice's.
    const secondTaken = await request(t, bookableDate(4), {
      secondChoiceDate: day,
      secondChoiceTime: 'morning',
    });
    expect(secondTaken.statusCode).toBe(409);
    expect(secondTaken.json().fieldErrors).toEqual({ secondChoiceDate: availabilityCopy.taken });
    expect(await bookingCount()).toBe(before);
    const stored = await t.query<{ n: string }>(
      `select count(*) as n from submissions where form_type = 'booking' and fields->>'email' in ('avail${people - 1}@example.org', 'avail${people}@example.org')`,
    );
    expect(Number(stored[0]!.n)).toBe(0);
  });

  it('a request the owner moves to spam holds nothing', async () => {
    const day = bookableDate(18);
    const asked = await request(t, day);
    expect(asked.statusCode).toBe(200);
    expect(stateIn(await availability(), day, 'morning')).toBe('full');
    const [row] = await t.query<{ submission_id: string }>(
      `select submission_id from bookings where reference = '${asked.json().reference}'`,
    );
    const moved = await owner('POST', `/api/owner/submissions/${row!.submission_id}/mark-spam`);
    expect(moved.statusCode, moved.body).toBe(200);
    expect(stateIn(await availability(), day, 'morning')).toBe('free');
  });

  it('the daily cap fills the day, and a hold ends after REQUEST_HOLD_DAYS', async () => {
    const day = bookableDate(5);
    expect(
      (await owner('POST', '/api/owner/availability', { body: { ...(await settings()), dailyCap: 1 } }))
        .statusCode,
    ).toBe(200);
    expect((await request(t, day)).statusCode).toBe(200);
    expect(stateIn(await availability(), day, 'afternoon')).toBe('full');
    expect((await request(t, day, { firstChoiceTime: 'afternoon' })).statusCode).toBe(409);

    await t.query(
      `update bookings set created_at = now() - interval '${REQUEST_HOLD_DAYS * 24 + 1} hours' where first_choice_date = '${day}'`,
    );
    const after = await availability();
    expect(stateIn(after, day, 'morning')).toBe('free');
    expect(stateIn(after, day, 'afternoon')).toBe('free');
    expect(
      (await owner('POST', '/api/owner/availability', { body: { ...(await settings()), dailyCap: 2 } }))
        .statusCode,
    ).toBe(200);
  });

  it('a published masterclass makes the half-day it overlaps busy, and the answer never names it', async () => {
    const day = bookableDate(6);
    const created = await owner('POST', '/api/owner/events', {
      body: {
        title: 'Secret strategy evening',
        summary: 'Allocation sizing, UK tax and custody, then questions.',
        startsAt: `${day}T14:00`,
        endsAt: `${day}T15:30`,
        mode: 'online',
        place: '',
        joinUrl: 'https://meet.example.net/j/availability',
        capacity: 10,
        registrationOpensAt: '',
        registrationClosesAt: '',
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    // A draft is not in the diary.
    expect(stateIn(await availability(), day, 'afternoon')).toBe('free');
    expect((await owner('POST', `/api/owner/events/${created.json().id}/publish`)).statusCode).toBe(200);
    const answer = await availability();
    expect(stateIn(answer, day, 'afternoon')).toBe('full');
    expect(stateIn(answer, day, 'morning')).toBe('free');
    expect(answer.raw).not.toContain('Secret');
    expect(Object.keys(JSON.parse(answer.raw)).sort()).toEqual(['from', 'halves']);
  });

  async function settings() {
    const res = await owner('GET', '/api/owner/availability');
    expect(res.statusCode).toBe(200);
    return res.json().settings as Record<string, unknown>;
  }

  it('follows the owner’s settings at once: days off, weekly hours, an opened bank holiday; each save audited', async () => {
    const view = (await owner('GET', '/api/owner/availability')).json();
    expect(view.updatedAt === null || typeof view.updatedAt === 'string').toBe(true);
    expect(view.bankHolidays.length).toBeGreaterThan(5);
    expect(view.bankHolidays[0]).toMatchObject({
      date: expect.any(String),
      name: expect.any(String),
      open: false,
    });
    const holiday = view.bankHolidays.find((h: { date: string }) => {
      const weekday = new Date(`${h.date}T12:00:00Z`).getUTCDay();
      return weekday !== 0 && weekday !== 6 && h.date > bookableDate(1);
    }).date as string;

    const off = bookableDate(8);
    const weekly = { ...(view.settings.weekly as object), wed: { morning: true, afternoon: false } };
    const saved = await owner('POST', '/api/owner/availability', {
      body: {
        ...view.settings,
        weekly,
        daysOff: [{ from: off, to: off, note: 'Dentist' }],
        openHolidays: [holiday],
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().settings.daysOff).toEqual([{ from: off, to: off, note: 'Dentist' }]);
    const answer = await availability();
    expect(stateIn(answer, off, 'morning')).toBe('closed');
    expect(stateIn(answer, holiday, 'morning')).toBe('free');
    const wednesday = [...Array(14).keys()]
      .map((i) => addDays(bookableDate(1), i))
      .find((d) => new Date(`${d}T12:00:00Z`).getUTCDay() === 3 && d !== off)!;
    expect(stateIn(answer, wednesday, 'afternoon')).toBe('closed');
    expect(answer.raw).not.toContain('Dentist');

    const audit = await t.query<{ action: string; detail: { changed: string } }>(
      `select action, detail from audit_log where action = 'availability.change' order by id desc limit 1`,
    );
    expect(audit[0]).toEqual({
      action: 'availability.change',
      detail: { changed: 'weekly hours, days off, bank holidays' },
    });
    const words = JSON.stringify((await owner('GET', '/api/owner/audit')).json());
    expect(words).toContain(
      'changed the availability offered to visitors (weekly hours, days off, bank holidays)',
    );
    // Put back, for the tests after this one.
    expect((await owner('POST', '/api/owner/availability', { body: view.settings })).statusCode).toBe(200);
  });

  it('refuses settings out of bounds with a sentence for the part to correct, and changes nothing', async () => {
    const before = await settings();
    const bad = await owner('POST', '/api/owner/availability', {
      body: { ...before, dailyCap: 0, daysOff: [{ from: '2030-01-05', to: '2030-01-01', note: '' }] },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('Please correct the highlighted settings.');
    expect(bad.json().fieldErrors).toEqual({
      dailyCap: 'The daily cap is at least one session',
      daysOff: 'The last day off must be on or after the first',
    });
    for (const body of [
      'not json',
      { weekly: 'open' },
      { ...before, windowDays: '365' },
      { ...before, noticeDays: 1.5 },
    ]) {
      const res = await owner('POST', '/api/owner/availability', { body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(await settings()).toEqual(before);
    // Not for anyone signed out.
    expect((await apiCall(t.app, 'GET', '/api/owner/availability')).statusCode).toBe(401);
  });

  it('the console lists waiting requests by how soon they are, the morning before the afternoon', async () => {
    const [later, sooner] = [bookableDate(14), bookableDate(13)];
    const refs: string[] = [];
    for (const [date, time] of [
      [later, 'afternoon'],
      [sooner, 'afternoon'],
      [sooner, 'morning'],
    ] as const) {
      const res = await request(t, date, { firstChoiceTime: time });
      expect(res.statusCode, res.body).toBe(200);
      refs.push(res.json().reference as string);
    }
    const items = (await owner('GET', '/api/owner/bookings?view=requested')).json().items as {
      reference: string;
    }[];
    const order = items.map((i) => i.reference).filter((r) => refs.includes(r));
    expect(order).toEqual([refs[2], refs[1], refs[0]]);
  });

  it('the owner’s confirm and move onto a day the availability closes are refused, named; the owner may insist', async () => {
    const day = bookableDate(16);
    const res = await request(t, day);
    expect(res.statusCode, res.body).toBe(200);
    const reference = res.json().reference as string;
    const { id } = (
      (await owner('GET', '/api/owner/bookings?view=requested')).json().items as {
        id: string;
        reference: string;
      }[]
    ).find((b) => b.reference === reference)!;
    const before = await settings();
    const saved = await owner('POST', '/api/owner/availability', {
      body: { ...before, daysOff: [{ from: day, to: day, note: 'Dentist' }] },
    });
    expect(saved.statusCode).toBe(200);

    const confirm = (insist?: boolean) =>
      owner('POST', `/api/owner/bookings/${id}/confirm`, {
        body: { choice: 1, start: '09:30', ...(insist === undefined ? {} : { insist }) },
      });
    const refused = await confirm();
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatch(
      /^\w+day \d+ \w+ \d{4} is closed by a day off \(Dentist\)\. Choose another time, or confirm it anyway\.$/,
    );
    expect(refused.json().fieldErrors.start).toBe(refused.json().error);
    expect((await confirm(true)).statusCode).toBe(200);
    const audited = await t.query<{ detail: unknown }>(
      `select detail from audit_log where action = 'booking.confirm' and target = '${reference}'`,
    );
    expect(audited).toEqual([{ detail: { clash: 'a day off (Dentist)' } }]);

    // Moved to a Saturday that is no bank holiday (Boxing Day can be one): closed by the weekly hours.
    let saturday = addDays(day, 1);
    while (new Date(`${saturday}T12:00:00Z`).getUTCDay() !== 6 || BANK_HOLIDAYS.has(saturday)) {
      saturday = addDays(saturday, 1);
    }
    const move = await owner('POST', `/api/owner/bookings/${id}/reschedule`, {
      body: { date: saturday, start: '14:00' },
    });
    expect(move.statusCode).toBe(409);
    expect(move.json().error).toContain(
      'is closed by your weekly hours (Saturday afternoons closed). Choose another time, or move it anyway.',
    );
    expect((await owner('POST', '/api/owner/availability', { body: before })).statusCode).toBe(200);
  });

  it('of two requests for the last free half-day at once, one is accepted and the other refused', async () => {
    const day = bookableDate(9);
    const other = second ?? t;
    const answers = await Promise.all([request(t, day), request(other, day)]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const held = await t.query<{ n: string }>(
      `select count(*) as n from bookings where first_choice_date = '${day}' and first_choice_time = 'morning'`,
    );
    expect(Number(held[0]!.n)).toBe(1);
  });
});
