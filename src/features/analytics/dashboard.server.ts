/**
 * The Visits page's figures (decision 042) for a range of UK days and the range of the same length
 * just before it. The ranges: today; the last 7 or 30 days, today included; "the last 12 months",
 * which is the last 365 days, today included (a fixed number of days, so the range before it is
 * as long and the two compare like for like); or the owner's own first and last day.
 *
 * Every day up to the newest one rolled up is read from the rollups (`analytics_days` for the
 * totals and the series; per dimension and value, `analytics_monthly` for the whole months of the
 * range and `analytics_daily` for its other days, summed in SQL, each dimension's top 10 by
 * visitors); today from its count of the last minute (`live.server.ts`, decision 043);
 * any day between the rollups and today (the first minutes after midnight, or after a long stop)
 * from the raw views, through the same statement the rollup uses (`figuresFromViews`). A value
 * that today's views name is read from the rollups too, whatever its rank there, so the top 10 of
 * rollups and live views together is exact. Goals are the form submissions of the range (spam left
 * out), counted live; a funnel's last step is counted by the feature that owns it (`FunnelEnds`).
 */
import { sql } from 'drizzle-orm';
import { FORM_GOALS, FUNNEL_END_LABELS, FUNNEL_STEP_LABELS, type GoalFormType } from '~/content/analytics';
import { addDays, partsInLondon, ukDateOf, ukDayStart } from '~/lib/uk-dates';
import type { z } from '~/lib/zod';
import type { Db, Queryable } from '~/server/kit/db/client';
import { rowsOf } from '~/server/kit/db/rows';
import {
  daysBetween,
  type AnalyticsRange,
  type AnalyticsSummary,
  type analyticsQuery,
  type DimensionRow,
  type Figures,
  type Funnel,
  type FunnelStep,
  type Goal,
} from './analytics-console-contract';
import type { FunnelEnds } from './funnel-ends.server';
import { liveFigures } from './live.server';
import { daysFromViews, figuresFromViews, hoursFromViews, lastRolledDay, type DayRow } from './rollup.server';

/** How many values of each dimension the page lists. */
export const TOP_VALUES = 10;

/** The dimensions the page lists, each by its key in the answer. */
const LISTED = {
  page: 'pages',
  referrer: 'referrers',
  source: 'utmSources',
  medium: 'utmMediums',
  campaign: 'utmCampaigns',
  device: 'devices',
} as const satisfies Record<string, keyof AnalyticsSummary>;
type Listed = keyof typeof LISTED;

const RANGE_DAYS: Record<Exclude<AnalyticsRange, 'custom'>, number> = {
  today: 1,
  '7d': 7,
  '30d': 30,
  '12m': 365,
};

/** The UK days of the range asked for, and of the range of the same length just before it. */
export function rangeOf(
  query: z.output<typeof analyticsQuery>,
  now: Date,
): { from: string; to: string; previousFrom: string; previousTo: string } {
  const today = ukDateOf(now);
  const [from, to] =
    query.range === 'custom'
      ? [query.from ?? today, query.to ?? today]
      : [addDays(today, 1 - RANGE_DAYS[query.range]), today];
  const days = daysBetween(from, to);
  return { from, to, previousFrom: addDays(from, -days), previousTo: addDays(from, -1) };
}

const later = (a: string, b: string) => (a > b ? a : b);
const earlier = (a: string, b: string) => (a < b ? a : b);

/** Per day of `from`..`to`, the rolled-up totals. */
async function rolledDays(q: Queryable, from: string, to: string): Promise<Map<string, Figures>> {
  const rows = rowsOf<{ day: string } & Figures>(
    await q.execute(sql`
      select day::text as day, visitors, views from analytics_days
      where day between ${from}::date and ${to}::date`),
  );
  return new Map(rows.map((r) => [r.day, { visitors: r.visitors, views: r.views }]));
}

/** Per day of `from`..`to`, the totals of the raw views (days not rolled up), as the rollup counts them. */
async function liveDays(q: Queryable, from: string, to: string): Promise<Map<string, Figures>> {
  const rows = await daysFromViews(q, from, to);
  return new Map(rows.map((r) => [r.day, { visitors: r.visitors, views: r.views }]));
}

/**
 * The rollups' sums per dimension and value over `from`..`to`: each listed dimension's top
 * `TOP_VALUES` by visitors, every value of `also` (the values the live views name), and every
 * value of the funnels' dimensions. One statement: the month rows of the range's whole months
 * that are summed, the day rows of its other days.
 */
