/**
 * The alerts job (decision 041): every few seconds, what arrived since the last round (booking
 * requests, other leads, messages held as spam, e-mails that failed for good) is announced to
 * every console device that switched alerts on (./push.ts). It reads what is stored, so the form
 * endpoint's path is untouched and nothing acknowledged goes unannounced across a restart.
 *
 * - One cursor row (`owner_alert_cursor`): the newest submission and failure announced. A round is
 *   claimed by one conditional update of `claimed_until` (a lease), so of two instances one
 *   announces; a round that dies leaves its lease to end and the next round repeats it.
 * - A round reads up to LAG_MS ago only: a submission's time is its transaction's start, and one
 *   still being written when the round reads must not be passed over.
 * - With no device, the cursor moves to now: switching alerts on later does not bring the past.
 * - One alert per kind a round: the item itself when there is one, else a count and the list.
 */
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { AlertKind, AlertPayload } from '~/contract/push';
import { CONSOLE_PATH } from '~/content/routes';
import type { Queryable } from '../kit/db/client';
import { rowsOf } from '../kit/db/rows';
import { runEvery } from '../kit/timer';
import type { PushSender } from './push';
import { ownerPushDevices } from './tables';

export const ALERT_EVERY_MS = 5_000;
const LAG_MS = 2_000;
const LEASE_MS = 60_000;
/** Items read a round, per kind of row: the rest waits for the next round. */
const ROUND_LIMIT = 200;

type Item = { kind: AlertKind; id: string; at: string };

const WORDS: Record<
  Exclude<AlertKind, 'test'>,
  { one: string; many: (n: number) => string; list: string }
> = {
  booking: {
    one: 'New booking request',
    many: (n) => `${n} new booking requests`,
    list: `${CONSOLE_PATH}/bookings`,
  },
  lead: { one: 'New lead', many: (n) => `${n} new leads`, list: `${CONSOLE_PATH}/inbox` },
  spam: {
    one: 'A message was held as spam',
    many: (n) => `${n} messages were held as spam`,
    list: `${CONSOLE_PATH}/spam`,
  },
  delivery: {
    one: 'An e-mail could not be delivered',
    many: (n) => `${n} e-mails could not be delivered`,
    list: `${CONSOLE_PATH}/deliveries?status=failed`,
  },
};

/** The alerts of one round's items: one per kind, the item's own page when it is alone. */
export function alertsOf(items: readonly Item[]): AlertPayload[] {
  const out: AlertPayload[] = [];
  for (const kind of ['booking', 'lead', 'spam', 'delivery'] as const) {
    const mine = items.filter((item) => item.kind === kind);
    if (mine.length === 0) continue;
    const words = WORDS[kind];
    const alone = mine.length === 1 ? mine[0] : undefined;
    out.push({
      kind,
      title: alone ? words.one : words.many(mine.length),
      body: 'Open it in the console.',
      url: alone && kind !== 'delivery' ? `${CONSOLE_PATH}/inbox/${alone.id}` : words.list,
      tag: alone ? `${kind}-${alone.id}` : kind,
    });
  }
  return out;
}

export type AlertsJob = { run(): Promise<number>; stop(): Promise<void> };

export function startAlerts(deps: {
  db: Queryable;
  sender: PushSender;
  log: FastifyBaseLogger;
  everyMs?: number;
}): AlertsJob {
  const { db, sender, log } = deps;

  async function round(): Promise<number> {
    // The cursor's first row starts now: nothing stored before alerts existed is announced.
    await db.execute(sql`
      insert into owner_alert_cursor (name, submissions_after, failures_after)
        values ('alerts', now(), now()) on conflict (name) do nothing`);
    const [claimed] = rowsOf<{ submissions_after: string; failures_after: string; upto: string }>(
      await db.execute(sql`
        update owner_alert_cursor
          set claimed_until = now() + ${`${LEASE_MS} milliseconds`}::interval
          where name = 'alerts' and (claimed_until is null or claimed_until < now())
          returning submissions_after::text, failures_after::text,
                    (now() - ${`${LAG_MS} milliseconds`}::interval)::text as upto`),
    );
    if (!claimed) return 0;
    const release = (submissionsAfter: string, failuresAfter: string) =>
      db.execute(sql`
        update owner_alert_cursor
          set submissions_after = greatest(submissions_after, ${submissionsAfter}::timestamptz),
              failures_after = greatest(failures_after, ${failuresAfter}::timestamptz),
              claimed_until = null
          where name = 'alerts'`);

    const devices = await db.select().from(ownerPushDevices);
    if (devices.length === 0) {
      await release(claimed.upto, claimed.upto);
      return 0;
    }
    const submissions = rowsOf<{ id: string; form_type: string; spam: boolean; at: string }>(
      await db.execute(sql`
        select id, form_type, spam, received_at::text as at from submissions
          where received_at > ${claimed.submissions_after}::timestamptz and received_at <= ${claimed.upto}::timestamptz
          order by received_at limit ${ROUND_LIMIT}`),
    );
    const failures = rowsOf<{ id: string; at: string }>(
      await db.execute(sql`
        select id::text, last_attempt_at::text as at from outbox
          where status = 'failed' and last_attempt_at > ${claimed.failures_after}::timestamptz
            and last_attempt_at <= ${claimed.upto}::timestamptz
          order by last_attempt_at limit ${ROUND_LIMIT}`),
    );
    const items: Item[] = [
      ...submissions.map((s) => ({
        kind: (s.spam ? 'spam' : s.form_type === 'booking' ? 'booking' : 'lead') as AlertKind,
        id: s.id,
        at: s.at,
      })),
      ...failures.map((f) => ({ kind: 'delivery' as const, id: f.id, at: f.at })),
    ];
    for (const alert of alertsOf(items)) await sender.send(db, devices, alert);
    // A full round stops at its last row; a short one has read everything up to `upto`.
    const lastOf = (rows: { at: string }[]) =>
      rows.length === ROUND_LIMIT ? rows[rows.length - 1]!.at : claimed.upto;
    await release(lastOf(submissions), lastOf(failures));
    if (items.length > 0) log.info({ alerts: items.length }, 'alerts sent');
    return items.length;
  }

  const job = runEvery(
    () =>
      round().catch((error: unknown) => {
        log.warn({ code: (error as { code?: string }).code ?? 'ERROR' }, 'alerts round failed');
        return 0;
      }),
    { firstAfterMs: deps.everyMs ?? ALERT_EVERY_MS, everyMs: deps.everyMs ?? ALERT_EVERY_MS },
  );
  return job;
}
