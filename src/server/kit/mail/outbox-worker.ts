/**
 * The outbox's worker: one in every server process sends the rows queued by ./outbox.ts, in
 * rounds of one row per pooled SMTP connection, sent side by side (./outbox-steps.ts, `sendOne`:
 * the visitor-mail limits, the send, the mark). What a round needs is made ready while the round
 * before is sent, so that a round costs the sends and one statement:
 *  - claims: due rows are claimed ahead of the rounds, several rounds' worth at once (while sends
 *    are quick), in the background; the rows to suppressed addresses are dropped with the claim;
 *  - composing: the next round's messages are rendered and composed into their MIME bytes while
 *    this round is sent (./outbox-message.ts);
 *  - marks: a round's sent rows are recorded in one statement once its sends have ended, before
 *    the next round is handed to the relay, so a crash repeats only what the relay held unanswered.
 * While requests are queuing mail (a wake within the last second) it claims one round at a time
 * and pauses three times as long as the round took, so composing mail in this thread never takes
 * more than about a quarter of it from requests.
 * A claim's lease covers the longest one message may take and a margin; a row not handed to the
 * relay within half that margin of its claim goes back. If the process dies, the rows in flight
 * fall due again when their lease ends and are sent again (the rows claimed ahead too, unsent):
 * delivery is at least once, and only what was in flight can repeat. The Message-ID is derived
 * from the row id so a repeat is recognisable (./outbox-message.ts).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { Db } from '../db/client';
import type { DkimSigner } from './dkim';
import type { SenderIdentity } from './outbox-message';
import type { MailBusiness } from './layout';
import { DEFAULT_VISITOR_HOURLY_CAP, type VisitorLimits } from './outbox-limits';
import { SendPace, SentMarks } from './outbox-marks';
import {
  claimDue,
  composeAhead,
  defaultRetryDelayMs,
  DEFAULT_MAX_ATTEMPTS,
  dropInDoubt,
  dropSuppressed,
  errorCode,
  releaseRows,
  sendOne,
  stampInFlight,
  type ClaimedItem,
  type RetryPolicy,
  type SendStep,
  type SuppressionPolicy,
} from './outbox-steps';
import { suppressionHash, type OutgoingEmail } from './outbox';
import type { MailTransport } from './transport';
import { isMailingMessage, SharedBodies } from './mailing';
import { SendRate } from './send-rate';

export { SendRate };
import type { OutboxLane } from '../db/schema';

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
  /**
   * The console's own addresses (`config.ownerEmails`): written to whatever the suppression list
   * says (decision 030).
   */
  consoleAddresses?: readonly string[];
  /**
   * The e-mail that asks a suppressed address to confirm it is theirs, queued when a visitor
   * e-mail to it is held back (./address-confirm.ts). Absent: nothing is queued.
   */
  confirmAddress?: (heldId: number, to: string) => Promise<OutgoingEmail>;
  /** Most visitor e-mails sent in any hour, over every instance (VISITOR_MAIL_HOURLY_CAP). */
  visitorHourlyCap?: number;
  /** Most rows handed to the relay at once. Never more than the transport sends at once. */
  batchSize?: number;
  /** How often to look for due rows when nothing wakes the worker (other instances, retries). */
  pollIntervalMs?: number;
  /**
   * How long a claimed row stays out of other workers' reach: the longest one message may take
   * (the transport's `maxSendMs`) and a margin, half of which a row may wait for its round.
   */
  leaseMs?: number;
  retryDelayMs?: (attempt: number) => number;
  maxAttempts?: number;
  /**
   * The time rows fall due by (a row queued with `sendAt` waits until then). Absent: the
   * database's own clock. Tests move it to send scheduled e-mails without waiting.
   */
  clock?: () => Date;
  /** Signs every message (DKIM_SELECTOR, decision 044); absent: unsigned. */
  dkim?: DkimSigner;
  /** BOUNCE_DOMAIN: visitor e-mails leave with a VERP envelope sender there (decision 045). */
  bounceDomain?: string;
  /** The business's name and postal address for the e-mails' footers, kept current by the site. */
  business?: { readonly current: MailBusiness | null };
  /**
   * The rows this worker sends (decision 046): `mail` (the default: every e-mail of forms and the
   * owner's actions) or `bulk` (mailings, by a worker of their own, so that a lead's e-mail never
   * waits behind a campaign). A `bulk` worker stamps each round before the relay has it, and sends
   * only the rows still waiting then: a mailing held or cancelled stops after the round being sent.
   */
  lane?: OutboxLane;
  /** Most messages a second (NEWSLETTER_SEND_RATE); absent or 0: as fast as the relay takes them. */
  ratePerSecond?: number;
};

