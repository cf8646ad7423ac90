/**
 * The analytics part's database (scripts/bench-analytics.mjs): the beacons' pages, referrers and
 * UTM tags, and the dashboard's seed. Three years of rollups (`analytics_days`,
 * `analytics_daily`) adding up to exactly 10,000,000 views, their finished months summed as the
 * chores sum them (`analytics_months`, `analytics_monthly`), and the raw views of the last 30
 * days (`analytics_views`) at the same daily volume, written by a few statements of
 * generate_series on the database our server migrated, with no server running on it. Today is
 * not counted by the seed: the server counts it (decision 043).
 */
import { FORM_GOALS } from '../src/content/analytics.ts';
import { articlePath } from '../src/content/articles.ts';
import { PUBLIC_PATHS } from '../src/content/routes.ts';
import { readArticleFiles } from './articles.ts';
import { withBenchClient } from './bench-database.mjs';

/** Views in the seeded rollups, over `SEED_DAYS` days before today. */
export const SEED_VIEWS = 10_000_000;
const SEED_DAYS = 3 * 365;

/**
 * `fn({ query(text, params) -> rows })` on the database, with no server running on it: the
 * embedded cluster of `dataDir` (started for the while) or Postgres at `databaseUrl`.
 */
export function withDatabase(store, fn) {
  return withBenchClient(store, (client) =>
    fn({ query: async (text, params) => (await client.query(text, params)).rows }),
  );
}

/** The site's pages a beacon names: every public page, the articles' list and every article. */
export const sitePaths = () => [
  ...PUBLIC_PATHS,
  '/resources/articles',
  ...readArticleFiles().map((a) => articlePath(a.slug)),
];

export const REFERRERS = [
  'www.google.com',
  'www.google.co.uk',
  'www.bing.com',
  'duckduckgo.com',
  'www.linkedin.com',
  'x.com',
  'www.facebook.com',
  'www.reddit.com',
  'news.ycombinator.com',
  'www.ft.com',
  'www.unbiased.co.uk',
  'bitcoinmagazine.com',
];
export const TAGS = [
  ['newsletter', 'email', 'april-masterclass'],
  ['linkedin', 'social', 'tax-year-end'],
  ['google', 'cpc', 'bitcoin-for-professionals'],
  ['podcast', 'audio', 'episode-42'],
  ['partner', 'referral', 'ifa-network'],
];
// ---------------------------------------------------------------------------------------------
// The dashboard's seed

/** Shares that fall off as 1/k (Zipf), for `n` values. */
function zipf(n, total = 1) {
  const h = Array.from({ length: n }, (_, k) => 1 / (k + 1)).reduce((a, b) => a + b, 0);
  return Array.from({ length: n }, (_, k) => total / (k + 1) / h);
}

/**
 * Every day's rows of `analytics_daily`, as shares of the day's views: a row's views are the
 * day's views times its share, its visitors its views times `perVisitor`.
 */
function dailyValues(paths) {
  const rows = [];
  const add = (dimension, values, shares, perVisitor) =>
    values.forEach((value, k) => rows.push({ dimension, value, share: shares[k], per_visitor: perVisitor }));
  const pages = [...paths, '/404'];
  for (let i = 1; pages.length < 30; i += 1) pages.push(`/resources/articles/older-article-${i}`);
  add('page', pages, zipf(pages.length), 0.8);
  const referrers = [...REFERRERS];
  for (let i = 1; referrers.length < 49; i += 1) referrers.push(`blog-${i}.example.co.uk`);
  add('referrer', ['', ...referrers], [0.55, ...zipf(49, 0.45)], 0.4);
  add('source', [...new Set(TAGS.map((t) => t[0])), 'twitter'], zipf(6, 0.08), 0.4);
  add('medium', [...new Set(TAGS.map((t) => t[1]))], zipf(5, 0.08), 0.4);
  const campaigns = [...TAGS.map((t) => t[2]), 'budget-2025', 'isa-season', 'summer-webinar'];
  add('campaign', campaigns, zipf(campaigns.length, 0.06), 0.4);
  add('device', ['desktop', 'mobile', 'tablet'], [0.55, 0.4, 0.05], 0.4);
  const funnel = { booking: 0.03, contact: 0.03, bitcoin_guide: 0.35, newsletter: 0.08, masterclass: 0.08 };
  const goals = FORM_GOALS.map((g) => g.formType);
  add(
    'funnel',
    goals,
    goals.map((g) => funnel[g] ?? 0.03),
    0.8,
  );
  add(
    'started',
    goals,
    goals.map(() => 0.004),
    1,
  );
  return { rows, pages };
}

/**
 * Three years of rollups up to yesterday, their views adding up to exactly `SEED_VIEWS` (a day's
 * share grows over the years, weekends at 60%; each day's views are the difference of the
 * rounded-down running totals), then each day's rows per dimension and value.
 */
