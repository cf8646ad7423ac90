/**
 * Keeps the privacy notice's promise about abuse-protection data: a submission's hashed client
 * address only serves the rate-limit window, so it is cleared once it is a day old. The
 * submission itself (the lead) is kept. The same sweep drops the per-recipient mail marks once
 * their window is over (they hold a keyed hash of an address) and used single-use tokens once
 * the token has expired (it can no longer verify anyway).
 */
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from './client';

export const IP_HASH_RETENTION_HOURS = 24;
/** The longest window a mail mark serves (the per-recipient day; alerts use an hour). */
export const MAIL_MARK_RETENTION_HOURS = 24;
const SWEEP_EVERY_MS = 60 * 60_000;
/** The first sweep waits a minute so it never competes with start-up. */
const FIRST_SWEEP_AFTER_MS = 60_000;

export type RetentionSweeper = { run(): Promise<number>; stop(): void };

export function startRetentionSweeper(database: Database, log: FastifyBaseLogger): RetentionSweeper {
  const run = async (): Promise<number> => {
    try {
      const result = (await database.db.execute(
        sql`update submissions set ip_hash = null
            where ip_hash is not null
              and received_at < now() - make_interval(hours => ${IP_HASH_RETENTION_HOURS})
            returning id`,
      )) as unknown as { rows?: unknown[]; length?: number };
      const cleared = result.rows?.length ?? result.length ?? 0;
      if (cleared > 0) log.info({ cleared }, 'hashed client addresses past retention cleared');
      await database.db.execute(
        sql`delete from mail_throttle where last_at < now() - make_interval(hours => ${MAIL_MARK_RETENTION_HOURS})`,
      );
      await database.db.execute(sql`delete from used_tokens where expires_at < now()`);
      return cleared;
    } catch (error) {
      log.warn({ errorName: (error as Error).name }, 'retention sweep failed; it runs again within the hour');
      return 0;
    }
  };
  let interval: ReturnType<typeof setInterval> | undefined;
  const first = setTimeout(() => {
    void run();
    interval = setInterval(() => void run(), SWEEP_EVERY_MS);
    interval.unref();
  }, FIRST_SWEEP_AFTER_MS);
  first.unref();
  return {
    run,
    stop() {
      clearTimeout(first);
      if (interval) clearInterval(interval);
    },
  };
}