export type OutboxWorker = {
  start(): void;
  /** A new row was committed: look now rather than at the next poll. */
  wake(): void;
  /** Finishes the messages being sent, hands back the rows not yet sent, and stops. */
  stop(): Promise<void>;
  /** Resolves when no due row is left and nothing is being sent (tests). */
  drain(): Promise<void>;
};

// --- Settings ----------------------------------------------------------------------------------

/** What the steps need, resolved once from the worker's options. */
export type OutboxSettings = {
  /** Rows handed to the relay at once, a round: one per pooled connection. */
  inFlight: number;
  /** Rows claimed ahead of the rounds, while sends are quick enough for them to wait briefly. */
  readAhead: number;
  leaseMs: number;
  /** How long after its claim a row may still be handed to the relay: half the lease's margin. */
  holdMs: number;
  pollIntervalMs: number;
  /** The time rows fall due by; undefined: the database's clock. */
  clock?: () => Date;
  retry: RetryPolicy;
  limits: VisitorLimits;
  identity: SenderIdentity;
  dkim?: DkimSigner;
  suppression: SuppressionPolicy;
  lane: OutboxLane;
  /** Most messages a second; 0: no limit. */
  ratePerSecond: number;
};

/** Rows claimed ahead, per connection: enough for a claim's round trip to hide behind sends. */
const READ_AHEAD_PER_CONNECTION = 6;
/** What a claim's lease adds to the longest one message may take. */
export const LEASE_MARGIN_MS = 10_000;
/** A sent mark waits this long at most for the rest of its round (a slow send in it). */
const MARK_DELAY_MS = 20;

export function outboxSettings(options: OutboxWorkerOptions): OutboxSettings {
  const { transport } = options;
  const inFlight = Math.max(1, Math.min(options.batchSize ?? Infinity, transport.concurrency ?? 1));
  const maxSendMs = transport.maxSendMs ?? 50_000;
  const leaseMs = options.leaseMs ?? maxSendMs + LEASE_MARGIN_MS;
  const holdMs = Math.max(0, (leaseMs - maxSendMs) / 2);
  const lane = options.lane ?? 'mail';
  return {
    lane,
    ratePerSecond: Math.max(0, options.ratePerSecond ?? 0),
    inFlight,
    readAhead: holdMs > 0 ? inFlight * READ_AHEAD_PER_CONNECTION : 0,
    leaseMs,
    holdMs,
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
      bounceDomain: options.bounceDomain,
      business: options.business,
    },
    dkim: options.dkim,
    suppression: {
      exempt: new Set((options.consoleAddresses ?? []).map((a) => suppressionHash(options.secret, a))),
      confirm: options.confirmAddress,
    },
  };
}

// --- Back off ----------------------------------------------------------------------------------

/** What the worker does after a round. */
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

/**
 * How many rows to claim now, given how many wait claimed: none while they fill the next round
 * and half the read-ahead; else up to a round and the read-ahead. The read-ahead is claimed only
 * while a row would wait for its round less than half its hold (a slow relay gets one round at a
 * time), and not while requests are arriving.
 */
