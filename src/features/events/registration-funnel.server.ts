/**
 * The masterclass funnel's last step for the Visits page (decision 042): of the registrations sent
 * on the UK days `from`..`to`, how many hold a place (registered at once, or given a place from
 * the waitlist); one still waiting, or cancelled, does not count. Exported for the composition
 * root's list of funnel ends, so the visit counts never read this feature's tables.
 */
import { sql } from 'drizzle-orm';
import { addDays, ukDayStart } from '~/lib/uk-dates';
import type { Queryable } from '~/server/kit/db/client';
import { rowsOf } from '~/server/kit/db/rows';

export async function registrationsWithPlace(q: Queryable, from: string, to: string): Promise<number> {
  const start = ukDayStart(from).toISOString();
  const end = ukDayStart(addDays(to, 1)).toISOString();
  const [row] = rowsOf<{ count: number }>(
    await q.execute(sql`
      select count(*)::int as count
      from submissions s
      join event_registrations r on r.submission_id = s.id
      where s.form_type = 'masterclass' and not s.spam
        and s.received_at >= ${start}::timestamptz and s.received_at < ${end}::timestamptz
        and r.status = 'registered'`),
  );
  return row?.count ?? 0;
}
