/**
 * Counts of bookings for the console's figures beside other features' (the overview), so the
 * console reads the booking's tables only through this feature.
 */
import { and, eq, isNotNull, or, sql } from 'drizzle-orm';
import type { Queryable } from '~/server/kit/db/client';
import { bookings } from './tables.server';

/** Booking requests, and moves applicants asked for, that the owner has not answered yet. */
export async function bookingsAwaitingAnswer(q: Queryable): Promise<number> {
  const [row] = await q
    .select({ count: sql<number>`count(*)::int` })
    .from(bookings)
    .where(
      or(
        eq(bookings.status, 'requested'),
        and(eq(bookings.status, 'confirmed'), isNotNull(bookings.moveDate)),
      ),
    );
  return row?.count ?? 0;
}