async function rolledDimensions(
  q: Queryable,
  from: string,
  to: string,
  also: { dimension: string; value: string }[],
): Promise<DayRow[]> {
  return rowsOf<DayRow>(
    await q.execute(sql`
      with months as (
        select month from analytics_months
        where month >= ${from}::date and (month + interval '1 month')::date <= ${to}::date + 1
      ),
      picked as (
        select dimension, value, visitors, views from analytics_monthly
        where month in (select month from months)
        union all
        select dimension, value, visitors, views from analytics_daily
        where day between ${from}::date and ${to}::date
          and date_trunc('month', day)::date not in (select month from months)
      ),
      summed as (
        select dimension, value, sum(visitors)::int as visitors, sum(views)::int as views
        from picked group by dimension, value
      ),
      ranked as (
        select *, row_number() over (partition by dimension order by visitors desc, views desc, value) as rank
        from summed
      ),
      also as (select * from jsonb_to_recordset(${JSON.stringify(also)}::jsonb) as a(dimension text, value text))
      select '' as day, dimension, value, visitors, views from ranked r
      where rank <= ${TOP_VALUES}
        -- The funnels' dimensions: one value per form type, every one read.
        or dimension in ('funnel', 'started')
        or exists (select 1 from also a where a.dimension = r.dimension and a.value = r.value)`),
  );
}

/** Non-spam submissions of each goal's form received in the range, and in the range before. */
async function goalCounts(
  q: Queryable,
  range: { from: string; to: string; previousFrom: string },
): Promise<Map<string, { count: number; previous: number }>> {
  const start = ukDayStart(range.from).toISOString();
  const rows = rowsOf<{ form_type: string; count: number; previous: number }>(
    await q.execute(sql`
      select form_type,
        count(*) filter (where received_at >= ${start}::timestamptz)::int as count,
        count(*) filter (where received_at < ${start}::timestamptz)::int as previous
      from submissions
      where form_type in (${sql.join(
        FORM_GOALS.map((g) => sql`${g.formType}`),
        sql`, `,
      )})
        and not spam
        and received_at >= ${ukDayStart(range.previousFrom).toISOString()}::timestamptz
        and received_at < ${ukDayStart(addDays(range.to, 1)).toISOString()}::timestamptz
      group by form_type`),
  );
  return new Map(rows.map((r) => [r.form_type, { count: r.count, previous: r.previous }]));
}

const sumOf = (figures: Iterable<Figures>): Figures => {
  let visitors = 0;
  let views = 0;
  for (const f of figures) {
    visitors += f.visitors;
    views += f.views;
  }
  return { visitors, views };
};

const byVisitors = (a: DimensionRow, b: DimensionRow) =>
  b.visitors - a.visitors || b.views - a.views || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0);

/** Rolled-up and live rows of each dimension added up; each listed dimension cut to its top values. */
function mergeDimensions(rows: DayRow[]): Map<string, DimensionRow[]> {
  const sums = new Map<string, Map<string, DimensionRow>>();
  for (const row of rows) {
    const values = sums.get(row.dimension) ?? new Map<string, DimensionRow>();
    sums.set(row.dimension, values);
    const sum = values.get(row.value) ?? { value: row.value, visitors: 0, views: 0 };
    sum.visitors += row.visitors;
    sum.views += row.views;
    values.set(row.value, sum);
  }
  return new Map(
    [...sums].map(([dimension, values]) => {
      const sorted = [...values.values()].sort(byVisitors);
      return [dimension, dimension in LISTED ? sorted.slice(0, TOP_VALUES) : sorted];
    }),
  );
}

/**
 * Each step's rate: its count over the step before's (none for the first, or after 0), at most
 * 1: "Sent" counts forms, and a sender whose browser was not counted (Global Privacy Control, the
 * owner's own) can make it larger than the visitors who started.
 */
function withRates(steps: { label: string; count: number }[]): FunnelStep[] {
  return steps.map((step, i) => {
    const before = i === 0 ? 0 : (steps[i - 1]?.count ?? 0);
    return { ...step, rate: before > 0 ? Math.min(1, step.count / before) : null };
  });
}

/** The series: per day of the range (per UK hour for today), every day or hour present. */
function seriesOf(
  range: { from: string; to: string },
  days: Map<string, Figures>,
): AnalyticsSummary['series'] {
  const series: AnalyticsSummary['series'] = [];
  for (let day = range.from; day <= range.to; day = addDays(day, 1)) {
    series.push({ at: day, ...(days.get(day) ?? { visitors: 0, views: 0 }) });
  }
  return series;
}

