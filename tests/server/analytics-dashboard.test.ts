/**
 * The Visits page's figures (decision 042), on PostgreSQL: raw views and form starts
 * seeded with fixed visitors, submissions with their bookings and registrations; the summary of a
 * range and of the range before it, the series with its empty days, the top values of each
 * dimension ('' for none), goals without spam, and each form's funnel with its rates. Rolling the
 * days up gives the same answer as reading the raw views ("rollups equal a recount"). Malformed
 * ranges are 400s with a sentence; the weekly report's switch is saved and audited; a helper is
 * refused every route of the area.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AnalyticsSettings,
  AnalyticsSummary,
} from '../../src/features/analytics/analytics-console-contract';
import { rollUpDay } from '../../src/features/analytics/rollup.server';
import { addDays, ukDateOf, ukWallTimeToInstant } from '../../src/lib/uk-dates';
import { makeFormsApp, testDrivers, type FormsTestApp } from './forms-support';
import { asOwner, signInOwner, type OwnerCall } from './owner-session';

const drivers = await testDrivers('analytics');
const HELPER = 'grace@sterling.test';

const T = ukDateOf(new Date());
const day = (n: number) => addDays(T, n);

/** [days from today, hour, visitor, path, referrer, device, utm source, medium, campaign] */
type View = [number, number, number, string, string, string, string?, string?, string?];
const VIEWS: View[] = [
  // Two days ago: visitor 1 from Google reads the home page then the contact page; visitor 2
  // comes from a newsletter's link to the contact page; visitor 3 from LinkedIn to /book.
  [-2, 9, 1, '/', 'www.google.com', 'desktop'],
  [-2, 9, 1, '/contact', '', 'desktop'],
  [-2, 10, 2, '/contact', '', 'mobile', 'newsletter', 'email', 'spring'],
  [-2, 11, 3, '/book', 'www.linkedin.com', 'tablet'],
  // Yesterday (visitor 1 is another visitor on another day).
  [-1, 8, 1, '/', '', 'desktop'],
  [-1, 12, 4, '/resources', 'duckduckgo.com', 'mobile'],
  [-1, 12, 4, '/resources', '', 'mobile'],
  // Today, at midnight's hour (so it is never after the clock).
  [0, 0, 5, '/contact', '', 'desktop'],
  [0, 0, 6, '/', 'www.google.com', 'mobile'],
  // The week before.
  [-8, 14, 7, '/', '', 'desktop'],
  [-8, 15, 8, '/', '', 'desktop'],
];
/** [days from today, form type, visitor] */
const STARTS: [number, string, number][] = [
  [-2, 'contact', 1],
  [-2, 'contact', 2],
  [-2, 'booking', 3],
];

