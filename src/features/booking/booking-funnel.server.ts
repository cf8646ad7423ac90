/**
 * The booking funnel's last step for the Visits page (decision 042): of the booking requests sent
 * on the UK days `from`..`to`, how many the owner confirmed (at some time: a session confirmed and
 * later cancelled or moved still counts). Exported for the composition root's list of funnel ends,
 * so the visit counts never read this feature's tables.
 */
import { sql } from 'drizzle-orm';
import type { Queryable } from '~/server/kit/db/client';
import { countSentReaching } from '~/server/kit/db/sent-reaching';

export const confirmedBookingsSent = (q: Queryable, from: string, to: string): Promise<number> =>
  countSentReaching(q, 'booking', from, to, {
    joined: sql`join bookings b on b.submission_id = s.id`,
    reached: sql`(b.status = 'confirmed'
      or exists (select 1 from booking_status_events e where e.booking_id = b.id and e.status = 'confirmed'))`,
  });
