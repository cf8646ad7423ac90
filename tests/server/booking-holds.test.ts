/**
 * Holds a stranger cannot exhaust (decision 053): a request holds its first choice only when no
 * request from its e-mail address or its client holds one, and while fewer than OPEN_HOLDS_MAX
 * requests hold one; the rest still reach the owner, holding nothing. A flood of 50 requests from
 * 5 addresses closes at most 5 half-days, and two real visitors after it are each held. The
 * owner sees what a request holds, and can release it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPEN_HOLDS_MAX } from '../../src/features/booking/availability.server';
import { leadStateAfter } from '../../src/features/booking/booking-lead.server';
import type { PublicAvailability } from '../../src/features/booking/availability';
import { bodies, bookableDate, makeFormsApp, type FormsTestApp } from './forms-support';
import { apiCall, asOwner, signInOwner, type OwnerCall } from './owner-session';

describe('holds on half-days', () => {
  let t: FormsTestApp;
  let owner: OwnerCall;
  beforeAll(async () => {
    t = await makeFormsApp();
    owner = asOwner(t.app, await signInOwner(t.app));
  });
  afterAll(async () => {
    await t?.app.close();
  });

  const answer = async () =>
    (await apiCall(t.app, 'GET', '/api/bookings/availability')).json() as PublicAvailability;
  /** The half-days visitors are offered no longer because a request or a session holds them. */
  const fullHalfDays = async () => [...(await answer()).halves].filter((h) => h === 'b').length;
  const requestsIn = async () =>
    Number((await t.query<{ n: string }>(`select count(*) as n from bookings`))[0]!.n);
  const clearRequests = () => t.query(`update bookings set status = 'declined'`);

  // Working days 1-45: a half-day each, mornings then afternoons, never asked for twice.
  const halfDays = Array.from({ length: 45 }, (_, i) => bookableDate(i + 1)).flatMap((date) => [
    { date, time: 'morning' },
    { date, time: 'afternoon' },
  ]);
  let nextHalf = 0;
  const request = (client: string, email: string) => {
    const { date, time } = halfDays[nextHalf++]!;
    return t.post(bodies.booking(date, { firstChoiceTime: time, email }), {}, client);
  };

  it('50 requests from 5 addresses close at most 5 half-days, and two real visitors after them are each held', async () => {
    const before = await fullHalfDays();
    const flood = await Promise.all(
      Array.from({ length: 50 }, (_, i) => request(`198.51.100.${(i % 5) + 1}`, `someone-${i}@example.net`)),
    );
    // Every request reaches the owner: the flood gets what a visitor gets.
    expect(flood.map((r) => r.statusCode)).toEqual(Array(50).fill(200));
    expect(await requestsIn()).toBe(50);
    expect((await fullHalfDays()) - before).toBe(5);

    const visitors = [
      await request('203.0.113.10', 'first.visitor@example.org'),
      await request('203.0.113.20', 'second.visitor@example.org'),
    ];
    expect(visitors.map((r) => r.statusCode)).toEqual([200, 200]);
    expect((await fullHalfDays()) - before).toBe(7);
    const held = await t.query<{ email: string; holds: boolean }>(
      `select s.fields->>'email' as email, b.holds from bookings b join submissions s on s.id = b.submission_id
       where s.fields->>'email' like '%.visitor@example.org' order by 1`,
    );
    expect(held).toEqual([
      { email: 'first.visitor@example.org', holds: true },
      { email: 'second.visitor@example.org', holds: true },
    ]);
    await clearRequests();
  });

  it('one hold per e-mail address and per client, whatever the address looks like', async () => {
    const before = await fullHalfDays();
    expect((await request('192.0.2.1', 'Grace@Example.org')).statusCode).toBe(200);
    // The same address typed otherwise, from another client: held already.
    expect((await request('192.0.2.2', ' grace@example.ORG')).statusCode).toBe(200);
    // Another address from the first client: held already.
    expect((await request('192.0.2.1', 'other@example.org')).statusCode).toBe(200);
    // An IPv6 client is its /64.
    expect((await request('2001:db8:1:2::a', 'six@example.org')).statusCode).toBe(200);
    expect((await request('2001:db8:1:2::b', 'six-other@example.org')).statusCode).toBe(200);
    expect((await fullHalfDays()) - before).toBe(2);
    await clearRequests();
  });

  it(`no more than ${OPEN_HOLDS_MAX} requests hold at once`, async () => {
    const before = await fullHalfDays();
    for (let i = 0; i < OPEN_HOLDS_MAX + 2; i += 1)
      expect((await request(`192.0.2.${100 + i}`, `ceiling-${i}@example.org`)).statusCode).toBe(200);
    expect((await fullHalfDays()) - before).toBe(OPEN_HOLDS_MAX);
    await clearRequests();
  });

  it('the owner sees what a request holds and can release it; the request stays', async () => {
    const { date, time } = halfDays[nextHalf]!;
    const asked = await request('192.0.2.200', 'release@example.org');
    expect(asked.statusCode).toBe(200);
    const notHeld = await request('192.0.2.200', 'release-again@example.org');
    expect(notHeld.statusCode).toBe(200);
    const list = (await owner('GET', '/api/owner/bookings?view=requested')).json().items as {
      id: string;
      email: string;
      holdUntil: string | null;
    }[];
    const holding = list.find((b) => b.email === 'release@example.org')!;
    const other = list.find((b) => b.email === 'release-again@example.org')!;
    expect(new Date(holding.holdUntil!).getTime()).toBeGreaterThan(Date.now() + 2.9 * 86_400_000);
    expect(other.holdUntil).toBeNull();
    const halfIndex = (await answer()).halves;
    expect(halfIndex).toContain('b');

    const released = await owner('POST', `/api/owner/bookings/${holding.id}/release-hold`);
    expect(released.statusCode, released.body).toBe(200);
    expect(released.json().message).toMatch(/is open to visitors again\.$/);
    // Free again: another visitor may ask for it.
    expect(
      (
        await t.post(
          bodies.booking(date, { firstChoiceTime: time, email: 'next@example.org' }),
          {},
          '192.0.2.201',
        )
      ).statusCode,
    ).toBe(200);
    expect((await owner('GET', '/api/owner/bookings?view=requested')).json().items).toHaveLength(3);
    const audited = await t.query<{ action: string; target: string }>(
      `select action, target from audit_log where action = 'booking.release-hold'`,
    );
    expect(audited).toHaveLength(1);

    // Released already, or holding nothing: 409; no such booking: 404; no session: 401.
    expect((await owner('POST', `/api/owner/bookings/${holding.id}/release-hold`)).statusCode).toBe(409);
    expect((await owner('POST', `/api/owner/bookings/${other.id}/release-hold`)).statusCode).toBe(409);
    expect(
      (await owner('POST', '/api/owner/bookings/00000000-0000-4000-8000-000000000000/release-hold'))
        .statusCode,
    ).toBe(404);
    expect((await owner('POST', '/api/owner/bookings/not-an-id/release-hold')).statusCode).toBe(404);
    expect((await apiCall(t.app, 'POST', `/api/owner/bookings/${holding.id}/release-hold`)).statusCode).toBe(
      401,
    );
  });
});

