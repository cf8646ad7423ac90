/**
 * The outbox's worker: one in every server process sends the rows queued by ./outbox.ts, in
 * named steps:
 *  - claim: due rows, with `FOR UPDATE SKIP LOCKED` (instances sharing one Postgres never claim
 *    the same row), as many as the transport sends at once (one per pooled SMTP connection). A
 *    claim pushes each row's next attempt out by a lease covering the longest ONE message may
 *    take (the transport bounds it); every claimed row goes to the relay straight away;
 *  - send one: a visitor e-mail first passes the visitor-mail limits (./outbox-limits.ts: one
 *    of a kind per recipient a day, an hourly cap over all instances), then the message is sent;
 *  - mark: the row is recorded sent as soon as the relay accepted it (or its failure and next
 *    retry recorded), not at the end of a batch;
 *  - back off: between rounds, idle until woken or polled, or yield to requests.
 * Each step is a function of its own below, given what it needs (tests call them one by one);
 * `createOutboxWorker` is the loop over them, holding only the worker's state (running, the
 * wake signal, who waits for a drain).
 * If the process dies mid-send, the rows in flight fall due again when their lease ends and
 * are sent again: delivery is at least once, and only what was in flight can repeat. The
 * Message-ID is derived from the row id so a repeat is recognisable (./outbox-message.ts).
 */
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { Db, Queryable } from '../db/client';
import { rowsOf } from '../db/rows';
import { outbox } from '../db/schema';
import { suppressionHash, type ClaimedRow } from './outbox';
import { toMail, type SenderIdentity } from './outbox-message';
import {
  DEFAULT_VISITOR_HOURLY_CAP,
  queueCapAlert,
  visitorVerdict,
  type VisitorLimits,
} from './outbox-limits';
import type { MailTransport } from './transport';

/** Delay before the retry after failed attempt `attempt` (1-based): 25 s, 75 s, ... ~15 h. */
export function defaultRetryDelayMs(attempt: number): number {
  return 25_000 * 3 ** (attempt - 1);
}
/** 1 try + 8 retries: the last retry comes about 23 hours after the first failure. */
export const DEFAULT_MAX_ATTEMPTS = 9;

export type OutboxWorkerOptions = {
  db: Db;
  transport: MailTransport;
  log: Logger;
  mailFrom: string;
  /** Signs the Message-ID, so it cannot be forged from a row id alone; keys the recipient marks. */
  secret: string;
  brand: string;
  /** Receives the alert when the hourly visitor-mail cap holds e-mails back. */
  ownerEmail?: string;
  /** Most visitor e-mails sent in any hour, over every instance (VISITOR_MAIL_HOURLY_CAP). */
  visitorHourlyCap?: number;
  /**
   * Most rows one claim takes. Never more than the transport sends at once: every claimed row
   * goes to the relay straight away, so its lease covers one message, not a queue of them.
   */
  batchSize?: number;
  /** How often to look for due rows when nothing wakes the worker (other instances, retries). */
  pollIntervalMs?: number;
  /**
   * How long a claimed row stays out of other workers' reach while it is being sent: the
   * longest one message may take (the transport's `maxSendMs`) and a margin.
   */
  leaseMs?: number;
  retryDelayMs?: (attempt: number) => number;
  maxAttempts?: number;
  /**
   * The time rows fall due by (a row queued with `sendAt` waits until then). Absent: the
   * database's own clock. Tests move it to send scheduled e-mails without waiting.
   */
  clock?: () => Date;
};

export type OutboxWorker = {
  start(): void;
  /** A new row was committed: look now rather than at the next poll. */
  wake(): void;
  /** Finishes the messages being sent, hands back the rows not yet sent, and stops. */
  stop(): Promise<void>;
  /** Resolves when no due row is left (tests). */
  drain(): Promise<void>;
};

export function errorCode(error: unknown): string {
  const e = error as { code?: unknown; responseCode?: unknown } | null;
  const parts = [typeof e?.code === 'string' ? e.code : 'ERROR'];
  if (typeof e?.responseCode === 'number') parts.push(String(e.responseCode));
  return parts
    .join(' ')
    .replace(/[^A-Z0-9_ ]/gi, '')
    .slice(0, 40);
}