export function claimRoom(
  waiting: number,
  settings: Pick<OutboxSettings, 'inFlight' | 'readAhead' | 'holdMs'>,
  sendMs: number,
  requestsArriving: boolean,
): number {
  const { inFlight, readAhead, holdMs } = settings;
  const ahead = !requestsArriving && (readAhead / inFlight) * sendMs < holdMs / 2 ? readAhead : 0;
  return waiting < inFlight + ahead / 2 ? inFlight + ahead - waiting : 0;
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

// --- The rows claimed ahead ---------------------------------------------------------------------

/**
 * The rows claimed for the coming rounds, oldest first: claimed in the background, several rounds
 * at a time while sends are quick (`claimRoom`), those to suppressed addresses dropped; a row
 * that waits past its hold goes back.
 */
export class ClaimsAhead {
  private waiting: ClaimedItem[] = [];
  private claiming: Promise<number> | undefined;
  private stopping = false;
  /** How many rows the last claim found (suppressed ones included). */
  lastClaimed = 0;
  /** The mailings' shared bodies read so far. */
  private readonly bodies = new SharedBodies();

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    private readonly settings: OutboxSettings,
    private readonly pace: SendPace,
    private readonly requestsArriving: () => boolean,
  ) {}

  /** The next round's rows, claimed now if none wait; empty when nothing is due. */
  async take(): Promise<ClaimedItem[]> {
    const claim = this.refill();
    if (this.waiting.length === 0) await claim;
    const items = this.waiting.splice(0, this.settings.inFlight);
    // The next round is claimed while this one is sent (a bulk row held or cancelled meanwhile is
    // left out when its round is stamped: ./outbox-steps.ts, stampInFlight).
    this.refill();
    return items;
  }

  /** The rows of the round after the next, as far as they are claimed. */
  next(): ClaimedItem[] {
    return this.waiting.slice(0, this.settings.inFlight);
  }

  /** Hands back the rows that waited past their hold (a round stalled): due again now. */
  releaseStale() {
    const before = performance.now() - this.settings.holdMs;
    const stale = this.waiting.filter((item) => item.claimedAt < before);
    if (stale.length === 0 || this.stopping) return;
    this.waiting = this.waiting.filter((item) => item.claimedAt >= before);
    void this.handBack(stale);
  }

  /** No more claims (the worker is stopping). */
  stop() {
    this.stopping = true;
  }

  /** Once the claim under way has ended, hands back every row claimed and not taken. */
  async close(): Promise<void> {
    this.stop();
    await this.claiming;
    const left = this.waiting;
    this.waiting = [];
    await this.handBack(left);
  }

  /** Starts a claim unless one is under way or the rows waiting are enough; returns it. */
  private refill(): Promise<number> | undefined {
    const room = claimRoom(
      this.waiting.length,
      this.settings,
      this.pace.typicalMs(),
      this.requestsArriving(),
    );
    if (!this.claiming && room > 0 && !this.stopping) {
      this.claiming = this.claim(room).finally(() => (this.claiming = undefined));
    }
    return this.claiming;
  }

  private async claim(limit: number): Promise<number> {
    const { db, log, settings } = this;
    const claimedAt = performance.now();
    try {
      const claimed = await claimDue(db, limit, settings.leaseMs, settings.clock?.(), settings.lane);
      const sendable = settings.lane === 'bulk' ? await dropInDoubt(db, log, claimed) : claimed;
      const rows = await dropSuppressed(db, settings.limits.secret, sendable, settings.suppression);
      await this.bodies.load(db, rows);
      for (const row of rows) {
        if (isMailingMessage(row.message)) row.body = this.bodies.get(row.message.bodyId);
      }
      if (rows.length < claimed.length) {
        log.info({ suppressed: claimed.length - rows.length }, 'e-mails to suppressed addresses not sent');
      }
      for (const row of rows) this.waiting.push({ row, claimedAt });
      this.lastClaimed = claimed.length;
    } catch (error) {
      // The database is away (or closing): keep the process up and try again later.
      if (!this.stopping) log.warn({ code: errorCode(error) }, 'outbox poll failed');
      this.lastClaimed = 0;
    }
    return this.lastClaimed;
  }

  private async handBack(items: readonly ClaimedItem[]) {
    await releaseRows(
      this.db,
      items.map((item) => Number(item.row.id)),
    ).catch((error: unknown) => {
      this.log.warn({ code: errorCode(error) }, 'claimed e-mails not handed back');
    });
  }
}

// --- The worker --------------------------------------------------------------------------------

