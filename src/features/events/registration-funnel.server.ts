/**
 * The masterclass funnel's last step for the Visits page (decision 042): of the registrations sent
 * on the UK days `from`..`to`, how many hold a place (registered at once, or given a place from
 * the waitlist); one still waiting, or cancelled, does not count. Exported for the composition
 * root's list of funnel ends, so the visit counts never read this feature's tables.
 */
import { sql } from 'drizzle-orm';
import type { Queryable } from '~/server/kit/db/client';
import { countSentReaching } from '~/server/kit/db/sent-reaching';

export const registrationsWithPlace = (q: Queryable, from: string, to: string): Promise<number> =>
  countSentReaching(q, 'masterclass', from, to, {
    joined: sql`join event_registrations r on r.submission_id = s.id`,
    reached: sql`r.status = 'registered'`,
  });