function idList(ids: readonly number[]) {
  return sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );
}

/**
 * The claimed rows whose recipient may be written to. A row to a suppressed address (someone who
 * unsubscribed or was erased) is marked `suppressed` and never sent, whatever queued it: one
 * look-up a round, by primary key.
 */
export async function dropSuppressed(
  db: Queryable,
  secret: string,
  rows: ClaimedRow[],
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
  const dropped = rows
    .filter((row) => suppressed.has(hashes.get(Number(row.id))!))
    .map((row) => Number(row.id));
  await db.execute(
    sql`update ${outbox} set status = 'suppressed', sent_at = null, last_error = null where id in (${idList(dropped)})`,
  );
  return rows.filter((row) => !dropped.includes(Number(row.id)));
}

// --- Settings ----------------------------------------------------------------------------------

/** What the steps need, resolved once from the worker's options. */
export type OutboxSettings = {
  /** Rows one claim takes: as many as the transport sends at once. */
  inFlight: number;
  leaseMs: number;
  pollIntervalMs: number;
  /** The time rows fall due by; undefined: the database's clock. */
  clock?: () => Date;
  retry: RetryPolicy;
  limits: VisitorLimits;
  identity: SenderIdentity;
};

export type RetryPolicy = { maxAttempts: number; retryDelayMs: (attempt: number) => number };

export function outboxSettings(options: OutboxWorkerOptions): OutboxSettings {
  const { transport } = options;
  return {
    // Every claimed row is handed to the relay at once (one per pooled connection), so a lease
    // needs to cover only the longest one message can take.
    inFlight: Math.max(1, Math.min(options.batchSize ?? Infinity, transport.concurrency ?? 1)),
    leaseMs: options.leaseMs ?? (transport.maxSendMs ?? 50_000) + 10_000,
    pollIntervalMs: options.pollIntervalMs ?? 1000,
    clock: options.clock,
    retry: {
      maxAttempts: options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
      retryDelayMs: options.retryDelayMs ?? defaultRetryDelayMs,
    },
    limits: {
      secret: options.secret,
      hourlyCap: options.visitorHourlyCap ?? DEFAULT_VISITOR_HOURLY_CAP,
      ownerEmail: options.ownerEmail,
    },
    identity: {
      from: { name: options.brand, address: options.mailFrom },
      domain: options.mailFrom.split('@')[1] ?? 'localhost',
      secret: options.secret,
    },
  };
}

// --- Claim -------------------------------------------------------------------------------------

/**
 * Claims up to `limit` due rows, each leased for `leaseMs` (one message's worst case). Due means
 * due by `at` (the worker's clock, when it has one) or else by the database's clock.
 */
export async function claimDue(
  db: Queryable,
  limit: number,
  leaseMs: number,
  at?: Date,
): Promise<ClaimedRow[]> {
  const now = at ? sql`${at.toISOString()}::timestamptz` : sql`now()`;
  const result = await db.execute(sql`
    update ${outbox} set attempts = attempts + 1,
      next_attempt_at = ${now} + ${`${leaseMs} milliseconds`}::interval
    where id in (
      select id from ${outbox}
      where status = 'pending' and next_attempt_at <= ${now}
      order by next_attempt_at
      limit ${limit}
      for update skip locked
    )
    returning id::text as id, kind, to_address, audience, message, attempts`);
  return rowsOf<Omit<ClaimedRow, 'message'> & { message: ClaimedRow['message'] | string }>(result).map(
    (row) =>
      typeof row.message === 'string'
        ? { ...row, message: JSON.parse(row.message) as ClaimedRow['message'] }
        : (row as ClaimedRow),
  );
}

/** Hands rows back untouched (shutting down): due again now, the claim not counted as an attempt. */
export async function releaseRows(db: Queryable, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.execute(
    sql`update ${outbox} set next_attempt_at = now(), attempts = attempts - 1, sent_at = null
        where id in (${idList(ids)}) and status = 'pending'`,
  );
}

// --- Send one ----------------------------------------------------------------------------------