describe('a booking’s lead follows the booking', () => {
  let t: FormsTestApp;
  let owner: OwnerCall;
  beforeAll(async () => {
    t = await makeFormsApp();
    owner = asOwner(t.app, await signInOwner(t.app));
  });
  afterAll(async () => {
    await t?.app.close();
  });

  const stateOf = async (reference: string) =>
    (
      await t.query<{ state: string }>(
        `select s.lead_state as state from submissions s join bookings b on b.submission_id = s.id
         where b.reference = '${reference}'`,
      )
    )[0]!.state;

  it('is new while requested, handled once confirmed, moved or cancelled, new again when the applicant asks to move', async () => {
    const asked = await t.post(
      bodies.booking(bookableDate(3), { email: 'follows@example.org' }),
      {},
      '192.0.2.77',
    );
    expect(asked.statusCode, asked.body).toBe(200);
    const reference = asked.json().reference as string;
    expect(await stateOf(reference)).toBe('new');
    const { id } = (
      (await owner('GET', '/api/owner/bookings?view=requested')).json().items as {
        id: string;
        reference: string;
      }[]
    ).find((b) => b.reference === reference)!;

    expect(
      (await owner('POST', `/api/owner/bookings/${id}/confirm`, { body: { choice: 1, start: '10:00' } }))
        .statusCode,
    ).toBe(200);
    expect(await stateOf(reference)).toBe('handled');

    // The applicant asks to move it: the owner's turn again.
    await t.query(
      `update submissions set lead_state = 'new' where id = (select submission_id from bookings where id = '${id}')`,
    );
    expect(leadStateAfter('move-asked')).toBe('new');
    const moved = await owner('POST', `/api/owner/bookings/${id}/reschedule`, {
      body: { date: bookableDate(6), start: '14:00' },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await stateOf(reference)).toBe('handled');

    await t.query(
      `update submissions set lead_state = 'new' where id = (select submission_id from bookings where id = '${id}')`,
    );
    expect((await owner('POST', `/api/owner/bookings/${id}/cancel`)).statusCode).toBe(200);
    expect(await stateOf(reference)).toBe('handled');
  });
});
