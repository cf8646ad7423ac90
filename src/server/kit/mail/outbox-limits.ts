/**
 * The limits on e-mail to visitors (anyone can aim a form at a stranger's address): one e-mail
 * of a kind per recipient a day, and an hourly cap over every instance, past which visitor
 * e-mails wait in the outbox and the owner is alerted, once an hour at most. The worker
 * (./outbox-worker.ts) asks `visitorVerdict` before it sends a visitor e-mail.
 */
import { createHmac } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { Db, Queryable } from '../db/client';
import { rowsOf } from '../db/rows';
import { outbox } from '../db/schema';
import { outboxRows, storedMessage, type ClaimedRow, type OutgoingEmail } from './outbox';

/** VISITOR_MAIL_HOURLY_CAP's default. */
export const DEFAULT_VISITOR_HOURLY_CAP = 200;
/** One e-mail of a kind per recipient in this window. */
const RECIPIENT_WINDOW = '24 hours';
/** At most one cap alert to the owner in this window. */
const ALERT_WINDOW = '1 hour';
const ALERT_KEY = 'alert:visitor-mail-cap';
export const CAP_ALERT_KIND = 'alert.visitor-mail-cap';
/** Any fixed number: the instances take this lock while they count visitor e-mails against the cap. */
const VISITOR_CAP_LOCK = 727_002;
/** A held visitor e-mail is looked at again no sooner than this. */
const MIN_HOLD_MS = 5_000;

/** The mail_throttle key of one kind of e-mail to one address: a keyed hash, never the address. */
export function recipientKey(secret: string, kind: string, address: string): string {
  const hash = createHmac('sha256', secret).update(address.trim().toLowerCase()).digest('base64url');
  return `recipient:${kind}:${hash}`;
}

/** The owner's alert: how many visitor e-mails wait, and that they leave as the hour passes. */
export function capAlertEmail(to: string, waiting: number, cap: number): OutgoingEmail {
  const count = `${waiting} visitor e-mail${waiting === 1 ? '' : 's'}`;
  return {
    kind: CAP_ALERT_KIND,
    to,
    audience: 'owner',
    subject: 'Visitor e-mails are waiting: hourly limit reached',
    content: {
      preheader: `${count} waiting in the outbox`,
      heading: 'The hourly limit on visitor e-mails was reached',
      blocks: [
        {
          type: 'paragraph',
          text: `The site's forms have sent ${cap} e-mails to visitors' addresses within the last hour, the most it sends in an hour. ${count} ${waiting === 1 ? 'is' : 'are'} waiting in the outbox.`,
        },
        {
          type: 'paragraph',
          text: 'Nothing is lost: they go out on their own as the hour passes, oldest first. Your own notifications are not held back.',
        },
        {
          type: 'small',
          text: 'A sudden burst can mean someone is aiming the forms at other people’s addresses. The limit is VISITOR_MAIL_HOURLY_CAP. You get this alert at most once an hour.',
        },
      ],
    },
  };
}

export type VisitorLimits = {
  /** Keys the recipient marks. */
  secret: string;
  hourlyCap: number;
  /** Receives the cap alert; without it there is no alert. */
  ownerEmail?: string;
};

/** The kind a row is limited as: its kind, within its scope if it has one (`limitScope`). */
function limitKind(row: Pick<ClaimedRow, 'kind' | 'message'>): string {
  const scope = 'limitScope' in row.message ? row.message.limitScope : undefined;
  return typeof scope === 'string' && scope !== '' ? `${row.kind}:${scope}` : row.kind;
}

/**
 * Ends the day's marks of the kinds of `rows` to their addresses, so that e-mails held back and
 * now released by the address's own confirmation (decision 030) are not skipped for a mark an
 * e-mail before the erasure left. One of each kind goes again: the first released row takes the
 * mark anew and any other of its kind is skipped, as ever.
 */
export async function endRecipientMarks(
  tx: Queryable,
  secret: string,
  rows: readonly { kind: string; to_address: string; message: ClaimedRow['message'] | string }[],
): Promise<void> {
  const keys = [
    ...new Set(
      rows.map((row) =>
        recipientKey(
          secret,
          limitKind({ kind: row.kind, message: storedMessage(row.message) }),
          row.to_address,
        ),
      ),
    ),
  ];
  if (keys.length === 0) return;
  await tx.execute(
    sql`delete from mail_throttle where key in (${sql.join(
      keys.map((key) => sql`${key}`),
      sql`, `,
    )})`,
  );
}

