/**
 * The Visits page's two shortcuts (decision 043), on PostgreSQL: today counted at
 * most once a minute (by the chores, or by the page when the count is stale) and shared by
 * instances; months summed from their days once every day of them is rolled up, giving the page
 * exactly the figures it gives from the days alone, and left to the days once retention has cut
 * into them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countingChores } from '../../src/features/analytics/analytics-jobs.server';
import { analyticsQuery } from '../../src/features/analytics/analytics-console-contract';
import { analyticsSummary } from '../../src/features/analytics/dashboard.server';
import { countLive, liveFigures, storedLive } from '../../src/features/analytics/live.server';
import { figuresFromViews, rollUpFinishedMonths } from '../../src/features/analytics/rollup.server';
import { addDays } from '../../src/lib/uk-dates';
import { makeFormsApp, testDrivers, type FormsTestApp } from './forms-support';

const drivers = await testDrivers('analytics_live');

/** Noon in London on the day the figures are asked for (BST: 11:00 UTC). */
const TODAY = '2026-06-15';
const NOON = new Date('2026-06-15T11:00:00Z');
const seconds = (s: number) => new Date(NOON.getTime() + s * 1000);

describe.each(drivers)('today counted once a minute, months summed, on $name', (driver) => {
  let t: FormsTestApp;
  let drop: () => Promise<void>;
  const db = () => t.app.services.database.db;
  const summary = (range: string, now: Date, extra: Record<string, string> = {}) =>
    analyticsSummary(db(), analyticsQuery.parse({ range, ...extra }), {
      funnelEnds: {},
      now,
      todayMaxAgeMs: 60_000,
    });
  const chores = (now: Date) =>
    countingChores({
      salts: t.app.services.counting.salts,
      db: db(),
      log: t.app.log,
      todayMaxAgeMs: 60_000,
      now: () => now,
    });
  const addView = (day: string, hour: number, visitor: number, path = '/') =>
    t.query(
      `insert into analytics_views (day, hour, visitor, path, referrer, utm_source, utm_medium, utm_campaign, device)
       values ('${day}', ${hour}, ${visitor}, '${path}', '', '', '', '', 'desktop')`,
    );

  beforeAll(async () => {
    const env = await driver.env();
    drop = env.drop;
    t = await makeFormsApp(env.env, { services: { counting: { now: () => NOON } } });
    // The app's own chores stay out of the way: each test runs them with its own clock.
    await t.app.services.counting.chores.stop();
  });
  afterAll(async () => {
    await t?.app.close();
    await drop?.();
  });

  it('counts today at most once a minute: the chores count, the page reads, a stale count is counted again', async () => {
    await addView(TODAY, 9, 1, '/');
    await addView(TODAY, 9, 1, '/contact');
    await addView(TODAY, 10, 2, '/book');

    await chores(NOON);
    const stored = await storedLive(db());
    expect(stored).toMatchObject({ day: TODAY, totals: { visitors: 2, views: 3 } });
    expect(stored?.countedAt.toISOString()).toBe(NOON.toISOString());
    // The same figures as the statement that rolls up a day.
    const recount = await figuresFromViews(db(), TODAY, TODAY);
    const key = (r: { dimension: string; value: string }) => `${r.dimension}/${r.value}`;
    const sorted = <T extends { dimension: string; value: string }>(rows: T[]) =>
      rows.map((r) => [key(r), (r as unknown as { visitors: number }).visitors]).sort();
    expect(sorted(stored!.rows)).toEqual(sorted(recount.rows));
    expect(stored?.hours).toEqual([
      { hour: 9, visitors: 1, views: 2 },
      { hour: 10, visitors: 1, views: 1 },
    ]);

    // A view after the count is not shown until the count is a minute old.
    await addView(TODAY, 11, 3, '/about');
    const soon = await summary('today', seconds(30));
    expect(soon.totals).toEqual({ visitors: 2, views: 3 });
    expect(soon.todayCountedAt).toBe(NOON.toISOString());
    expect(soon.series.find((p) => p.at === `${TODAY} 09`)).toEqual({
      at: `${TODAY} 09`,
      visitors: 1,
      views: 2,
    });

    const later = await summary('today', seconds(61));
    expect(later.totals).toEqual({ visitors: 3, views: 4 });
    expect(later.todayCountedAt).toBe(seconds(61).toISOString());
    expect(later.pages.map((p) => p.value).sort()).toEqual(['/', '/about', '/book', '/contact']);

    // The chores leave a count younger than 45 seconds alone, and count an older one again.
    await addView(TODAY, 11, 4, '/');
    await chores(seconds(90));
    expect((await storedLive(db()))?.countedAt.toISOString()).toBe(seconds(61).toISOString());
    await chores(seconds(110));
    expect(await storedLive(db())).toMatchObject({ totals: { visitors: 4, views: 5 } });

    // At 0 seconds (VISITS_TODAY_MAX_AGE_SECONDS=0), every look counts today afresh.
    await addView(TODAY, 12, 5, '/');
    const everyLook = await analyticsSummary(db(), analyticsQuery.parse({ range: 'today' }), {
      funnelEnds: {},
      now: seconds(111),
      todayMaxAgeMs: 0,
    });
    expect(everyLook.totals).toEqual({ visitors: 5, views: 6 });
    await addView(TODAY, 12, 6, '/');
    const again = await analyticsSummary(db(), analyticsQuery.parse({ range: 'today' }), {
      funnelEnds: {},
      now: seconds(111),
      todayMaxAgeMs: 0,
    });
    expect(again.totals).toEqual({ visitors: 6, views: 7 });

    // A range without today neither reads nor says a count of today.
    const past = await summary('custom', seconds(120), { from: addDays(TODAY, -3), to: addDays(TODAY, -1) });
    expect(past.todayCountedAt).toBeNull();
  });

  it('two instances counting at once: one count stored, both answered', async () => {
    const [a, b] = await Promise.all([
      countLive(db(), TODAY, seconds(200)),
      countLive(db(), TODAY, seconds(200)),
    ]);
    expect(a.totals).toEqual(b.totals);
    expect(await t.query('select day::text as day from analytics_live_days')).toEqual([{ day: TODAY }]);
    // When the day turns, the new day's count replaces the old day's.
    const tomorrow = addDays(TODAY, 1);
    const next = await liveFigures(db(), tomorrow, seconds(210), 60_000);
    expect(next).toMatchObject({ day: tomorrow, totals: { visitors: 0, views: 0 }, rows: [], hours: [] });
    expect(await t.query('select day::text as day from analytics_live_days')).toEqual([{ day: tomorrow }]);
  });

  it('sums each finished month once, and the page gives the same figures from months as from days', async () => {
    await t.query(
      'truncate analytics_views, analytics_days, analytics_daily, analytics_months, analytics_monthly',
    );
    // Fourteen months of day rollups up to yesterday, every value's figures varying by day.
    const first = '2025-04-20';
    await t.query(`
      insert into analytics_days (day, visitors, views)
      select d::date, 10 + (extract(doy from d)::int % 7), 30 + (extract(doy from d)::int % 11)
      from generate_series('${first}'::date, '${addDays(TODAY, -1)}'::date, interval '1 day') as d`);
    await t.query(`
      insert into analytics_daily (day, dimension, value, visitors, views)
      select day, v.dimension, v.value, 1 + (extract(doy from day)::int * v.k) % 5, 2 + (extract(doy from day)::int * v.k) % 9
      from analytics_days
      cross join (values ('page', '/', 1), ('page', '/book', 2), ('page', '/contact', 3), ('referrer', '', 4),
                         ('referrer', 'www.google.com', 5), ('device', 'mobile', 6), ('funnel', 'contact', 7),
                         ('started', 'contact', 8)) as v(dimension, value, k)`);
    const ranges: [string, Record<string, string>][] = [
      ['12m', {}],
      ['30d', {}],
      ['custom', { from: '2025-05-01', to: '2026-03-31' }],
      ['custom', { from: '2025-05-17', to: '2025-08-02' }],
      ['custom', { from: first, to: addDays(TODAY, -1) }],
    ];
    const fromDays = [];
    for (const [range, extra] of ranges) fromDays.push(await summary(range, seconds(300), extra));

    const yesterday = addDays(TODAY, -1);
    const months = await rollUpFinishedMonths(db(), yesterday, '2021-06-15');
    expect(months).toEqual([
      '2025-04-01',
      '2025-05-01',
      '2025-06-01',
      '2025-07-01',
      '2025-08-01',
      '2025-09-01',
      '2025-10-01',
      '2025-11-01',
      '2025-12-01',
      '2026-01-01',
      '2026-02-01',
      '2026-03-01',
      '2026-04-01',
      '2026-05-01',
    ]);
    expect(await rollUpFinishedMonths(db(), yesterday, '2021-06-15')).toEqual([]);
    // Each month row is its days' sum (June 2026 is not finished and has none).
    expect(
      await t.query(`
        select m.month::text as month from analytics_monthly m
        full join (select date_trunc('month', day)::date as month, dimension, value, sum(visitors)::int as visitors, sum(views)::int as views
                   from analytics_daily where day < '2026-06-01' group by 1, 2, 3) d
          on d.month = m.month and d.dimension = m.dimension and d.value = m.value
        where m.visitors is distinct from d.visitors or m.views is distinct from d.views`),
    ).toEqual([]);
    expect(
      await t.query(`select count(*)::int as n from analytics_monthly where month = '2026-06-01'`),
    ).toEqual([{ n: 0 }]);

    const fromMonths = [];
    for (const [range, extra] of ranges) fromMonths.push(await summary(range, seconds(300), extra));
    expect(fromMonths).toEqual(fromDays);

    // The page reads a whole month from its month rows and a part of one from its days: a day row
    // changed after its month was summed shows in the part and not in the whole.
    const september = { from: '2025-09-01', to: '2025-09-30' };
    const partOf = { from: '2025-09-05', to: '2025-09-20' };
    const bookViews = (s: Awaited<ReturnType<typeof summary>>) =>
      s.pages.find((p) => p.value === '/book')?.views;
    const wholeBefore = bookViews(await summary('custom', seconds(300), september));
    const partBefore = bookViews(await summary('custom', seconds(300), partOf));
    await t.query(
      `update analytics_daily set views = views + 1000 where day = '2025-09-10' and dimension = 'page' and value = '/book'`,
    );
    expect(bookViews(await summary('custom', seconds(300), september))).toBe(wholeBefore);
    expect(bookViews(await summary('custom', seconds(300), partOf))).toBe(partBefore! + 1000);
  });

  it('a month whose first days retention deleted is dropped and read from the days kept', async () => {
    // Sixty months after 10 May 2025: the rollups kept start on 10 May 2025.
    const later = new Date('2030-05-10T11:00:00Z');
    await chores(later);
    const months = (
      await t.query<{ month: string }>('select month::text as month from analytics_months order by 1')
    ).map((r) => r.month);
    expect(months).not.toContain('2025-04-01');
    expect(months).not.toContain('2025-05-01');
    expect(months).toContain('2025-06-01');
    expect(
      await t.query(`select count(*)::int as n from analytics_monthly where month < '2025-05-10'`),
    ).toEqual([{ n: 0 }]);
    const may = await summary('custom', later, { from: '2025-05-01', to: '2025-05-31' });
    const [kept] = await t.query<{ views: number }>(
      `select sum(views)::int as views from analytics_days where day between '2025-05-10' and '2025-05-31'`,
    );
    expect(may.totals.views).toBe(kept?.views);
    expect(may.pages.reduce((n, p) => n + p.views, 0)).toBe(
      (
        await t.query<{ views: number }>(
          `select sum(views)::int as views from analytics_daily where dimension = 'page' and day between '2025-05-10' and '2025-05-31'`,
        )
      )[0]?.views,
    );
  });
});