/** What `sendOne` needs from the worker. */
export type SendStep = {
  db: Db;
  transport: MailTransport;
  log: Logger;
  settings: Pick<OutboxSettings, 'retry' | 'limits' | 'identity'>;
  /** Records a row sent (batched: `SentMarks`). */
  markSent(id: number): Promise<void>;
  /** The worker is stopping: a row not yet handed to the relay goes back. */
  stopping(): boolean;
};

/**
 * How one claimed row ended: `alerted` is a held row whose hold queued the owner's cap alert
 * (due now); `unrecorded` was sent but its mark failed (due again when its lease ends).
 */
export type SendOutcome =
  'sent' | 'retry' | 'failed' | 'skipped' | 'held' | 'alerted' | 'released' | 'unrecorded';

/** One claimed row: the visitor limits, the send, and its mark (or its failure). */
export async function sendOne(row: ClaimedRow, step: SendStep): Promise<SendOutcome> {
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
  if (step.stopping()) {
    await releaseRows(db, [id]);
    return 'released';
  }
  let file: string | undefined;
  try {
    ({ file } = await transport.send(toMail(row, settings.identity), id, row.kind));
  } catch (error) {
    return markFailure(db, log, row, errorCode(error), settings.retry);
  }
  try {
    await step.markSent(id);
  } catch (error) {
    // Sent but not recorded: the row falls due again when its lease ends (at least once).
    log.warn({ outboxId: id, code: errorCode(error) }, 'e-mail sent but not recorded');
    return 'unrecorded';
  }
  if (file) log.info({ outboxId: id, file }, 'e-mail written to file');
  else log.info({ outboxId: id, kind: row.kind }, 'e-mail sent');
  return 'sent';
}

// --- Mark --------------------------------------------------------------------------------------

/**
 * Records e-mails as sent the moment the relay has accepted each one. Marks that arrive while
 * one is being written go together in the next statement: no waiting, fewer statements.
 */
export class SentMarks {
  private pending: { id: number; done: (error?: unknown) => void }[] = [];
  private writing = false;

  constructor(private readonly db: Queryable) {}

  mark(id: number): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ id, done: (error) => (error ? reject(error) : resolve()) });
      if (!this.writing) void this.write();
    });
  }

  private async write() {
    this.writing = true;
    while (this.pending.length > 0) {
      const batch = this.pending;
      this.pending = [];
      try {
        await this.db.execute(
          sql`update ${outbox} set status = 'sent', sent_at = now(), last_attempt_at = now(), last_error = null
              where id in (${idList(batch.map((m) => m.id))})`,
        );
        for (const m of batch) m.done();
      } catch (error) {
        for (const m of batch) m.done(error);
      }
    }
    this.writing = false;
  }
}

/**
 * Records a failed send: due again after the policy's delay, or `failed` for good after the
 * last attempt (a visitor e-mail then frees the recipient mark it held: nobody received it).
 */
export async function markFailure(
  db: Queryable,
  log: Logger,
  row: ClaimedRow,
  code: string,
  retry: RetryPolicy,
): Promise<'retry' | 'failed'> {
  const id = Number(row.id);
  const attempts = row.attempts;
  if (attempts >= retry.maxAttempts) {
    await db.execute(
      sql`update ${outbox} set status = 'failed', last_error = ${code}, sent_at = null, last_attempt_at = now() where id = ${id}`,
    );
    if (row.audience === 'visitor')
      await db.execute(sql`delete from mail_throttle where holder = ${id} and key like 'recipient:%'`);
    log.error({ outboxId: id, attempts, code }, 'e-mail delivery failed for good');
    return 'failed';
  }
  const delay = retry.retryDelayMs(attempts);
  await db.execute(
    sql`update ${outbox} set last_error = ${code}, sent_at = null, last_attempt_at = now(),
          next_attempt_at = now() + ${`${delay} milliseconds`}::interval
        where id = ${id}`,
  );
  log.warn({ outboxId: id, attempts, code, retryInMs: delay }, 'e-mail delivery failed, will retry');
  return 'retry';
}

// --- Back off ----------------------------------------------------------------------------------

/** What the worker does between rounds. */
export type Pause = { kind: 'idle' } | { kind: 'wait'; ms: number } | { kind: 'yield' };

