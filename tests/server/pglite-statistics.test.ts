/**
 * PGlite runs no autovacuum: the server gives its tables planner statistics itself, at start for
 * a table that never had any, and in the hourly sweep for one changed by a tenth since.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { analyzeStaleTables, openDatabase } from '../../src/server/kit/db/client';

const estimate = async (database: Awaited<ReturnType<typeof openDatabase>>) => {
  const r = (await database.db.execute(
    sql`select reltuples::int as n from pg_class where relname = 'submissions'`,
  )) as unknown as {
    rows: { n: number }[];
  };
  return r.rows[0]!.n;
};

describe('planner statistics on PGlite', () => {
  it('are made at start for a table that never had any, and again after a tenth of it changed', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pglite-stats-'));
    let database = await openDatabase({ dataDir });
    const insert = (n: number) =>
      database.db.execute(sql`insert into submissions (id, form_type, fields)
        select gen_random_uuid(), 'newsletter', jsonb_build_object('email', 'r' || g || '@example.org')
        from generate_series(1, ${n}) g`);
    await insert(20_000);
    expect(await estimate(database)).toBeLessThan(0);
    // Building an index sets the row estimate but makes no column statistics: still analysed at start.
    await database.db.execute(sql`reindex table submissions`);
    await database.close();

    database = await openDatabase({ dataDir });
    try {
      expect(await estimate(database)).toBe(20_000);
      const stats = (await database.db.execute(
        sql`select count(*)::int as n from pg_statistic where starelid = 'submissions'::regclass`,
      )) as unknown as { rows: { n: number }[] };
      expect(stats.rows[0]!.n).toBeGreaterThan(0);
      expect(await analyzeStaleTables(database)).toEqual([]);
      await insert(5_000);
      expect(await analyzeStaleTables(database)).toContain('submissions');
      expect(await estimate(database)).toBe(25_000);
    } finally {
      await database.close();
    }
  }, 120_000);
});