export async function analyticsSummary(
  db: Db,
  query: z.output<typeof analyticsQuery>,
  deps: { funnelEnds: FunnelEnds; now: Date; todayMaxAgeMs: number },
): Promise<AnalyticsSummary> {
  const q: Queryable = db;
  const range = rangeOf(query, deps.now);
  const { from, to, previousFrom, previousTo } = range;
  const today = ukDateOf(deps.now);
  const rolledTo = (await lastRolledDay(q)) ?? addDays(previousFrom, -1);
  // The days after the rollups: today from its count of the last minute, any day before it from
  // the raw views (none when the range ends before them).
  const liveFrom = later(from, addDays(rolledTo, 1));
  const liveTo = earlier(to, addDays(today, -1));
  const previousLiveFrom = later(previousFrom, addDays(rolledTo, 1));
  const withToday = from <= today && today <= to && today > rolledTo;

  const [earlierLive, todayLive] = await Promise.all([
    liveFrom <= liveTo ? figuresFromViews(q, liveFrom, liveTo) : { days: [], rows: [] },
    withToday ? liveFigures(db, today, deps.now, deps.todayMaxAgeMs) : undefined,
  ]);
  const live = {
    days: todayLive ? [...earlierLive.days, { day: today, ...todayLive.totals }] : earlierLive.days,
    rows: todayLive ? [...earlierLive.rows, ...todayLive.rows] : earlierLive.rows,
  };
  const liveValues = live.rows
    .filter((r) => r.dimension in LISTED)
    .map((r) => ({ dimension: r.dimension, value: r.value }));
  const [rolled, previousLive, rolledRows, goals, hours] = await Promise.all([
    previousFrom <= rolledTo
      ? rolledDays(q, previousFrom, earlier(to, rolledTo))
      : new Map<string, Figures>(),
    previousLiveFrom <= previousTo ? liveDays(q, previousLiveFrom, previousTo) : new Map<string, Figures>(),
    from <= rolledTo ? rolledDimensions(q, from, earlier(to, rolledTo), liveValues) : Promise.resolve([]),
    goalCounts(q, range),
    query.range !== 'today'
      ? Promise.resolve(undefined)
      : todayLive
        ? todayLive.hours
        : hoursFromViews(q, today),
  ]);

  const days = new Map<string, Figures>(rolled);
  for (const [day, figures] of previousLive) days.set(day, figures);
  for (const d of live.days) days.set(d.day, { visitors: d.visitors, views: d.views });
  const inRange = (a: string, b: string) =>
    [...days].filter(([day]) => day >= a && day <= b).map(([, f]) => f);

  const dimensions = mergeDimensions([...rolledRows, ...live.rows.filter((r) => r.day >= from)]);
  const listed = (dimension: Listed) => dimensions.get(dimension) ?? [];
  const funnelCount = (dimension: 'funnel' | 'started', formType: string) =>
    dimensions.get(dimension)?.find((r) => r.value === formType)?.visitors ?? 0;

  const goalList: Goal[] = FORM_GOALS.map((goal) => ({
    formType: goal.formType,
    name: goal.name,
    count: goals.get(goal.formType)?.count ?? 0,
    previous: goals.get(goal.formType)?.previous ?? 0,
  }));
  const funnels: Funnel[] = await Promise.all(
    FORM_GOALS.map(async (goal) => {
      const formType: GoalFormType = goal.formType;
      const steps: { label: string; count: number }[] = [
        { label: FUNNEL_STEP_LABELS.visited, count: funnelCount('funnel', formType) },
        { label: FUNNEL_STEP_LABELS.started, count: funnelCount('started', formType) },
        { label: FUNNEL_STEP_LABELS.sent, count: goals.get(formType)?.count ?? 0 },
      ];
      const end = deps.funnelEnds[formType];
      const endLabel = FUNNEL_END_LABELS[formType];
      if (end && endLabel) steps.push({ label: endLabel, count: await end(q, from, to) });
      return { formType, name: goal.name, steps: withRates(steps) };
    }),
  );

  const hourNow = partsInLondon(deps.now).hour ?? 23;
  const series = hours
    ? Array.from({ length: hourNow + 1 }, (_, hour) => {
        const found = hours.find((r) => r.hour === hour);
        return {
          at: `${today} ${String(hour).padStart(2, '0')}`,
          visitors: found?.visitors ?? 0,
          views: found?.views ?? 0,
        };
      })
    : seriesOf(range, days);

  return {
    range: query.range,
    from,
    to,
    previousFrom,
    previousTo,
    totals: sumOf(inRange(from, to)),
    previousTotals: sumOf(inRange(previousFrom, previousTo)),
    series,
    pages: listed('page'),
    referrers: listed('referrer'),
    utmSources: listed('source'),
    utmMediums: listed('medium'),
    utmCampaigns: listed('campaign'),
    devices: listed('device'),
    goals: goalList,
    funnels,
    todayCountedAt: todayLive ? todayLive.countedAt.toISOString() : null,
  };
}
