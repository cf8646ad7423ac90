/**
 * The outbox worker's steps over the database and the relay, each given what it needs (tests call
 * them one by one); ./outbox-worker.ts runs them in rounds:
 *  - claim: due rows, with `FOR UPDATE SKIP LOCKED` (instances sharing one Postgres never claim
 *    the same row). A claim pushes each row's next attempt out by a lease covering the longest
 *    ONE message may take and a margin; a row is handed to the relay only within half that
 *    margin of its claim, or handed back;
 *  - suppressed: rows to an address on the suppression list are never sent;
 *  - compose: a row's message rendered and composed into its MIME bytes, ahead of its round;
 *  - send one: a visitor e-mail first passes the visitor-mail limits (./outbox-limits.ts), then
 *    the message is sent;
 *  - mark: a row is recorded sent once the relay accepted it, the marks of a round in one
 *    statement (`SentMarks`, ./outbox-marks.ts), or its failure and next retry recorded. A
 *    recipient the relay refused for good (a 5xx reply to RCPT TO, stored as `EENVELOPE 5xx`) is
 *    not tried again: the row is `failed` after that one attempt (src/content/delivery-errors.ts
 *    reads the stored codes).
 */
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger as Logger } from 'fastify';
import { IN_DOUBT, isMailboxGone, isRecipientRefusal } from '~/content/delivery-errors';
import type { Db, Queryable } from '../db/client';
import { rowsOf } from '../db/rows';
import { outbox, type OutboxLane } from '../db/schema';
import { ADDRESS_CONFIRM_KIND } from './address-confirm';
import { outboxRows, storedMessage, suppressionHash, type ClaimedRow, type OutgoingEmail } from './outbox';
import { queueCapAlert, visitorVerdict, type VisitorLimits } from './outbox-limits';
import type { DkimSigner } from './dkim';
import { idList, type SendPace, type SentMarks } from './outbox-marks';
import { composeMail, type SenderIdentity } from './outbox-message';
import type Mail from 'nodemailer/lib/mailer';
import type { MailTransport } from './transport';

/** Delay before the retry after failed attempt `attempt` (1-based): 25 s, 75 s, ... ~15 h. */
export function defaultRetryDelayMs(attempt: number): number {
  return 25_000 * 3 ** (attempt - 1);
}
/** 1 try + 8 retries: the last retry comes about 23 hours after the first failure. */
export const DEFAULT_MAX_ATTEMPTS = 9;

export type RetryPolicy = { maxAttempts: number; retryDelayMs: (attempt: number) => number };

/**
 * What is stored of a failed send: its error code and the relay's reply, if any ("EENVELOPE 550"),
 * never the relay's text (which can quote addresses). A refusal at MAIL FROM, which nodemailer
 * codes `EENVELOPE` as it does a refused recipient, is stored as `ESENDER`: the relay refused our
 * sending address, which every e-mail shares, not this one recipient.
 */
