/**
 * The figures of a range of UK days made from the raw views (decision 042): the same statement
 * makes a finished day's rollup (`rollUpDay`, written once) and the figures of the days not yet
 * rolled up (`figuresFromViews`, read live by the dashboard for today). A visitor is a visitor
 * of one day (the salt changes daily), so a range's visitors are the sum of its days'.
 *
 * Referrers and UTM tags are counted per visit (decision 042, addendum): a view that carries them
 * (the landing view: the beacon sends the referrer only for the first page of a visit, and a page
 * reached inside the site has no tags) starts a visit, whose views are those that follow it, and
 * its referrer and tags are kept together. A visitor who came twice in a day from two places is
 * counted under both, each with its own visit's views; a referrer never lends its views to
 * another's tags.
 *
 * Once every day of a calendar month is rolled up, the month is summed too (`rollUpMonth`), so
 * that a long range reads a row per month and value rather than one per day.
 */
import { sql } from 'drizzle-orm';
import { FORM_GOALS } from '~/content/analytics';
import { addDays } from '~/lib/uk-dates';
import type { Db, Queryable } from '~/server/kit/db/client';
import { rowsOf } from '~/server/kit/db/rows';

export type DayFigures = { day: string; visitors: number; views: number };
export type DayRow = { day: string; dimension: string; value: string; visitors: number; views: number };

/** The pages that hold each form, as the statement's one JSON parameter. */
const FORM_PAGES = JSON.stringify(
  FORM_GOALS.flatMap((goal) => goal.pages.map((path) => ({ form_type: goal.formType, path }))),
);

/**
 * Every dimension's rows of the days `from`..`to` (inclusive), from the raw views and form starts.
 * Distinct visitors are counted by grouping by visitor first (hash aggregates), not by
 * `count(distinct ...)`, which sorts once per dimension.
 */
export const dimensionRows = (from: string, to: string) => sql`
  with v as (
    select ctid as seq, day, visitor, path, referrer, utm_source, utm_medium, utm_campaign, device
    from analytics_views where day between ${from}::date and ${to}::date
  ),
  -- Each view that carries a referrer or a tag starts a visit; the views after it, to the next
  -- such view, are that visit's (views are stored in the order they came: the table is only
  -- appended to). A visitor's views before any such view are a visit from nowhere.
  vn as (
    select *, count(*) filter (
        where referrer <> '' or utm_source <> '' or utm_medium <> '' or utm_campaign <> ''
      ) over (partition by day, visitor order by seq) as visit
    from v
  ),
  visits as (
    select day, visitor, count(*)::int as views,
      (array_agg(referrer order by seq))[1] as referrer, (array_agg(utm_source order by seq))[1] as utm_source,
      (array_agg(utm_medium order by seq))[1] as utm_medium, (array_agg(utm_campaign order by seq))[1] as utm_campaign
    from vn group by day, visitor, visit
  ),
  -- A visitor is counted once per value, with the views of its visits that came by it.
  vd_referrer as (select day, referrer, visitor, sum(views) as views from visits group by day, referrer, visitor),
  vd_source as (select day, utm_source, visitor, sum(views) as views from visits where utm_source <> '' group by day, utm_source, visitor),
  vd_medium as (select day, utm_medium, visitor, sum(views) as views from visits where utm_medium <> '' group by day, utm_medium, visitor),
  vd_campaign as (select day, utm_campaign, visitor, sum(views) as views from visits where utm_campaign <> '' group by day, utm_campaign, visitor),
  fp as (select * from jsonb_to_recordset(${FORM_PAGES}::jsonb) as fp(form_type text, path text)),
  by_page as (select day, path, visitor, count(*) as n from v group by day, path, visitor),
  by_device as (select day, device, visitor, count(*) as n from v group by day, device, visitor),
  by_form as (
    select v.day, fp.form_type, v.visitor, count(*) as n from v join fp on fp.path = v.path
    group by v.day, fp.form_type, v.visitor
  ),
  by_start as (
    select day, form_type, visitor, count(*) as n from analytics_form_starts
    where day between ${from}::date and ${to}::date group by day, form_type, visitor
  )
  select day::text as day, 'page' as dimension, path as value, count(*)::int as visitors, sum(n)::int as views
    from by_page group by day, path
  union all
  select day::text, 'device', device, count(*)::int, sum(n)::int from by_device group by day, device
  union all
  select day::text, 'referrer', referrer, count(*)::int, sum(views)::int from vd_referrer group by day, referrer
  union all
  select day::text, 'source', utm_source, count(*)::int, sum(views)::int from vd_source group by day, utm_source
  union all
  select day::text, 'medium', utm_medium, count(*)::int, sum(views)::int from vd_medium group by day, utm_medium
  union all
  select day::text, 'campaign', utm_campaign, count(*)::int, sum(views)::int from vd_campaign group by day, utm_campaign
  union all
  select day::text, 'funnel', form_type, count(*)::int, sum(n)::int from by_form group by day, form_type
  union all
  select day::text, 'started', form_type, count(*)::int, sum(n)::int from by_start group by day, form_type`;

/** Each day's visitors and views, the same way (grouped by visitor first). */
export const dayTotals = (from: string, to: string) => sql`
  select day::text as day, count(*)::int as visitors, sum(views)::int as views from (
    select day, visitor, count(*) as views from analytics_views
    where day between ${from}::date and ${to}::date group by day, visitor
  ) vd group by day order by day`;

/** Each day's visitors and views of days not rolled up, read from the raw views. */
export async function daysFromViews(q: Queryable, from: string, to: string): Promise<DayFigures[]> {
  return rowsOf<DayFigures>(await q.execute(dayTotals(from, to)));
}