/** What the visitor-mail limits say about one claimed row. */
export type Verdict = { send: true } | { send: false; outcome: 'skipped' | 'held' };

/**
 * A visitor e-mail may go when its recipient has had none of its kind within 24 hours (a mark
 * this row takes, or already holds from an earlier attempt) and fewer than the hourly cap of
 * visitor e-mails went out in the last hour. Counting and reserving happen under one lock, so
 * instances sharing a database never pass the cap together. A skipped row is marked so; a held
 * one is due again when the oldest counted e-mail leaves the hour.
 */
export async function visitorVerdict(db: Db, row: ClaimedRow, limits: VisitorLimits): Promise<Verdict> {
  const id = Number(row.id);
  const key = recipientKey(limits.secret, limitKind(row), row.to_address);
  return db.transaction(async (tx) => {
    const marked = rowsOf(
      await tx.execute(sql`
        insert into mail_throttle (key, last_at, holder) values (${key}, now(), ${id})
        on conflict (key) do update set last_at = now(), holder = excluded.holder
        where mail_throttle.last_at < now() - ${RECIPIENT_WINDOW}::interval
          or mail_throttle.holder = excluded.holder
        returning key`),
    );
    if (marked.length === 0) {
      await tx.execute(sql`update ${outbox} set status = 'skipped', sent_at = null where id = ${id}`);
      return { send: false, outcome: 'skipped' } as const;
    }
    await tx.execute(sql`select pg_advisory_xact_lock(${VISITOR_CAP_LOCK})`);
    // Sent in the last hour, or being sent now by another worker (reserved below).
    const [count] = rowsOf<{ n: number }>(
      await tx.execute(sql`
        select count(*)::int as n from ${outbox}
        where audience = 'visitor' and sent_at > now() - interval '1 hour' and id <> ${id}`),
    );
    if (count!.n >= limits.hourlyCap) {
      // Due again when the oldest counted e-mail leaves the hour; not an attempt.
      await tx.execute(sql`
        update ${outbox} set attempts = attempts - 1, next_attempt_at = greatest(
          (select min(sent_at) from ${outbox}
            where audience = 'visitor' and sent_at > now() - interval '1 hour') + interval '1 hour',
          now() + ${`${MIN_HOLD_MS} milliseconds`}::interval)
        where id = ${id}`);
      return { send: false, outcome: 'held' } as const;
    }
    await tx.execute(sql`update ${outbox} set sent_at = now() where id = ${id}`);
    return { send: true } as const;
  });
}

/**
 * Queues the owner's alert that visitor e-mails are being held back, once an hour at most.
 * True when an alert was queued now (it is due at once).
 */
export async function queueCapAlert(db: Queryable, log: Logger, limits: VisitorLimits): Promise<boolean> {
  if (!limits.ownerEmail) return false;
  const [waiting] = rowsOf<{ n: number }>(
    await db.execute(
      // Pending and not being sent right now (a row being sent holds a reservation, sent_at).
      sql`select count(*)::int as n from ${outbox}
          where status = 'pending' and audience = 'visitor' and sent_at is null`,
    ),
  );
  const [row] = outboxRows([capAlertEmail(limits.ownerEmail, waiting!.n, limits.hourlyCap)]);
  const inserted = rowsOf<{ id: string }>(
    await db.execute(sql`
      with mark as (
        insert into mail_throttle (key, last_at, holder) values (${ALERT_KEY}, now(), null)
        on conflict (key) do update set last_at = now()
        where mail_throttle.last_at < now() - ${ALERT_WINDOW}::interval
        returning key
      )
      insert into ${outbox} (kind, to_address, audience, message)
      select ${row!.kind}, ${row!.toAddress}, 'owner', ${JSON.stringify(row!.message)}::jsonb from mark
      returning id::text as id`),
  );
  if (!inserted[0]) return false;
  log.warn({ outboxId: Number(inserted[0].id), waiting: waiting!.n }, 'visitor e-mail cap reached');
  return true;
}
