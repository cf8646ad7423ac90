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

export const IP_HASH_RETENTION_HOURS = RETENTION.ipHashHours;
/** The longest window a mail mark serves (the per-recipient day; alerts use an hour). */
export const MAIL_MARK_RETENTION_HOURS = 24;
const SWEEP_EVERY_MS = 60 * 60_000;
/** The first sweep waits a minute so it never competes with start-up. */
const FIRST_SWEEP_AFTER_MS = 60_000;

/** `stop` ends the timers and waits for a sweep under way, so the database is not closed under it. */
export type RetentionSweeper = { run(): Promise<number>; stop(): Promise<void> };

/**
 * PGlite runs no autovacuum: without this its tables would never get planner statistics, and
 * at a million rows the console's queries pick plans a hundred times slower. Analyses every
 * table that was never analysed (and is not tiny), grew by a tenth, or changed by a tenth since; Postgres does
 * the same by itself. Returns the tables analysed.
 */
export async function analyzeStaleTables(database: Database): Promise<string[]> {
  if (database.driver !== 'pglite') return [];
  const result = await database.db.execute(sql`
    select c.relname as name
    from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
    left join pg_stat_user_tables s on s.relid = c.oid
    where n.nspname = 'public' and c.relkind = 'r'
      and ((not exists (select 1 from pg_statistic st where st.starelid = c.oid) and pg_relation_size(c.oid) > 65536)
        or pg_relation_size(c.oid) / 8192 > c.relpages * 1.1 + 8
        or coalesce(s.n_mod_since_analyze, 0) > greatest(1000, c.reltuples * 0.1))`);
  const names = rowsOf<{ name: string }>(result)
    .map((r) => r.name)
    .filter((name) => /^[a-z_][a-z0-9_]*$/.test(name));
  for (const name of names) await database.db.execute(sql.raw(`analyze "${name}"`));
  return names;
}

export function startRetentionSweeper(database: Database, log: FastifyBaseLogger): RetentionSweeper {
  let running: Promise<number> | undefined;
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
      const analysed = await analyzeStaleTables(database);
      if (analysed.length > 0) log.info({ tables: analysed.length }, 'planner statistics refreshed');
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
  const run = (): Promise<number> => {
    running ??= sweep().finally(() => (running = undefined));
    return running;
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
    async stop() {
      clearTimeout(first);
      if (interval) clearInterval(interval);
      await running;
    },
  };
}
