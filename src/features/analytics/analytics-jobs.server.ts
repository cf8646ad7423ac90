/**
 * The counting's chores, once a minute (decisions 042, 043): the day's salt destroyed once its UK
 * day is over, every finished day rolled up (once among every instance: `rollUpDay`) and every
 * finished month summed, today counted so far (`live.server.ts`), and views, form starts and
 * rollups deleted when their period of `src/content/retention.ts` has passed.
 */
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { RETENTION } from '~/content/retention';
import { addDays, ukDateOf } from '~/lib/uk-dates';
import type { Db } from '~/server/kit/db/client';
import { errorCode } from '~/server/kit/log-safe';
import { runEvery, type PeriodicJob } from '~/server/kit/timer';
import type { SaltKeeper } from './counting.server';
import { countLive, liveCountedAt } from './live.server';
import { lastRolledDay, rollUpFinishedDays, rollUpFinishedMonths } from './rollup.server';

/** How long after UK midnight a day is rolled up. */
const ROLLUP_AFTER_MS = 5 * 60_000;

/** The chores count today again a little before its count is too old for the Visits page. */
const RECOUNT_AHEAD_MS = 15_000;

export type CountingChores = {
  salts: SaltKeeper;
  db: Db;
  log: FastifyBaseLogger;
  /** How old the Visits page's count of today may be (`VISITS_TODAY_MAX_AGE_SECONDS`; 0: never stored). */
  todayMaxAgeMs: number;
  now?: () => Date;
};

/** The first day of the rollups kept at `today` (whole months back, to the day). */
export function oldestRollupKept(today: string, months = RETENTION.analyticsRollupMonths): string {
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  const total = y * 12 + (m - 1) - months;
  const year = Math.floor(total / 12);
  const month = (total % 12) + 1;
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(Math.min(d, lastDay)).padStart(2, '0')}`;
}

/** One round of the chores; returns the days rolled up. */
export async function countingChores({
  salts,
  db,
  log,
  todayMaxAgeMs,
  now = () => new Date(),
}: CountingChores): Promise<string[]> {
  await salts.rotate();
  const today = ukDateOf(now());
  // A day is rolled up once it has been over for a few minutes, so a view stamped with it a moment
  // before midnight and written just after is in its rollup.
  const finished = addDays(ukDateOf(new Date(now().getTime() - ROLLUP_AFTER_MS)), -1);
  const rolled = await rollUpFinishedDays(db, finished);
  const oldestRollup = oldestRollupKept(today);
  const lastRolled = await lastRolledDay(db);
  // The shortcuts of the Visits page (decision 043): a failure here leaves the page counting for
  // itself, and never holds up the deletes below, which the privacy notice promises.
  try {
    if (lastRolled) await rollUpFinishedMonths(db, lastRolled, oldestRollup);
    if (todayMaxAgeMs > 0) {
      const countedAt = await liveCountedAt(db, today);
      const age = countedAt ? Math.abs(now().getTime() - countedAt.getTime()) : Infinity;
      if (age >= todayMaxAgeMs - RECOUNT_AHEAD_MS) await countLive(db, today, now());
    }
  } catch (error) {
    log.warn({ err: { code: errorCode(error) } }, 'visit counts: months or today not counted');
  }
  // Views are deleted after their period, and never before their day is rolled up.
  if (lastRolled) {
    const retained = addDays(today, -RETENTION.analyticsViewDays);
    const oldestView = retained < addDays(lastRolled, 1) ? retained : addDays(lastRolled, 1);
    await db.execute(sql`delete from analytics_views where day < ${oldestView}::date`);
    await db.execute(sql`delete from analytics_form_starts where day < ${oldestView}::date`);
  }
  await db.execute(sql`delete from analytics_daily where day < ${oldestRollup}::date`);
  await db.execute(sql`delete from analytics_days where day < ${oldestRollup}::date`);
  // A month whose first days are gone is read from the days kept (and never summed again).
  await db.execute(sql`delete from analytics_monthly where month < ${oldestRollup}::date`);
  await db.execute(sql`delete from analytics_months where month < ${oldestRollup}::date`);
  return rolled;
}

export function startCountingChores(
  chores: CountingChores,
  schedule = { firstAfterMs: 15_000, everyMs: 60_000 },
): PeriodicJob<string[]> {
  return runEvery(async () => {
    try {
      return await countingChores(chores);
    } catch (error) {
      chores.log.warn({ err: { code: errorCode(error) } }, 'visit counts: chores failed');
      return [];
    }
  }, schedule);
}
