/**
 * The alerts job (decision 041): every few seconds, what arrived since the last round (booking
 * requests, other leads, messages held as spam, e-mails that failed for good) is announced to
 * every console device that switched alerts on (./push.ts). It reads what is stored, so the form
 * endpoint's path is untouched and nothing acknowledged goes unannounced across a restart.
 *
 * - One cursor row (`owner_alert_cursor`): the last submission and failure announced, each by its
 *   time and id (one statement stores many submissions at one time). A round is claimed by one
 *   conditional update of `claimed_until` (a lease, released only by its holder), so of two
 *   instances one announces; a round that dies leaves its lease to end and the next repeats it.
 * - A round reads up to LAG_MS ago, and never past the start of a transaction still open on the
 *   database (PostgreSQL's pg_stat_activity): a submission's time is its transaction's start, so
 *   one committed later than a round's read must still be after the cursor.
 * - Each device hears what its person may open: a helper no failed e-mails (Deliveries is the
 *   owner's); a device of an address no longer in the console's settings hears nothing.
 * - With no device, the cursor moves to now: switching alerts on later does not bring the past.
 * - One alert per kind a round: the item itself when there is one, else a count and the list.
 */
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { AlertKind, AlertPayload } from '~/contract/push';
import { CONSOLE_PATH } from '~/content/routes';
import type { Config } from '../kit/config';
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
  Exclude<AlertKind, 'test' | 'system'>,
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

type Cursor = {
  submissions_after: string;
  submissions_after_id: string | null;
  failures_after: string;
  failures_after_id: string | null;
  lease: string;
  upto: string;
};

export function startAlerts(deps: {
  db: Queryable;
  sender: PushSender;
  log: FastifyBaseLogger;
  config: Pick<Config, 'consoleUsers'>;
  everyMs?: number;
}): AlertsJob {
  const { db, sender, log, config } = deps;
  const roles = new Map(config.consoleUsers.map((user) => [user.email.toLowerCase(), user.role]));

  async function round(): Promise<number> {
    // The cursor's first row starts now: nothing stored before alerts existed is announced.
    await db.execute(sql`
      insert into owner_alert_cursor (name, submissions_after, failures_after)
        values ('alerts', now(), now()) on conflict (name) do nothing`);
    const [claimed] = rowsOf<Cursor>(
      await db.execute(sql`
        update owner_alert_cursor
          set claimed_until = clock_timestamp() + ${`${LEASE_MS} milliseconds`}::interval
          where name = 'alerts' and (claimed_until is null or claimed_until < now())
          returning submissions_after::text, submissions_after_id::text,
                    failures_after::text, failures_after_id::text, claimed_until::text as lease,
                    least(now() - ${`${LAG_MS} milliseconds`}::interval,
                          (select min(xact_start) from pg_stat_activity
                            where datname = current_database() and pid <> pg_backend_pid()
                              and xact_start is not null))::text as upto`),
    );
    if (!claimed) return 0;
    const release = (
      submissions: { at: string; id: string | null },
      failures: { at: string; id: string | null },
    ) =>
      db.execute(sql`
        update owner_alert_cursor
          set submissions_after = ${submissions.at}::timestamptz, submissions_after_id = ${submissions.id}::uuid,
              failures_after = ${failures.at}::timestamptz, failures_after_id = ${failures.id}::bigint,
              claimed_until = null
          where name = 'alerts' and claimed_until = ${claimed.lease}::timestamptz`);
    const kept = {
      submissions: { at: claimed.submissions_after, id: claimed.submissions_after_id },
      failures: { at: claimed.failures_after, id: claimed.failures_after_id },
    };

    const devices = (await db.select().from(ownerPushDevices)).filter((d) =>
      roles.has(d.email.toLowerCase()),
    );
    if (devices.length === 0) {
      // Nothing to tell anyone: the cursor moves on to the round's end.
      const now = { at: claimed.upto, id: null };
      await release(
        claimed.upto > claimed.submissions_after ? now : kept.submissions,
        claimed.upto > claimed.failures_after ? now : kept.failures,
      );
      return 0;
    }
    const afterSubmission = sql`(received_at, id) > (${claimed.submissions_after}::timestamptz,
      coalesce(${claimed.submissions_after_id}::uuid, 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid))`;
    const submissions = rowsOf<{ id: string; form_type: string; spam: boolean; at: string }>(
      await db.execute(sql`
        select id::text, form_type, spam, received_at::text as at from submissions
          where ${afterSubmission} and received_at <= ${claimed.upto}::timestamptz
          order by received_at, id limit ${ROUND_LIMIT}`),
    );
    const afterFailure = sql`(last_attempt_at, id) > (${claimed.failures_after}::timestamptz,
      coalesce(${claimed.failures_after_id}::bigint, 9223372036854775807))`;
    const failures = rowsOf<{ id: string; at: string }>(
      await db.execute(sql`
        select id::text, last_attempt_at::text as at from outbox
          where status = 'failed' and lane = 'mail' and ${afterFailure} and last_attempt_at <= ${claimed.upto}::timestamptz
          order by last_attempt_at, id limit ${ROUND_LIMIT}`),
    );
    const items: Item[] = [
      ...submissions.map((s) => ({
        kind: (s.spam ? 'spam' : s.form_type === 'booking' ? 'booking' : 'lead') as AlertKind,
        id: s.id,
        at: s.at,
      })),
      ...failures.map((f) => ({ kind: 'delivery' as const, id: f.id, at: f.at })),
    ];
    for (const alert of alertsOf(items)) {
      const hearing = devices.filter(
        (d) => alert.kind !== 'delivery' || roles.get(d.email.toLowerCase()) === 'owner',
      );
      await sender.send(db, hearing, alert);
    }
    // The cursor moves to the last row read; a round that read nothing keeps it.
    const last = <T extends { at: string; id: string }>(
      rows: T[],
      keep: { at: string; id: string | null },
    ) => (rows.length > 0 ? { at: rows[rows.length - 1]!.at, id: rows[rows.length - 1]!.id } : keep);
    await release(last(submissions, kept.submissions), last(failures, kept.failures));
    if (items.length > 0) log.info({ alerts: items.length }, 'alerts sent');
    return items.length;
  }

  return runEvery(
    () =>
      round().catch((error: unknown) => {
        log.warn({ code: (error as { code?: string }).code ?? 'ERROR' }, 'alerts round failed');
        return 0;
      }),
    { firstAfterMs: deps.everyMs ?? ALERT_EVERY_MS, everyMs: deps.everyMs ?? ALERT_EVERY_MS },
  );
}
