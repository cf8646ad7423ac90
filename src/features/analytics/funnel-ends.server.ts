/**
 * A funnel's last step after "Sent", read from another feature's tables: the bookings the owner
 * confirmed, the masterclass registrations that got a place. The features export the counting
 * functions; the composition root lists them (src/server/root/funnel-ends.ts), so this feature
 * never reads another's tables.
 */
import type { GoalFormType } from '~/content/analytics';
import type { Queryable } from '~/server/kit/db/client';

/** How many of the form's submissions sent on the UK days `from`..`to` (inclusive) reached the last step. */
export type FunnelEnd = (q: Queryable, from: string, to: string) => Promise<number>;

export type FunnelEnds = Partial<Record<GoalFormType, FunnelEnd>>;