const SEED_DAYS_SQL = `
insert into analytics_days (day, visitors, views)
with d as (select ($1::date - ${SEED_DAYS} + i) as day, i from generate_series(0, ${SEED_DAYS - 1}) as i),
w as (select day, ((1 + i::numeric / ${SEED_DAYS}) * case when extract(isodow from day) >= 6 then 0.6 else 1 end) as w from d),
s as (select day, w, sum(w) over (order by day) as cum, sum(w) over () as total from w),
v as (select day, (floor(${SEED_VIEWS} * cum / total) - floor(${SEED_VIEWS} * (cum - w) / total))::int as views from s)
select day, round(views * 0.4)::int, views from v`;

const SEED_DAILY_SQL = `
insert into analytics_daily (day, dimension, value, visitors, views)
select d.day, v.dimension, v.value, round(d.views * v.share * v.per_visitor)::int, greatest(1, round(d.views * v.share))::int
from analytics_days d
cross join jsonb_to_recordset($1::jsonb) as v(dimension text, value text, share float8, per_visitor float8)`;

/** The finished months, summed from their days as `rollUpMonth` (src/features/analytics) sums them. */
const SEED_MONTHS_SQL = [
  `insert into analytics_months (month, visitors, views)
   select date_trunc('month', day)::date, sum(visitors)::int, sum(views)::int from analytics_days
   where day < date_trunc('month', $1::date) group by 1`,
  `insert into analytics_monthly (month, dimension, value, visitors, views)
   select date_trunc('month', day)::date, dimension, value, sum(visitors)::int, sum(views)::int from analytics_daily
   where day < date_trunc('month', $1::date) group by 1, 2, 3`,
];

/**
 * The raw views of the last 30 days, today's included, at each day's rolled-up volume (today at
 * yesterday's, a whole day's): three views a visitor, pages falling off by rank, a third of the
 * visits from another site, a tenth with UTM tags, devices as the rollups have them.
 */
const SEED_VIEWS_SQL = `
insert into analytics_views (day, hour, visitor, path, referrer, utm_source, utm_medium, utm_campaign, device)
with p as (
  select array(select jsonb_array_elements_text($1::jsonb->'paths')) as paths,
         array(select jsonb_array_elements_text($1::jsonb->'referrers')) as referrers,
         array(select jsonb_array_elements($1::jsonb->'tags')) as tags
),
days as (
  select x::date as day,
         coalesce((select views from analytics_days a where a.day = x::date),
                  (select views from analytics_days a where a.day = $2::date - 1)) as n
  from generate_series($2::date - 29, $2::date, interval '1 day') as x
)
select d.day, (g % 24)::smallint, (g / 3)::bigint * 100003 + (d.day - date '2000-01-01'),
  p.paths[1 + floor(power(random(), 2) * array_length(p.paths, 1))::int],
  case when g % 3 = 0 and (g / 3) % 3 = 0 then p.referrers[1 + (g / 9) % array_length(p.referrers, 1)] else '' end,
  case when g % 3 = 0 and (g / 3) % 10 = 1 then p.tags[1 + (g / 30) % array_length(p.tags, 1)]->>0 else '' end,
  case when g % 3 = 0 and (g / 3) % 10 = 1 then p.tags[1 + (g / 30) % array_length(p.tags, 1)]->>1 else '' end,
  case when g % 3 = 0 and (g / 3) % 10 = 1 then p.tags[1 + (g / 30) % array_length(p.tags, 1)]->>2 else '' end,
  case when g % 20 < 11 then 'desktop' when g % 20 < 19 then 'mobile' else 'tablet' end
from p, days d cross join lateral generate_series(0, d.n - 1) as g`;

/** Empties the counts (the intake's views) and seeds the dashboard's: its figures. */
export async function seedDashboard(store, today) {
  const started = Date.now();
  const { rows, pages } = dailyValues(sitePaths());
  return withDatabase(store, async (db) => {
    await db.query(
      'truncate analytics_views, analytics_form_starts, analytics_days, analytics_daily, analytics_months, analytics_monthly, analytics_live_days, analytics_live',
    );
    await db.query(SEED_DAYS_SQL, [today]);
    await db.query(SEED_DAILY_SQL, [JSON.stringify(rows)]);
    for (const statement of SEED_MONTHS_SQL) await db.query(statement, [today]);
    await db.query(SEED_VIEWS_SQL, [
      JSON.stringify({ paths: pages, referrers: REFERRERS, tags: TAGS }),
      today,
    ]);
    await db.query('analyze analytics_views');
    await db.query('analyze analytics_days');
    await db.query('analyze analytics_daily');
    await db.query('analyze analytics_monthly');
    const [seeded] = await db.query(`
      select (select sum(views)::int from analytics_days) as rolled_views,
             (select count(*)::int from analytics_daily) as daily_rows,
             (select count(*)::int from analytics_views) as raw_views`);
    return {
      rolledViews: seeded.rolled_views,
      dailyRows: seeded.daily_rows,
      rawViews: seeded.raw_views,
      seedS: Math.round((Date.now() - started) / 100) / 10,
    };
  });
}