/** The figures of days not rolled up, read from the raw views. */
export async function figuresFromViews(
  q: Queryable,
  from: string,
  to: string,
): Promise<{ days: DayFigures[]; rows: DayRow[] }> {
  const days = await daysFromViews(q, from, to);
  const rows = rowsOf<DayRow>(await q.execute(dimensionRows(from, to)));
  return { days, rows };
}

/** A day's visitors and views per UK hour that has views, the same way (grouped by visitor first). */
export const hourTotals = (day: string) => sql`
  select hour::int as hour, count(*)::int as visitors, sum(views)::int as views from (
    select hour, visitor, count(*) as views from analytics_views where day = ${day}::date group by hour, visitor
  ) hv group by hour order by hour`;

/** Today's views per UK hour (the dashboard's "Today", when today has no stored count). */
export async function hoursFromViews(
  q: Queryable,
  day: string,
): Promise<{ hour: number; visitors: number; views: number }[]> {
  return rowsOf<{ hour: number; visitors: number; views: number }>(await q.execute(hourTotals(day)));
}

/** The newest UK day rolled up, or undefined before the first. */
export async function lastRolledDay(q: Queryable): Promise<string | undefined> {
  const [row] = rowsOf<{ day: string | null }>(
    await q.execute(sql`select max(day)::text as day from analytics_days`),
  );
  return row?.day ?? undefined;
}

/**
 * Rolls up one finished UK day, once: the day's totals row is the mark, taken first, so a second
 * instance (or a second run) that finds it written does nothing. A day without views gets its
 * row of zeros. Returns whether this call wrote it.
 */
export async function rollUpDay(db: Db, day: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const taken = rowsOf<{ day: string }>(
      await tx.execute(sql`
        insert into analytics_days (day, visitors, views)
        select ${day}::date, count(distinct visitor)::int, count(*)::int from analytics_views where day = ${day}::date
        on conflict (day) do nothing returning day`),
    );
    if (taken.length === 0) return false;
    await tx.execute(sql`
      insert into analytics_daily (day, dimension, value, visitors, views)
      select day::date, dimension, value, visitors, views from (${dimensionRows(day, day)}) r`);
    return true;
  });
}

/** At most this many days are rolled up by one run (after a long stop, the rest follow). */
const DAYS_PER_RUN = 31;

/**
 * Rolls up every finished day after the last one rolled up (from the oldest raw view on a first
 * run), up to `yesterday`. Returns the days written.
 */
export async function rollUpFinishedDays(db: Db, yesterday: string): Promise<string[]> {
  let from = await lastRolledDay(db).then((d) => (d ? addDays(d, 1) : undefined));
  if (!from) {
    const [first] = rowsOf<{ day: string | null }>(
      await db.execute(sql`
        select least((select min(day) from analytics_views), (select min(day) from analytics_form_starts))::text as day`),
    );
    if (!first?.day) return [];
    from = first.day;
  }
  const written: string[] = [];
  for (let day = from; day <= yesterday && written.length < DAYS_PER_RUN; day = addDays(day, 1)) {
    if (await rollUpDay(db, day)) written.push(day);
  }
  return written;
}

/** The first day of the calendar month of `day`. */
export const monthOf = (day: string): string => `${day.slice(0, 7)}-01`;

/** The last day of the calendar month that starts on `month`. */
export function lastDayOfMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return addDays(
    `${String(m === 12 ? y + 1 : y).padStart(4, '0')}-${String((m % 12) + 1).padStart(2, '0')}-01`,
    -1,
  );
}

/**
 * Sums one month's day rollups into its month rows, once (the month's totals row is the mark, as
 * a day's is). Returns whether this call wrote it.
 */
export async function rollUpMonth(db: Db, month: string): Promise<boolean> {
  const last = lastDayOfMonth(month);
  return db.transaction(async (tx) => {
    const taken = rowsOf<{ month: string }>(
      await tx.execute(sql`
        insert into analytics_months (month, visitors, views)
        select ${month}::date, coalesce(sum(visitors), 0)::int, coalesce(sum(views), 0)::int
        from analytics_days where day between ${month}::date and ${last}::date
        on conflict (month) do nothing returning month`),
    );
    if (taken.length === 0) return false;
    await tx.execute(sql`
      insert into analytics_monthly (month, dimension, value, visitors, views)
      select ${month}::date, dimension, value, sum(visitors)::int, sum(views)::int
      from analytics_daily where day between ${month}::date and ${last}::date
      group by dimension, value`);
    return true;
  });
}

/**
 * Sums every month that has day rollups, whose last day is rolled up (`lastRolled`), that starts
 * on or after `oldestKept` (a month whose first days retention deleted is read from its days) and
 * is not summed yet. Returns the months written.
 */
export async function rollUpFinishedMonths(
  db: Db,
  lastRolled: string,
  oldestKept: string,
): Promise<string[]> {
  const months = rowsOf<{ month: string }>(
    await db.execute(sql`
      select distinct to_char(day, 'YYYY-MM-01') as month from analytics_days d
      where day >= ${oldestKept}::date and day <= ${lastRolled}::date
        and not exists (select 1 from analytics_months m where m.month = date_trunc('month', d.day)::date)
      order by month`),
  );
  const written: string[] = [];
  for (const { month } of months) {
    if (month < oldestKept || lastDayOfMonth(month) > lastRolled) continue;
    if (await rollUpMonth(db, month)) written.push(month);
  }
  return written;
}