export function errorCode(error: unknown): string {
  const e = error as { code?: unknown; responseCode?: unknown; command?: unknown; response?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : 'ERROR';
  const parts = [code === 'EENVELOPE' && e?.command === 'MAIL FROM' ? 'ESENDER' : code];
  if (typeof e?.responseCode === 'number') parts.push(String(e.responseCode));
  // The reply's enhanced status (RFC 3463), which tells a refused mailbox (5.1.1) from a relay
  // refusing for its own reasons (5.7.1 "relaying denied", reported at RCPT TO by many relays).
  const enhanced = typeof e?.response === 'string' ? /\b([245]\.\d{1,3}\.\d{1,3})\b/.exec(e.response) : null;
  if (enhanced?.[1] && typeof e?.responseCode === 'number') parts.push(enhanced[1]);
  return parts
    .join(' ')
    .replace(/[^A-Z0-9_. ]/gi, '')
    .slice(0, 40);
}

// --- Claim -------------------------------------------------------------------------------------

/**
 * Claims up to `limit` due rows, each leased for `leaseMs` (one message's worst case and a
 * margin). Due means due by `at` (the worker's clock, when it has one) or else by the database's.
 */
export async function claimDue(
  db: Queryable,
  limit: number,
  leaseMs: number,
  at?: Date,
  lane: OutboxLane = 'mail',
): Promise<ClaimedRow[]> {
  const now = at ? sql`${at.toISOString()}::timestamptz` : sql`now()`;
  const result = await db.execute(sql`
    update ${outbox} set attempts = attempts + 1,
      next_attempt_at = ${now} + ${`${leaseMs} milliseconds`}::interval
    where id in (
      select id from ${outbox}
      where status = 'pending' and lane = ${lane} and next_attempt_at <= ${now}
      order by lane, next_attempt_at
      limit ${limit}
      for update skip locked
    )
    returning id::text as id, kind, to_address, audience, message, attempts, handed_at is not null as handed`);
  return rowsOf<Omit<ClaimedRow, 'message'> & { message: ClaimedRow['message'] | string }>(result).map(
    (row) =>
      typeof row.message === 'string' ? { ...row, message: storedMessage(row.message) } : (row as ClaimedRow),
  );
}

/**
 * Hands rows back untouched (shutting down, or held too long before a connection was free): due
 * again now, the claim not counted as an attempt. Only while their lease holds.
 */
export async function releaseRows(db: Queryable, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  // A row handed back was never handed to the relay: it is not in doubt.
  await db.execute(
    sql`update ${outbox} set
          next_attempt_at = case when status = 'pending' then now() else next_attempt_at end,
          attempts = case when status = 'pending' then attempts - 1 else attempts end,
          sent_at = case when status = 'pending' then null else sent_at end,
          handed_at = null
        where id in (${idList(ids)}) and status in ('pending', 'held', 'cancelled')`,
  );
}

/**
 * At most once, for a mailing (decision 046): the round's rows are stamped as being with the relay
 * before they are handed over (`handed_at`); the outcome (a sent mark, a failure) clears it. A row
 * claimed again with the stamp still on was with the relay when the process died, unanswered: it
 * may have arrived, so it is marked `failed` (`EINDOUBT`) rather than sent a second time
 * (`dropInDoubt`). Only rows still `pending` are stamped, and only those are sent: a row held,
 * cancelled or dropped since its claim is not. Answers the ids stamped.
 */
export async function stampInFlight(db: Queryable, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const stamped = rowsOf<{ id: number | string }>(
    await db.execute(
      sql`update ${outbox} set handed_at = now() where id in (${idList(ids)}) and status = 'pending' returning id`,
    ),
  );
  return new Set(stamped.map((row) => Number(row.id)));
}

/** Rows that may have reached the relay: `failed` as `EINDOUBT`, never sent again. */
async function markInDoubt(db: Queryable, ids: readonly number[]): Promise<void> {
  await db.execute(
    sql`update ${outbox} set status = 'failed', last_error = ${IN_DOUBT},
          last_attempt_at = coalesce(handed_at, now()), handed_at = null, sent_at = null
        where id in (${idList(ids)})`,
  );
}

/** Marks the claimed rows that still carry the in-flight stamp `failed` (`EINDOUBT`); answers the rest. */
export async function dropInDoubt(db: Queryable, log: Logger, rows: ClaimedRow[]): Promise<ClaimedRow[]> {
  const doubtful = rows.filter((row) => row.handed).map((row) => Number(row.id));
  if (doubtful.length === 0) return rows;
  await markInDoubt(db, doubtful);
  log.warn({ count: doubtful.length }, 'mailing e-mails with the relay at a stop not sent again');
  return rows.filter((row) => !row.handed);
}

/**
 * What the suppression list does not stop: the hashes of the console's own addresses (the outbox
 * writes to those whatever the list says), and what a held visitor e-mail leads to: `confirm`
 * makes the e-mail that asks the suppressed address to confirm it is theirs (decision 030).
 */
export type SuppressionPolicy = {
  exempt?: ReadonlySet<string>;
  confirm?: (heldId: number, to: string) => Promise<OutgoingEmail>;
};

/**
 * The claimed rows whose recipient may be written to. A row to a suppressed address (someone who
 * unsubscribed or was erased) is marked `suppressed` and never sent, whatever queued it: one
 * look-up a claim, by primary key. Two things pass: a row to one of the console's own addresses
 * (`policy.exempt`), and the address confirmation itself, a visitor e-mail limited like the rest.
 * For each address whose visitor e-mails were held back here, one confirmation is queued (with the
 * `policy.confirm` e-mail), on the held row's submission so that it goes with it.
 */
export async function dropSuppressed(
  db: Queryable,
  secret: string,
  rows: ClaimedRow[],
  policy: SuppressionPolicy = {},
): Promise<ClaimedRow[]> {
  if (rows.length === 0) return rows;
  const hashes = new Map(rows.map((row) => [Number(row.id), suppressionHash(secret, row.to_address)]));
  const found = rowsOf<{ hash: string }>(
    await db.execute(
      sql`select hash from suppressions where hash in (${sql.join(
        [...new Set(hashes.values())].map((h) => sql`${h}`),
        sql`, `,
      )})`,
    ),
  );
  if (found.length === 0) return rows;
  const suppressed = new Set(found.map((f) => f.hash));
  const held = rows.filter((row) => {
    const hash = hashes.get(Number(row.id))!;
    return suppressed.has(hash) && !policy.exempt?.has(hash) && row.kind !== ADDRESS_CONFIRM_KIND;
  });
  if (held.length === 0) return rows;
  const dropped = held.map((row) => Number(row.id));
  await db.execute(
    sql`update ${outbox} set status = 'suppressed', sent_at = null, last_error = null where id in (${idList(dropped)})`,
  );
  if (policy.confirm) {
    const firstOfEach = new Map<string, ClaimedRow>();
    for (const row of held) {
      const hash = hashes.get(Number(row.id))!;
      if (row.audience === 'visitor' && !firstOfEach.has(hash)) firstOfEach.set(hash, row);
    }
    for (const row of firstOfEach.values()) {
      const [confirm] = outboxRows([await policy.confirm(Number(row.id), row.to_address)]);
      await db.execute(sql`
        insert into ${outbox} (submission_id, kind, to_address, audience, message)
        select submission_id, ${confirm!.kind}, ${confirm!.toAddress}, 'visitor', ${JSON.stringify(confirm!.message)}::jsonb
        from ${outbox} where id = ${Number(row.id)}`);
    }
  }
  return rows.filter((row) => !dropped.includes(Number(row.id)));
}

// --- Mark --------------------------------------------------------------------------------------

/**
 * Records a failed send: due again after the policy's delay, or `failed` for good after the
 * last attempt, or at once when the relay refused the recipient for good (`EENVELOPE 5xx`: the
 * address does not exist, and would be refused again). When the refusal's enhanced status says
 * the mailbox is gone (5.1.1 and the like, `isMailboxGone`), the address goes on the suppression
 * list (`bounced`, with `bounce`), so nothing is sent to it again until it is lifted, unless it is
 * one of the console's own. A 4xx is retried and, at the last attempt, fails without suppressing:
 * through one relay, a deferral is most often the relay's own (decision 045). A visitor e-mail failed for good frees the recipient mark it held:
 * nobody received it.
 */
export async function markFailure(
  db: Queryable,
  log: Logger,
  row: ClaimedRow,
  code: string,
  retry: RetryPolicy,
  bounce?: { secret: string; exempt?: ReadonlySet<string> },
): Promise<'retry' | 'failed'> {
  const id = Number(row.id);
  const attempts = row.attempts;
  const refused = isRecipientRefusal(code);
  if (refused || attempts >= retry.maxAttempts) {
    await db.execute(
      sql`update ${outbox} set status = 'failed', last_error = ${code}, sent_at = null, last_attempt_at = now(), handed_at = null where id = ${id}`,
    );
    if (bounce && isMailboxGone(code)) {
      const hash = suppressionHash(bounce.secret, row.to_address);
      if (!bounce.exempt?.has(hash))
        await db.execute(
          sql`insert into suppressions (hash, reason) values (${hash}, 'bounced') on conflict (hash) do nothing`,
        );
    }
    if (row.audience === 'visitor')
      await db.execute(sql`delete from mail_throttle where holder = ${id} and key like 'recipient:%'`);
    if (refused)
      log.warn({ outboxId: id, attempts, code }, 'e-mail delivery failed for good: recipient refused');
    else log.error({ outboxId: id, attempts, code }, 'e-mail delivery failed for good');
    return 'failed';
  }
  const delay = retry.retryDelayMs(attempts);
  await db.execute(
    sql`update ${outbox} set last_error = ${code}, sent_at = null, last_attempt_at = now(), handed_at = null,
          next_attempt_at = now() + ${`${delay} milliseconds`}::interval
        where id = ${id}`,
  );
  log.warn({ outboxId: id, attempts, code, retryInMs: delay }, 'e-mail delivery failed, will retry');
  return 'retry';
}

// --- Send one ----------------------------------------------------------------------------------

/**
 * A claimed row on its way to the relay: when its claim was asked for (`performance.now()`), and
 * its message once composed (`composeAhead`).
 */
export type ClaimedItem = { row: ClaimedRow; claimedAt: number; mail?: Promise<Mail.Options> };

/** A row's message composed into its bytes, then signed when DKIM is on (./dkim.ts). */
function composed(row: ClaimedRow, identity: SenderIdentity, dkim: DkimSigner | undefined) {
  const mail = composeMail(row, identity);
  return dkim ? mail.then((m) => dkim.signMail(m)) : mail;
}

/** Composes the rows' messages now (while the round before them is sent and recorded). */
export async function composeAhead(
  items: readonly ClaimedItem[],
  identity: SenderIdentity,
  dkim?: DkimSigner,
): Promise<void> {
  for (const item of items) {
    if (item.mail) continue;
    item.mail = composed(item.row, identity, dkim);
    // A message that cannot be composed fails its send, in `sendOne`.
    item.mail.catch(() => {});
  }
  await Promise.allSettled(items.map((item) => item.mail));
}

/** What `sendOne` needs from the worker. */
export type SendStep = {
  db: Db;
  transport: MailTransport;
  log: Logger;
  settings: {
    retry: RetryPolicy;
    limits: VisitorLimits;
    identity: SenderIdentity;
    /** Signs every message when DKIM is on. */
    dkim?: DkimSigner;
    /** The console's own addresses, never suppressed when refused. */
    suppression: Pick<SuppressionPolicy, 'exempt'>;
    leaseMs: number;
    /** How long after its claim a row may still be handed to the relay. */
    holdMs: number;
    /** The time (tests move it); undefined: the machine's. */
    clock?: () => Date;
  };
  marks: SentMarks;
  /** The worker is stopping: a row not yet handed to the relay goes back. */
  stopping(): boolean;
  /** How long sends take (the worker claims ahead only while they are quick). */
  pace?: SendPace;
};

/**
 * How one claimed row ended: `alerted` is a held row whose hold queued the owner's cap alert
 * (due now); `released` went back unsent (stopping, or held past its hand-over time); `sent` is
 * accepted by the relay, its mark under way (a failed mark is logged: the row falls due again
 * when its lease ends, at least once).
 */
export type SendOutcome = 'sent' | 'retry' | 'failed' | 'skipped' | 'held' | 'alerted' | 'released';

/**
 * One claimed row: the visitor limits; then, while its hold lasts, the send (of the message
 * composed ahead, or composed now) and its mark (asked for, not awaited: the round writes its
 * marks together, before the next round is handed to the relay).
 */
export async function sendOne(item: ClaimedItem, step: SendStep): Promise<SendOutcome> {
  const { row, claimedAt } = item;
  const { db, transport, log, settings } = step;
  const id = Number(row.id);
  if (row.audience === 'visitor') {
    const verdict = await visitorVerdict(db, row, settings.limits);
    if (!verdict.send) {
      if (verdict.outcome === 'skipped') {
        log.info(
          { outboxId: id, kind: row.kind },
          'visitor e-mail skipped: its recipient had one of its kind today',
        );
        return 'skipped';
      }
      return (await queueCapAlert(db, log, settings.limits)) ? 'alerted' : 'held';
    }
  }
  const notAfter = 'notAfter' in row.message ? row.message.notAfter : undefined;
  if (notAfter && (settings.clock?.() ?? new Date()).getTime() > Date.parse(notAfter)) {
    await db.execute(sql`update ${outbox} set status = 'skipped', last_error = 'late' where id = ${id}`);
    log.info({ outboxId: id, kind: row.kind }, 'scheduled e-mail not sent: its time had passed');
    return 'skipped';
  }
  const age = performance.now() - claimedAt;
  if (step.stopping() || age > settings.holdMs) {
    // Handed back while the lease surely holds; later, the lease lapses on its own.
    if (age < settings.leaseMs - settings.holdMs) await releaseRows(db, [id]);
    return 'released';
  }
  const done = step.pace?.begin();
  let file: string | undefined;
  try {
    const mail = await (item.mail ?? composed(row, settings.identity, settings.dkim));
    ({ file } = await transport.send(mail, id, row.kind));
  } catch (error) {
    done?.();
    const code = errorCode(error);
    // A mailing's message that passed our deadline may have reached the relay: at most once, it
    // is not tried again (decision 046).
    if (row.audience === 'subscriber' && code === 'ESENDDEADLINE') {
      await markInDoubt(db, [id]);
      log.warn({ outboxId: id }, 'mailing e-mail past its deadline not sent again');
      return 'failed';
    }
    return markFailure(db, log, row, code, settings.retry, {
      secret: settings.limits.secret,
      exempt: settings.suppression.exempt,
    });
  }
  done?.();
  step.marks.mark(id).then(
    () => {
      if (file) log.info({ outboxId: id, file }, 'e-mail written to file');
      else log.info({ outboxId: id, kind: row.kind }, 'e-mail sent');
    },
    (error: unknown) => {
      // Sent but not recorded: the row falls due again when its lease ends (at least once).
      log.warn({ outboxId: id, code: errorCode(error) }, 'e-mail sent but not recorded');
    },
  );
  return 'sent';
}