/** The rounds, with the claims and the composing of the rounds to come (see the top of this file). */
export function createOutboxWorker(options: OutboxWorkerOptions): OutboxWorker {
  const { db, transport, log } = options;
  const settings = outboxSettings(options);
  // Marks are asked again through a database outage for at most half the lease (decision 052).
  const marks = new SentMarks(db, MARK_DELAY_MS, settings.leaseMs / 2);
  const pace = new SendPace();
  const signal = new WakeSignal();
  let running = false;
  let stopping = false;
  let stopped: () => void = () => {};
  const stopSignal = new Promise<void>((resolve) => (stopped = resolve));
  let loop: Promise<void> | undefined;
  let sweeper: NodeJS.Timeout | undefined;
  let idleWaiters: (() => void)[] = [];
  /** When a request last queued mail: while submissions keep coming, sending takes a back seat. */
  let lastWake = 0;
  const ahead = new ClaimsAhead(db, log, settings, pace, () => Date.now() - lastWake < 1000);
  const rate = new SendRate(settings.ratePerSecond);

  const step: SendStep = { db, transport, log, settings, marks, pace, stopping: () => stopping };

  function settleIdleWaiters() {
    for (const resolve of idleWaiters) resolve();
    idleWaiters = [];
  }

  /**
   * One round: a row per connection, sent side by side; once every send has ended, their marks
   * are written together, before the next round is handed to the relay: a crash repeats only what
   * the relay held unanswered.
   */
  async function round(claimed: ClaimedItem[]): Promise<void> {
    let items = claimed;
    // A mailing is sent at most once (decision 046): its rows are stamped before the relay has them,
    // and only those still waiting (a row held, cancelled or unsubscribed since its claim is not).
    if (settings.lane === 'bulk') {
      try {
        const waiting = await stampInFlight(
          db,
          items.map((item) => Number(item.row.id)),
        );
        items = items.filter((item) => waiting.has(Number(item.row.id)));
      } catch (error) {
        // Not stamped, not sent: the rows' lease brings them back.
        if (!stopping) log.warn({ code: errorCode(error) }, 'outbox round not started');
        return;
      }
    }
    const outcomes = await Promise.all(
      items.map((item) =>
        sendOne(item, step).catch((error: unknown) => {
          // The database went away mid-way: the row's lease brings it back.
          if (!stopping)
            log.warn({ outboxId: Number(item.row.id), code: errorCode(error) }, 'outbox send step failed');
          return 'unrecorded' as const;
        }),
      ),
    );
    await marks.flush();
    // The owner's cap alert was queued: it is due now.
    if (outcomes.includes('alerted')) signal.wake();
  }

  async function run() {
    while (!stopping) {
      const started = performance.now();
      const items = await ahead.take();
      if (items.length === 0) {
        // Nothing due (or only suppressed rows): idle until woken or the next poll.
        if (ahead.lastClaimed === 0) settleIdleWaiters();
        if (!stopping) await signal.sleep(ahead.lastClaimed === 0 ? settings.pollIntervalMs : 0);
        continue;
      }
      const sending = round(items);
      // The round after is composed while this one is sent and recorded, once its sends are under
      // way (composing begins with synchronous work).
      setImmediate(() => void composeAhead(ahead.next(), settings.identity, settings.dkim));
      await sending;
      const pause = pauseAfterRound(items.length, performance.now() - started, Date.now() - lastWake);
      const paced = rate.after(items.length, started);
      if (paced > 0 && (pause.kind !== 'wait' || pause.ms < paced)) {
        await Promise.race([new Promise((resolve) => setTimeout(resolve, paced)), stopSignal]);
      } else if (pause.kind === 'wait') {
        await Promise.race([new Promise((resolve) => setTimeout(resolve, pause.ms)), stopSignal]);
      } else await nextTurn();
    }
  }

  return {
    start() {
      if (running) return;
      running = true;
      loop = run();
      if (settings.readAhead > 0) {
        sweeper = setInterval(() => ahead.releaseStale(), Math.max(100, settings.holdMs / 2));
        sweeper.unref();
      }
    },
    wake() {
      lastWake = Date.now();
      signal.wake();
    },
    async stop() {
      stopping = true;
      ahead.stop();
      stopped();
      clearInterval(sweeper);
      signal.interrupt();
      await loop;
      await ahead.close();
      await marks.flush();
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
