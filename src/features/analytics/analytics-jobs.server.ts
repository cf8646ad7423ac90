/**
 * The counting's chores, once a minute (decision 042): the day's salt destroyed once its UK day
 * is over, every finished day rolled up (once among every instance: `rollUpDay`), and views, form
 * starts and rollups deleted when their period of `src/content/retention.ts` has passed.
 */
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { RETENTION } from '~/content/retention';
import { addDays, ukDateOf } from '~/lib/uk-dates';
import type { Db } from '~/server/kit/db/client';
import { errorCode } from '~/server/kit/log-safe';
import { runEvery, type PeriodicJob } from '~/server/kit/timer';
import type { SaltKeeper } from './counting.server';
import { rollUpFinishedDays } from './rollup.server';

export type CountingChores = { salts: SaltKeeper; db: Db; log: FastifyBaseLogger; now?: () => Date };

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
  now = () => new Date(),
}: CountingChores): Promise<string[]> {
  await salts.rotate();
  const today = ukDateOf(now());
  const rolled = await rollUpFinishedDays(db, addDays(today, -1));
  const oldestView = addDays(today, -RETENTION.analyticsViewDays);
  await db.execute(sql`delete from analytics_views where day < ${oldestView}::date`);
  await db.execute(sql`delete from analytics_form_starts where day < ${oldestView}::date`);
  const oldestRollup = oldestRollupKept(today);
  await db.execute(sql`delete from analytics_daily where day < ${oldestRollup}::date`);
  await db.execute(sql`delete from analytics_days where day < ${oldestRollup}::date`);
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