/**
 * Nothing claimed: idle until woken or the next poll. Rows claimed while requests are arriving
 * (one queued mail within the last second): composing and sending cost CPU in this same thread,
 * so spend at most about a quarter of it here, waiting three times as long as the round took;
 * the mail is safe in the outbox meanwhile. Otherwise only yield to what is waiting.
 */
export function pauseAfterRound(claimed: number, spentMs: number, sinceWakeMs: number): Pause {
  if (claimed === 0) return { kind: 'idle' };
  if (sinceWakeMs < 1000) return { kind: 'wait', ms: Math.min(1000, spentMs * 3) };
  return { kind: 'yield' };
}

/** The worker's sleep, which a wake ends at once (or, when it is not asleep, skips the next one). */
export class WakeSignal {
  private woken = false;
  private wakeUp: (() => void) | undefined;

  /** Ends the current sleep, or the next one before it begins. */
  wake() {
    if (this.wakeUp) this.wakeUp();
    else this.woken = true;
  }

  /** Ends the current sleep, if any (stop, drain). */
  interrupt() {
    this.wakeUp?.();
  }

  sleep(ms: number): Promise<void> {
    if (this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeUp = undefined;
        this.woken = false;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeUp = done;
    });
  }
}

// --- The worker --------------------------------------------------------------------------------

/** A loop over the steps: claim, send each claimed row (limits, send, mark), back off. */
export function createOutboxWorker(options: OutboxWorkerOptions): OutboxWorker {
  const { db, transport, log } = options;
  const settings = outboxSettings(options);
  const marks = new SentMarks(db);
  const signal = new WakeSignal();
  let running = false;
  let stopping = false;
  let loop: Promise<void> | undefined;
  let idleWaiters: (() => void)[] = [];
  /** When a request last queued mail: while submissions keep coming, sending takes a back seat. */
  let lastWake = 0;

  const step: SendStep = {
    db,
    transport,
    log,
    settings,
    markSent: (id) => marks.mark(id),
    stopping: () => stopping,
  };

  function settleIdleWaiters() {
    for (const resolve of idleWaiters) resolve();
    idleWaiters = [];
  }

  /** Claims due rows and sends them side by side; returns how many rows it claimed. */
  async function round(): Promise<number> {
    const claimed = await claimDue(db, settings.inFlight, settings.leaseMs, settings.clock?.());
    const rows = await dropSuppressed(db, settings.limits.secret, claimed);
    if (rows.length < claimed.length) {
      log.info({ suppressed: claimed.length - rows.length }, 'e-mails to suppressed addresses not sent');
    }
    const outcomes = await Promise.all(
      rows.map((row) =>
        sendOne(row, step).catch((error: unknown) => {
          // The database went away mid-way: the row's lease brings it back.
          if (!stopping)
            log.warn({ outboxId: Number(row.id), code: errorCode(error) }, 'outbox send step failed');
          return 'unrecorded' as const;
        }),
      ),
    );
    // The owner's cap alert was queued: it is due now.
    if (outcomes.includes('alerted')) signal.wake();
    return claimed.length;
  }

  async function run() {
    while (!stopping) {
      let claimed = 0;
      const started = performance.now();
      try {
        claimed = await round();
      } catch (error) {
        // The database is away (or closing): keep the process up and try again later.
        if (!stopping) log.warn({ code: errorCode(error) }, 'outbox poll failed');
      }
      const pause = pauseAfterRound(claimed, performance.now() - started, Date.now() - lastWake);
      if (pause.kind === 'idle') {
        settleIdleWaiters();
        await signal.sleep(settings.pollIntervalMs);
      } else if (pause.kind === 'wait') {
        await new Promise((resolve) => setTimeout(resolve, pause.ms));
      } else {
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
  }

  return {
    start() {
      if (running) return;
      running = true;
      loop = run();
    },
    wake() {
      lastWake = Date.now();
      signal.wake();
    },
    async stop() {
      stopping = true;
      signal.interrupt();
      await loop;
      settleIdleWaiters();
      transport.close();
    },
    drain() {
      return new Promise((resolve) => {
        idleWaiters.push(resolve);
        signal.interrupt();
      });
    },
  };
}
