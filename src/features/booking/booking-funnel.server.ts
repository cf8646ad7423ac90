/**
 * The booking funnel's last step for the Visits page (decision 042): of the booking requests sent
 * on the UK days `from`..`to`, how many the owner confirmed (at some time: a session confirmed and
 * later cancelled or moved still counts). Exported for the composition root's list of funnel ends,
 * so the visit counts never read this feature's tables.
 */
import { sql } from 'drizzle-orm';
import { addDays, ukDayStart } from '~/lib/uk-dates';
import type { Queryable } from '~/server/kit/db/client';
import { rowsOf } from '~/server/kit/db/rows';

export async function confirmedBookingsSent(q: Queryable, from: string, to: string): Promise<number> {
  const start = ukDayStart(from).toISOString();
  const end = ukDayStart(addDays(to, 1)).toISOString();
  const [row] = rowsOf<{ count: number }>(
    await q.execute(sql`
      select count(*)::int as count
      from submissions s
      join bookings b on b.submission_id = s.id
      where s.form_type = 'booking' and not s.spam
        and s.received_at >= ${start}::timestamptz and s.received_at < ${end}::timestamptz
        and (b.status = 'confirmed'
          or exists (select 1 from booking_status_events e where e.booking_id = b.id and e.status = 'confirmed'))`),
  );
  return row?.count ?? 0;
}
