/**
 * The Visits area of the owner's console (decision 042): the figures of a range of days, and the
 * weekly report's switch (the one row of `analytics_settings`; no row is the default, on). A
 * change of the switch is audited in its own transaction. The owner's alone: no route names a role.
 */
import { sql } from 'drizzle-orm';
import { audit } from '~/server/kit/audit';
import type { Queryable } from '~/server/kit/db/client';
import type { ConsoleArea } from '~/server/kit/http/owner-routes';
import { analyticsRoutes, type AnalyticsSettings } from './analytics-console-contract';
import { analyticsSummary } from './dashboard.server';
import type { FunnelEnds } from './funnel-ends.server';
import { analyticsSettings } from './tables.server';

/** The settings row, or the defaults when there is none. */
export async function readAnalyticsSettings(q: Queryable): Promise<AnalyticsSettings> {
  const [row] = await q.select({ weeklyReport: analyticsSettings.weeklyReport }).from(analyticsSettings);
  return { weeklyReport: row?.weeklyReport ?? true };
}

export const analyticsArea =
  (funnelEnds: FunnelEnds): ConsoleArea =>
  (routes, { db, clock, config }) => {
    routes.on(analyticsRoutes.summary, async ({ query }) =>
      analyticsSummary(db, query, { funnelEnds, now: clock(), todayMaxAgeMs: config.visitsTodayMaxAgeMs }),
    );

    routes.on(analyticsRoutes.settings, async () => readAnalyticsSettings(db));

    routes.on(analyticsRoutes.saveSettings, async ({ body, owner }) => {
      const now = clock();
      return db.transaction(async (tx) => {
        const before = await readAnalyticsSettings(tx);
        await tx
          .insert(analyticsSettings)
          .values({ id: 1, weeklyReport: body.weeklyReport, updatedAt: now })
          .onConflictDoUpdate({
            target: analyticsSettings.id,
            set: { weeklyReport: sql`excluded.weekly_report`, updatedAt: sql`excluded.updated_at` },
          });
        if (before.weeklyReport !== body.weeklyReport)
          await audit(tx, owner.email, 'analytics.weekly-report', undefined, { on: body.weeklyReport });
        return readAnalyticsSettings(tx);
      });
    });
  };
