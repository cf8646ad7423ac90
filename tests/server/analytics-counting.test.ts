/**
 * Counting visits without cookies (issue #27 item 1, decision 042), on PostgreSQL: a
 * view is stored with the path, the referrer's host, the UTM tags, a device class and the hour,
 * never the address or the user agent; one browser is one visitor a day; the day's salt rotates
 * at UK midnight and the old one is gone from memory and database; bots, prefetches, Global
 * Privacy Control, Do Not Track and the console's signed-in browser are not counted; a form's
 * first fill-time token marks a start; the rollups of a day equal a recount of its raw views.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { VIEWS_API } from '../../src/content/analytics';
import { countingChores } from '../../src/features/analytics/analytics-jobs.server';
import { figuresFromViews, rollUpDay } from '../../src/features/analytics/rollup.server';
import { makeFormsApp, testDrivers, type FormsTestApp } from './forms-support';
import { signInOwner } from './owner-session';

const drivers = await testDrivers('analytics_counting');
const ORIGIN = 'https://www.sterling.test';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

describe.each(drivers)('counting visits on $name', (driver) => {
  let t: FormsTestApp;
  let drop: () => Promise<void>;
  // The app's clock, moved by the tests: 14:30 UK time on a winter day.
  let clock = new Date('2026-01-14T14:30:00Z');

  beforeAll(async () => {
    const db = await driver.env();
    drop = db.drop;
    t = await makeFormsApp(db.env, { services: { counting: { now: () => clock } } });
  });
  afterAll(async () => {
    await t?.app.close();
    await drop?.();
  });
  beforeEach(async () => {
    clock = new Date('2026-01-14T14:30:00Z');
    await t.query(
      'truncate analytics_views, analytics_form_starts, analytics_daily, analytics_days, analytics_salts',
    );
  });

  const view = (
    body: Record<string, unknown>,
    headers: Record<string, string> = {},
    remoteAddress = '203.0.113.7',
  ) =>
    t.app.inject({
      method: 'POST',
      url: VIEWS_API,
      remoteAddress,
      headers: { origin: ORIGIN, 'content-type': 'application/json', 'user-agent': FIREFOX, ...headers },
      payload: JSON.stringify(body),
    });

  const views = () =>
    t.query<Record<string, unknown>>(
      'select day::text as day, hour, visitor::text as visitor, path, referrer, utm_source, utm_medium, utm_campaign, device from analytics_views order by path',
    );

  it('stores the path, the referrer host, the tags, the device and the hour, and nothing of the person', async () => {
    const res = await view({
      p: '/services',
      r: 'https://www.linkedin.com/feed/update/urn:li:activity:123?trk=abc',
      s: 'LinkedIn',
      m: 'social',
      c: 'Spring Webinar',
    });
    expect(res.statusCode).toBe(204);
    const [row] = await views();
    expect(row).toMatchObject({
      day: '2026-01-14',
      hour: 14,
      path: '/services',
      referrer: 'linkedin.com',
      utm_source: 'linkedin',
      utm_medium: 'social',
      utm_campaign: 'spring webinar',
      device: 'desktop',
    });
    const stored = JSON.stringify(await t.query('select *, visitor::text as visitor from analytics_views'));
    expect(stored).not.toContain('203.0.113.7');
    expect(stored).not.toContain('Firefox');
    expect(stored).not.toContain('urn:li');
  });

  it('tells one browser from another for a day, and the same browser apart the next day', async () => {
    await view({ p: '/' });
    await view({ p: '/about' });
    await view({ p: '/contact' }, { 'user-agent': IPHONE });
    const today = await views();
    expect(new Set(today.map((r) => r.visitor)).size).toBe(2);
    expect(today.find((r) => r.path === '/contact')?.device).toBe('mobile');

    clock = new Date('2026-01-15T09:00:00Z');
    await view({ p: '/' });
    const all = await views();
    const next = all.find((r) => r.day === '2026-01-15');
    expect(today.map((r) => r.visitor)).not.toContain(next?.visitor);
  });

  it('rotates the salt at UK midnight: the old one is gone from memory and database', async () => {
    // 23:59 on a summer day in London is 22:59 UTC.
    clock = new Date('2026-07-01T22:59:00Z');
    await view({ p: '/' });
    expect(t.app.services.counting.salts.heldDay()).toBe('2026-07-01');
    expect(await t.query('select day::text as day from analytics_salts')).toEqual([{ day: '2026-07-01' }]);

    clock = new Date('2026-07-01T23:00:30Z');
    await countingChores({
      salts: t.app.services.counting.salts,
      db: t.app.services.database.db,
      log: t.app.log,
      todayMaxAgeMs: 60_000,
      now: () => clock,
    });
    expect(t.app.services.counting.salts.heldDay()).toBeUndefined();
    expect(await t.query('select * from analytics_salts')).toEqual([]);

    await view({ p: '/' });
    expect(t.app.services.counting.salts.heldDay()).toBe('2026-07-02');
    expect(await t.query('select day::text as day from analytics_salts')).toEqual([{ day: '2026-07-02' }]);

    // In winter UK midnight is UTC midnight.
    clock = new Date('2026-12-31T23:59:30Z');
    await view({ p: '/' });
    expect(t.app.services.counting.salts.heldDay()).toBe('2026-12-31');
    clock = new Date('2027-01-01T00:00:10Z');
    await countingChores({
      salts: t.app.services.counting.salts,
      db: t.app.services.database.db,
      log: t.app.log,
      todayMaxAgeMs: 60_000,
      now: () => clock,
    });
    expect(t.app.services.counting.salts.heldDay()).toBeUndefined();
    expect(await t.query('select * from analytics_salts')).toEqual([]);
  });

  it('counts no bot, prefetch, Global Privacy Control, Do Not Track or console browser', async () => {
    const refused = [
      await view(
        { p: '/' },
        { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' },
      ),
      await view({ p: '/' }, { 'user-agent': '' }),
      await view({ p: '/' }, { 'sec-purpose': 'prefetch' }),
      await view({ p: '/' }, { 'sec-purpose': 'prefetch;prerender' }),
      await view({ p: '/' }, { 'sec-gpc': '1' }),
      await view({ p: '/' }, { dnt: '1' }),
      await view({ p: '/' }, { cookie: await signInOwner(t.app) }),
    ];
    // Answered alike, so nothing learns whether it was counted.
    expect(refused.map((r) => r.statusCode)).toEqual([204, 204, 204, 204, 204, 204, 204]);
    expect(await views()).toEqual([]);
    // A cookie that is no session's is a visitor like any other.
    await view({ p: '/' }, { cookie: 'sid=nothing' });
    expect(await views()).toHaveLength(1);
  });

  it("does not keep a console session alive by the owner's browsing of the site", async () => {
    const cookie = await signInOwner(t.app);
    await t.query(`update owner_sessions set last_seen_at = now() - interval '10 minutes'`);
    const before = await t.query<{ seen: string }>('select last_seen_at::text as seen from owner_sessions');
    await view({ p: '/' }, { cookie });
    expect(await t.query('select last_seen_at::text as seen from owner_sessions')).toEqual(before);
    expect(await views()).toEqual([]);
  });

  it('refuses another site, and a body that is not a page view, with no 5xx', async () => {
    expect((await view({ p: '/' }, { origin: 'https://evil.example' })).statusCode).toBe(403);
    for (const body of [
      {},
      { p: 'services' },
      { p: 7 },
      { p: '/'.repeat(600) },
      { p: '/', s: 'x'.repeat(600) },
    ]) {
      expect((await view(body)).statusCode).toBe(400);
    }
    const raw = await t.app.inject({
      method: 'POST',
      url: VIEWS_API,
      headers: { origin: ORIGIN, 'content-type': 'application/json', 'user-agent': FIREFOX },
      payload: '{"p":',
    });
    expect(raw.statusCode).toBe(400);
    expect(await views()).toEqual([]);
  });

  it('reads the text/plain body sendBeacon posts, and never counts the console', async () => {
    const beacon = (p: string) =>
      t.app.inject({
        method: 'POST',
        url: VIEWS_API,
        remoteAddress: '203.0.113.8',
        headers: { origin: ORIGIN, 'content-type': 'text/plain;charset=UTF-8', 'user-agent': FIREFOX },
        payload: JSON.stringify({ p, r: '', s: null, m: null, c: null }),
      });
    expect((await beacon('/about')).statusCode).toBe(204);
    expect((await beacon('/owner')).statusCode).toBe(204);
    expect((await beacon('/owner/inbox')).statusCode).toBe(204);
    expect((await views()).map((r) => r.path)).toEqual(['/about']);
  });

  it('counts an unknown page as /404, and cleans tags and referrers', async () => {
    await view({ p: '/no-such-page?x=1', r: 'javascript:alert(1)', c: 'a\u202ebc\u0007' });
    await view({ p: '/about/', r: `${ORIGIN}/services` });
    const rows = await views();
    expect(rows.map((r) => r.path)).toEqual(['/404', '/about']);
    expect(rows.map((r) => r.referrer)).toEqual(['', '']);
    expect(rows[0]?.utm_campaign).toBe('abc');
  });

  it('caps one address at 120 views a minute, answering alike', async () => {
    const answers = await Promise.all(
      Array.from({ length: 125 }, () => view({ p: '/' }, {}, '198.51.100.9')),
    );
    expect(answers.every((r) => r.statusCode === 204)).toBe(true);
    expect(await views()).toHaveLength(120);
  });

  it("marks a form's start at its first fill-time token, not at a renewal", async () => {
    const token = await t.app.inject({
      method: 'POST',
      url: '/api/form-token',
      remoteAddress: '203.0.113.7',
      headers: { origin: ORIGIN, 'content-type': 'application/json', 'user-agent': FIREFOX },
      payload: JSON.stringify({ formType: 'contact' }),
    });
    expect(token.statusCode).toBe(200);
    await t.app.inject({
      method: 'POST',
      url: '/api/form-token',
      remoteAddress: '203.0.113.7',
      headers: { origin: ORIGIN, 'content-type': 'application/json', 'user-agent': FIREFOX },
      payload: JSON.stringify({ formType: 'contact', renew: (token.json() as { token: string }).token }),
    });
    await view({ p: '/contact' });
    const starts = await t.query<{ form_type: string; visitor: string }>(
      'select form_type, visitor::text as visitor from analytics_form_starts',
    );
    expect(starts).toHaveLength(1);
    expect(starts[0]?.form_type).toBe('contact');
    expect(starts[0]?.visitor).toBe((await views())[0]?.visitor);
  });

  it('rolls up a finished day once, equal to a recount of its raw views', async () => {
    const pages = ['/', '/about', '/contact', '/book', '/resources'];
    for (let i = 0; i < 40; i += 1) {
      await view(
        {
          p: pages[i % 5],
          ...(i % 3 === 0 ? { r: 'https://news.example.com/x', s: 'news', c: `c${i % 2}` } : {}),
        },
        { 'user-agent': i % 4 === 0 ? IPHONE : FIREFOX },
        `203.0.113.${i % 7}`,
      );
    }
    const live = await figuresFromViews(t.app.services.database.db, '2026-01-14', '2026-01-14');
    // A few minutes after midnight the day is left alone (a view of 23:59:59 may still be on its way).
    clock = new Date('2026-01-15T00:03:00Z');
    expect(
      await countingChores({
        salts: t.app.services.counting.salts,
        db: t.app.services.database.db,
        log: t.app.log,
        todayMaxAgeMs: 60_000,
        now: () => clock,
      }),
    ).toEqual([]);
    clock = new Date('2026-01-15T00:06:00Z');
    const rolled = await countingChores({
      salts: t.app.services.counting.salts,
      db: t.app.services.database.db,
      log: t.app.log,
      todayMaxAgeMs: 60_000,
      now: () => clock,
    });
    expect(rolled).toEqual(['2026-01-14']);
    expect(await rollUpDay(t.app.services.database.db, '2026-01-14')).toBe(false);
    const [day] = await t.query<{ visitors: number; views: number }>(
      'select visitors, views from analytics_days',
    );
    expect(day).toEqual(live.days[0] && { visitors: live.days[0].visitors, views: live.days[0].views });
    expect(day?.views).toBe(40);
    // Recounted plainly, by another statement than the one that made the rollup.
    const recount = await t.query<{ dimension: string; value: string; visitors: number; views: number }>(`
      select 'device' as dimension, device as value, count(distinct visitor)::int as visitors, count(*)::int as views
        from analytics_views where day = '2026-01-14' group by device
      union all
      select 'page', path, count(distinct visitor)::int, count(*)::int from analytics_views where day = '2026-01-14' group by path
      order by 1, 2`);
    // Referrers per visit, counted here in order of arrival: a view with a referrer or a tag
    // starts a visit, and the views after it are that visit's.
    const raw = await t.query<{ visitor: string; referrer: string; tagged: boolean }>(
      `select visitor::text as visitor, referrer, (utm_source <> '' or utm_medium <> '' or utm_campaign <> '') as tagged
       from analytics_views where day = '2026-01-14' order by ctid`,
    );
    const visitOf = new Map<string, string>();
    const referrers = new Map<string, { visitors: Set<string>; views: number }>();
    for (const view of raw) {
      if (view.referrer !== '' || view.tagged || !visitOf.has(view.visitor))
        visitOf.set(view.visitor, view.referrer);
      const referrer = visitOf.get(view.visitor)!;
      const entry = referrers.get(referrer) ?? { visitors: new Set<string>(), views: 0 };
      entry.visitors.add(view.visitor);
      entry.views += 1;
      referrers.set(referrer, entry);
    }
    recount.push(
      ...[...referrers]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([value, e]) => ({ dimension: 'referrer', value, visitors: e.visitors.size, views: e.views })),
    );
    const stored0 = await t.query<{ dimension: string; value: string; visitors: number; views: number }>(
      `select dimension, value, visitors, views from analytics_daily where dimension in ('device', 'page', 'referrer') order by 1, 2`,
    );
    expect(stored0).toEqual(recount);
    expect(
      await t.query(
        `select count(distinct visitor)::int as visitors from analytics_views where day = '2026-01-14'`,
      ),
    ).toEqual([{ visitors: day?.visitors }]);
    const stored = await t.query<{ dimension: string; value: string; visitors: number; views: number }>(
      'select dimension, value, visitors, views from analytics_daily order by dimension, value',
    );
    const key = (r: { dimension: string; value: string }) => `${r.dimension}/${r.value}`;
    expect(stored.map((r) => [key(r), r.visitors, r.views])).toEqual(
      [...live.rows]
        .sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0))
        .map((r) => [key(r), r.visitors, r.views]),
    );
  });

  it('deletes views after their period, and keeps the rollups', async () => {
    await view({ p: '/' });
    clock = new Date('2026-02-20T12:00:00Z');
    await countingChores({
      salts: t.app.services.counting.salts,
      db: t.app.services.database.db,
      log: t.app.log,
      todayMaxAgeMs: 60_000,
      now: () => clock,
    });
    expect(await views()).toEqual([]);
    expect(await t.query('select day::text as day, views from analytics_days where views > 0')).toEqual([
      { day: '2026-01-14', views: 1 },
    ]);
  });
});
