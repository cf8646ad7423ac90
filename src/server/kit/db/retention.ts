/**
 * Keeps the privacy notice's promise about abuse-protection data: a submission's hashed client
 * address only serves the rate-limit window, so it is cleared once it is a day old. The
 * submission itself (the lead) is kept. The same sweep drops the per-recipient mail marks once
 * their window is over (they hold a keyed hash of an address) and used single-use tokens once
 * the token has expired (it can no longer verify anyway).
 */
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { RETENTION } from '~/content/retention';
import type { Database } from './client';
import { rowsOf } from './rows';
import { runEvery, type PeriodicJob } from '../timer';

export const IP_HASH_RETENTION_HOURS = RETENTION.ipHashHours;
/** The longest window a mail mark serves (the per-recipient day; alerts use an hour). */
export const MAIL_MARK_RETENTION_HOURS = 24;
const SWEEP_EVERY_MS = 60 * 60_000;
/** The first sweep waits a minute so it never competes with start-up. */
const FIRST_SWEEP_AFTER_MS = 60_000;

/**
 * `run` sweeps now (or joins the sweep under way); `stop` ends the timer and waits for a sweep
 * under way, so the database is not closed under it.
 */
export type RetentionSweeper = PeriodicJob<number>;

export function startRetentionSweeper(database: Database, log: FastifyBaseLogger): RetentionSweeper {
  const sweep = async (): Promise<number> => {
    try {
      const result = await database.db.execute(
        sql`update submissions set ip_hash = null
            where ip_hash is not null
              and received_at < now() - make_interval(hours => ${IP_HASH_RETENTION_HOURS})
            returning id`,
      );
      const cleared = rowsOf(result).length;
      if (cleared > 0) log.info({ cleared }, 'hashed client addresses past retention cleared');
      await database.db.execute(
        sql`delete from mail_throttle where last_at < now() - make_interval(hours => ${MAIL_MARK_RETENTION_HOURS})`,
      );
      await database.db.execute(sql`delete from used_tokens where expires_at < now()`);
      return cleared;
    } catch (error) {
      const { name, code } = error as { name?: string; code?: unknown };
      log.warn(
        { errorName: name, ...(typeof code === 'string' ? { errorCode: code } : {}) },
        'retention sweep failed; it runs again within the hour',
      );
      return 0;
    }
  };
  return runEvery(sweep, { firstAfterMs: FIRST_SWEEP_AFTER_MS, everyMs: SWEEP_EVERY_MS });
}
