/**
 * The count behind a funnel's last step (decision 042): a form's submissions sent on the UK days
 * `from`..`to` (inclusive; spam never counts) that reached a step the feature owning them defines,
 * as a join to its table (`s` is the submission) and a condition on it. The features keep their
 * tables to themselves and state only those two pieces; the day range and the count are here once.
 */
import { sql, type SQL } from 'drizzle-orm';
import { addDays, ukDayStart } from '~/lib/uk-dates';
import type { Queryable } from './client';
import { rowsOf } from './rows';

export type Reached = { joined: SQL; reached: SQL };

export async function countSentReaching(
  q: Queryable,
  formType: string,
  from: string,
  to: string,
  { joined, reached }: Reached,
): Promise<number> {
  const start = ukDayStart(from).toISOString();
  const end = ukDayStart(addDays(to, 1)).toISOString();
  const [row] = rowsOf<{ count: number }>(
    await q.execute(sql`
      select count(*)::int as count
      from submissions s
      ${joined}
      where s.form_type = ${formType} and not s.spam
        and s.received_at >= ${start}::timestamptz and s.received_at < ${end}::timestamptz
        and ${reached}`),
  );
  return row?.count ?? 0;
}
