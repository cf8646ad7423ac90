/**
 * Today's figures so far (decision 043). Counting a day's raw views is the dearest part of the
 * Visits page (tens of milliseconds for a busy day on PGlite), so today is counted at most once
 * a minute (`VISITS_TODAY_MAX_AGE_SECONDS`), by the statements that roll up a finished day, and
 * stored whole in `analytics_live_days` and `analytics_live`: the chores count it every minute,
 * and the page counts it itself only when the stored count is missing, of another day or older
 * than the setting allows (the chores not run yet, or stopped; or the setting at 0). Every instance reads the same count;
 * one instance counts at a time (an advisory lock), and one that waited for another's count uses
 * it. The page says when today was counted.
 */
import { sql } from 'drizzle-orm';
import type { Db, Queryable } from '~/server/kit/db/client';
import { rowsOf } from '~/server/kit/db/rows';
import type { Figures } from './analytics-console-contract';
import { dayTotals, dimensionRows, hourTotals, type DayRow } from './rollup.server';

/** A count this recent is used as it is by an instance that waited for the lock. */
const JUST_COUNTED_MS = 5_000;

/** The lock that lets one instance count at a time. */
const LIVE_LOCK = sql`hashtext('analytics-live')`;

export type HourFigures = { hour: number } & Figures;

export type LiveFigures = {
  day: string;
  countedAt: Date;
  totals: Figures;
  /** Every dimension's rows of the day, as a day's rollup has them. */
  rows: DayRow[];
  /** The day's visitors and views per UK hour, only the hours with views. */
  hours: HourFigures[];
};

/** When `day` was last counted, or undefined when the stored count is of another day or none. */
export async function liveCountedAt(q: Queryable, day: string): Promise<Date | undefined> {
  const [row] = rowsOf<{ counted_at: string | Date }>(
    await q.execute(sql`select counted_at from analytics_live_days where day = ${day}::date`),
  );
  return row ? new Date(row.counted_at) : undefined;
}

/** The stored count, or undefined when there is none: one statement, so one count whole. */
export async function storedLive(q: Queryable): Promise<LiveFigures | undefined> {
  const rows = rowsOf<{
    day: string;
    day_visitors: number;
    day_views: number;
    counted_at: string | Date;
    dimension: string | null;
    value: string | null;
    visitors: number | null;
    views: number | null;
  }>(
    await q.execute(sql`
      select d.day::text as day, d.visitors as day_visitors, d.views as day_views, d.counted_at,
        l.dimension, l.value, l.visitors, l.views
      from (select * from analytics_live_days order by day desc limit 1) d
      left join analytics_live l on l.day = d.day`),
  );
  const head = rows[0];
  if (!head) return undefined;
  const all = rows
    .filter((r) => r.dimension !== null)
    .map((r) => ({
      day: head.day,
      dimension: r.dimension!,
      value: r.value ?? '',
      visitors: r.visitors ?? 0,
      views: r.views ?? 0,
    }));
  return {
    day: head.day,
    countedAt: new Date(head.counted_at),
    totals: { visitors: head.day_visitors, views: head.day_views },
    rows: all.filter((r) => r.dimension !== 'hour'),
    hours: all
      .filter((r) => r.dimension === 'hour')
      .map((r) => ({ hour: Number(r.value), visitors: r.visitors, views: r.views }))
      .sort((a, b) => a.hour - b.hour),
  };
}

/**
 * Counts `day` from its raw views and stores the count in place of the one before (of any day).
 * Returns the count: this one, or one made less than `justCountedMs` before (by another instance
 * while this one waited for the lock).
 */
export async function countLive(
  db: Db,
  day: string,
  now: Date,
  justCountedMs = JUST_COUNTED_MS,
): Promise<LiveFigures> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${LIVE_LOCK})`);
    const stored = await storedLive(tx);
    if (
      stored &&
      stored.day === day &&
      Math.abs(now.getTime() - stored.countedAt.getTime()) < justCountedMs
    ) {
      return stored;
    }
    await tx.execute(sql`delete from analytics_live`);
    await tx.execute(sql`delete from analytics_live_days`);
    await tx.execute(sql`
      insert into analytics_live_days (day, visitors, views, counted_at)
      select ${day}::date, coalesce(sum(visitors), 0)::int, coalesce(sum(views), 0)::int, ${now.toISOString()}::timestamptz
      from (${dayTotals(day, day)}) t`);
    await tx.execute(sql`
      insert into analytics_live (day, dimension, value, visitors, views)
      select day::date, dimension, value, visitors, views from (${dimensionRows(day, day)}) r`);
    await tx.execute(sql`
      insert into analytics_live (day, dimension, value, visitors, views)
      select ${day}::date, 'hour', lpad(hour::text, 2, '0'), visitors, views from (${hourTotals(day)}) h`);
    const counted = await storedLive(tx);
    if (!counted) throw new Error('the count of today was not stored');
    return counted;
  });
}

/**
 * Today's count as the Visits page shows it: the stored one, or a new one when it is of another
 * day or older than `maxAgeMs`.
 */
export async function liveFigures(db: Db, day: string, now: Date, maxAgeMs: number): Promise<LiveFigures> {
  const stored = maxAgeMs > 0 ? await storedLive(db) : undefined;
  // A count stamped ahead of this clock (another instance's) is as old as it is far.
  const fresh =
    stored && stored.day === day && Math.abs(now.getTime() - stored.countedAt.getTime()) <= maxAgeMs;
  return fresh ? stored : countLive(db, day, now, Math.min(JUST_COUNTED_MS, maxAgeMs));
}
