/**
 * Counts of bookings for the console's figures beside other features' (the overview), so the
 * console reads the booking's tables only through this feature.
 */
import { eq, sql } from 'drizzle-orm';
import type { Queryable } from '~/server/kit/db/client';
import { bookings } from './tables.server';

/** Booking requests the owner has not answered yet. */
export async function bookingsAwaitingAnswer(q: Queryable): Promise<number> {
  const [row] = await q
    .select({ count: sql<number>`count(*)::int` })
    .from(bookings)
    .where(eq(bookings.status, 'requested'));
  return row?.count ?? 0;
}