describe.each(drivers)('the Visits page on $name', (driver) => {
  let t: FormsTestApp;
  let drop: () => Promise<void>;
  let owner: OwnerCall;
  let helper: OwnerCall;

  const summary = async (query: string) => {
    const res = await owner('GET', `/api/owner/analytics?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as AnalyticsSummary;
  };

  /** A submission received at noon (UK) `n` days from today: its id. */
  async function submission(n: number, formType: string, spam = false): Promise<string> {
    const at = ukWallTimeToInstant(day(n), '12:00').toISOString();
    const [row] = await t.query<{ id: string }>(
      `insert into submissions (id, form_type, fields, received_at, spam)
       values (gen_random_uuid(), '${formType}', '{}'::jsonb, '${at}', ${spam}) returning id`,
    );
    return row!.id;
  }

  beforeAll(async () => {
    const db = await driver.env();
    drop = db.drop;
    t = await makeFormsApp(
      { HELPER_EMAILS: `Grace <${HELPER}>`, ...db.env },
      // The counting's chores see a day long past: they roll up and delete nothing of this test's.
      { services: { counting: { now: () => new Date('2000-01-01T12:00:00Z') } } },
    );
    owner = asOwner(t.app, await signInOwner(t.app));
    helper = asOwner(t.app, await signInOwner(t.app, HELPER));

    const values = VIEWS.map(
      ([n, hour, visitor, path, referrer, device, source = '', medium = '', campaign = '']) =>
        `('${day(n)}', ${hour}, ${visitor}, '${path}', '${referrer}', '${source}', '${medium}', '${campaign}', '${device}')`,
    );
    await t.query(
      `insert into analytics_views (day, hour, visitor, path, referrer, utm_source, utm_medium, utm_campaign, device)
       values ${values.join(', ')}`,
    );
    await t.query(
      `insert into analytics_form_starts (day, form_type, visitor)
       values ${STARTS.map(([n, form, visitor]) => `('${day(n)}', '${form}', ${visitor})`).join(', ')}`,
    );

    // Goals: a contact message sent (and one held as spam), one the week before; a booking the
    // owner confirmed and one left waiting; two masterclass registrations, one with a place.
    await submission(-2, 'contact');
    await submission(-2, 'contact', true);
    await submission(-8, 'contact');
    const booked = await submission(-2, 'booking');
    const waiting = await submission(-1, 'booking');
    await t.query(
      `insert into bookings (id, submission_id, reference, status, session_type, first_choice_date, first_choice_time)
       values ('00000000-0000-4000-8000-00000000b001', '${booked}', 'BK-AAAAAA', 'cancelled', 'inPerson', '${day(20)}', 'morning'),
              ('00000000-0000-4000-8000-00000000b002', '${waiting}', 'BK-AAAAAB', 'requested', 'inPerson', '${day(21)}', 'morning')`,
    );
    // Confirmed by the owner, then cancelled: it reached the funnel's end all the same.
    await t.query(
      `insert into booking_status_events (booking_id, status, actor)
       values ('00000000-0000-4000-8000-00000000b001', 'requested', 'applicant'),
              ('00000000-0000-4000-8000-00000000b001', 'confirmed', 'owner'),
              ('00000000-0000-4000-8000-00000000b001', 'cancelled', 'applicant'),
              ('00000000-0000-4000-8000-00000000b002', 'requested', 'applicant')`,
    );
    const placed = await submission(-1, 'masterclass');
    const waitlisted = await submission(-1, 'masterclass');
    await t.query(
      `insert into events (id, slug, title, summary, starts_at, ends_at, mode, capacity, status)
       values ('00000000-0000-4000-8000-0000000e0001', 'bitcoin-basics-00000000', 'Bitcoin basics', 'An evening', now() + interval '9 days',
               now() + interval '9 days 2 hours', 'online', 1, 'published')`,
    );
    await t.query(
      `insert into event_registrations (id, event_id, submission_id, person_key, status)
       values (gen_random_uuid(), '00000000-0000-4000-8000-0000000e0001', '${placed}', 'a', 'registered'),
              (gen_random_uuid(), '00000000-0000-4000-8000-0000000e0001', '${waitlisted}', 'b', 'waitlisted')`,
    );
  });
  afterAll(async () => {
    await t?.app.close();
    await drop?.();
  });

  it('the last 7 days: totals, the week before, the series with its empty days', async () => {
    const s = await summary('range=7d');
    expect(s).toMatchObject({
      range: '7d',
      from: day(-6),
      to: T,
      previousFrom: day(-13),
      previousTo: day(-7),
    });
    expect(s.totals).toEqual({ visitors: 7, views: 9 });
    expect(s.previousTotals).toEqual({ visitors: 2, views: 2 });
    expect(s.series.map((p) => p.at)).toEqual([-6, -5, -4, -3, -2, -1, 0].map(day));
    expect(s.series.map((p) => [p.visitors, p.views])).toEqual([
      [0, 0],
      [0, 0],
      [0, 0],
      [0, 0],
      [3, 4],
      [2, 3],
      [2, 2],
    ]);
  });

  it('pages, referrers (none as an empty value), campaigns and devices, most visitors first', async () => {
    const s = await summary('range=7d');
    expect(s.pages).toEqual([
      { value: '/', visitors: 3, views: 3 },
      { value: '/contact', visitors: 3, views: 3 },
      { value: '/resources', visitors: 1, views: 2 },
      { value: '/book', visitors: 1, views: 1 },
    ]);
    expect(s.referrers).toEqual([
      { value: '', visitors: 3, views: 3 },
      { value: 'www.google.com', visitors: 2, views: 3 },
      { value: 'duckduckgo.com', visitors: 1, views: 2 },
      { value: 'www.linkedin.com', visitors: 1, views: 1 },
    ]);
    expect(s.utmSources).toEqual([{ value: 'newsletter', visitors: 1, views: 1 }]);
    expect(s.utmMediums).toEqual([{ value: 'email', visitors: 1, views: 1 }]);
    expect(s.utmCampaigns).toEqual([{ value: 'spring', visitors: 1, views: 1 }]);
    expect(s.devices).toEqual([
      { value: 'desktop', visitors: 3, views: 4 },
      { value: 'mobile', visitors: 3, views: 4 },
      { value: 'tablet', visitors: 1, views: 1 },
    ]);
  });

  it('goals count the sent forms without spam, beside the range before', async () => {
    const s = await summary('range=7d');
    const goal = (formType: string) => s.goals.find((g) => g.formType === formType);
    expect(goal('contact')).toMatchObject({ name: 'Contact message', count: 1, previous: 1 });
    expect(goal('booking')).toMatchObject({ count: 2, previous: 0 });
    expect(goal('masterclass')).toMatchObject({ count: 2, previous: 0 });
    expect(goal('newsletter')).toMatchObject({ count: 0, previous: 0 });
  });

  it('each funnel: visited, started, sent and its end, each rate of the step before', async () => {
    const s = await summary('range=7d');
    const funnel = (formType: string) => s.funnels.find((f) => f.formType === formType)?.steps;
    expect(funnel('contact')).toEqual([
      { label: 'Visited the page', count: 3, rate: null },
      { label: 'Started the form', count: 2, rate: 2 / 3 },
      { label: 'Sent', count: 1, rate: 0.5 },
    ]);
    expect(funnel('booking')).toEqual([
      { label: 'Visited the page', count: 1, rate: null },
      { label: 'Started the form', count: 1, rate: 1 },
      { label: 'Sent', count: 2, rate: 1 },
      { label: 'Confirmed by the owner', count: 1, rate: 0.5 },
    ]);
    expect(funnel('masterclass')).toEqual([
      { label: 'Visited the page', count: 1, rate: null },
      { label: 'Started the form', count: 0, rate: 0 },
      { label: 'Sent', count: 2, rate: null },
      { label: 'Got a place', count: 1, rate: 0.5 },
    ]);
    expect(funnel('bitcoin_guide')?.[0]).toEqual({ label: 'Visited the page', count: 4, rate: null });
  });

  it('today is counted per hour; a custom range has the days before it as its previous', async () => {
    const today = await summary('range=today');
    expect(today).toMatchObject({ from: T, to: T, previousFrom: day(-1), previousTo: day(-1) });
    expect(today.totals).toEqual({ visitors: 2, views: 2 });
    expect(today.previousTotals).toEqual({ visitors: 2, views: 3 });
    expect(today.series[0]).toEqual({ at: `${T} 00`, visitors: 2, views: 2 });
    expect(today.series.slice(1).every((p) => p.visitors === 0 && p.at.startsWith(`${T} `))).toBe(true);

    const custom = await summary(`range=custom&from=${day(-2)}&to=${day(-1)}`);
    expect(custom).toMatchObject({ previousFrom: day(-4), previousTo: day(-3) });
    expect(custom.totals).toEqual({ visitors: 5, views: 7 });
    expect(custom.previousTotals).toEqual({ visitors: 0, views: 0 });
    expect(custom.series).toHaveLength(2);
    expect(custom.goals.find((g) => g.formType === 'contact')?.count).toBe(1);

    const twelve = await summary('range=12m');
    expect(twelve).toMatchObject({ from: day(-364), to: T, previousFrom: day(-729), previousTo: day(-365) });
    expect(twelve.series).toHaveLength(365);
    expect(twelve.totals).toEqual({ visitors: 9, views: 11 });
  });

  it('a malformed range is a 400 with a sentence, never a 500', async () => {
    for (const query of [
      'range=x',
      'range=custom',
      `range=custom&from=${day(-1)}`,
      `range=custom&from=${day(0)}&to=${day(-1)}`,
      `range=custom&from=0000-99-99&to=${day(0)}`,
      `range=custom&from=1999-12-31&to=${day(0)}`,
      'range=custom&from=2020-01-01&to=2026-01-02',
      'range=7d&from=yesterday',
    ]) {
      const res = await owner('GET', `/api/owner/analytics?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect((res.json() as { error: string }).error, query).toMatch(/^[A-Z].*\.$/);
    }
  });

  it('the weekly report is on until switched off; the switch is saved and audited', async () => {
    const read = async () =>
      (await owner('GET', '/api/owner/analytics/settings')).json() as AnalyticsSettings;
    expect(await read()).toEqual({ weeklyReport: true });

    const off = await owner('POST', '/api/owner/analytics/settings', { body: { weeklyReport: false } });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({ weeklyReport: false });
    expect(await read()).toEqual({ weeklyReport: false });
    // Saving the same again changes nothing, and records nothing.
    await owner('POST', '/api/owner/analytics/settings', { body: { weeklyReport: false } });
    const on = await owner('POST', '/api/owner/analytics/settings', { body: { weeklyReport: true } });
    expect(on.json()).toEqual({ weeklyReport: true });

    const rows = await t.query<{ actor: string; detail: unknown }>(
      `select actor, detail from audit_log where action = 'analytics.weekly-report' order by id`,
    );
    expect(rows).toEqual([
      { actor: 'owner@sterling.test', detail: { on: false } },
      { actor: 'owner@sterling.test', detail: { on: true } },
    ]);
    const audit = await owner('GET', '/api/owner/audit');
    expect(audit.body).toContain('switched the weekly report off');

    const bad = await owner('POST', '/api/owner/analytics/settings', { body: { weeklyReport: 'no' } });
    expect(bad.statusCode).toBe(400);
  });

  it('a helper is refused every route of the Visits page', async () => {
    for (const [method, url] of [
      ['GET', '/api/owner/analytics?range=7d'],
      ['GET', '/api/owner/analytics/settings'],
      ['POST', '/api/owner/analytics/settings'],
    ] as const) {
      const res = await helper(method, url, method === 'POST' ? { body: { weeklyReport: false } } : {});
      expect(res.statusCode, url).toBe(403);
    }
    expect((await owner('GET', '/api/owner/analytics/settings')).json()).toEqual({ weeklyReport: true });
  });

  it('rollups equal a recount of the raw views', async () => {
    const queries = ['range=7d', 'range=30d', 'range=today', `range=custom&from=${day(-2)}&to=${day(-1)}`];
    const before = await Promise.all(queries.map(summary));
    const db = t.app.services.database.db;
    for (let n = -40; n <= -1; n += 1) await rollUpDay(db, day(n));
    const rolled = await t.query<{ days: number }>('select count(*)::int as days from analytics_days');
    expect(rolled).toEqual([{ days: 40 }]);
    const after = await Promise.all(queries.map(summary));
    expect(after).toEqual(before);
  });
});
