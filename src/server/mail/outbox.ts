/**
 * The outbox. E-mails are rows written in the same transaction as the submission that caused
 * them, so an acknowledged submission always has its mail queued. A worker in every server
 * process claims due rows with `FOR UPDATE SKIP LOCKED` (instances sharing one Postgres never
 * claim the same row), sends them and marks them sent. A claim pushes the row's next attempt
 * out by a lease: if the process dies mid-send, the row falls due again and another worker (or
 * this one after a restart) sends it. Delivery is therefore at least once; the Message-ID is
 * derived from the row id so a repeat is recognisable.
 */
import { createHmac } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type Mail from 'nodemailer/lib/mailer';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { Db, Queryable } from '../db/client';
import { outbox, type StoredMessage } from '../db/schema';
import { renderEmail } from './layout';
import type { MailTransport } from './transport';

/** An e-mail a handler queues. Recipients come from the server (config or the visitor's own address). */
export type OutgoingEmail = StoredMessage & {
  /** What the e-mail is, e.g. `contact.owner`; names the .eml file and appears in logs. */
  kind: string;
  to: string;
  /**
   * `visitor`: sent to an address a visitor typed into a form, because of that form. Such an
   * e-mail is limited per recipient and counted against the hourly cap (anyone can aim a form
   * at a stranger's address). Anything else (the owner's copy, e-mails the owner's actions
   * send) is `owner`, the default.
   */
  audience?: 'visitor' | 'owner';
};

const CRLF = /[\r\n]+/g;

/** Header values never carry a line break, whatever reached them. */
export function headerSafe(value: string): string {
  return value.replace(CRLF, ' ').trim();
}

/** The outbox rows of some e-mails, every header value made safe. */
export function outboxRows(emails: readonly OutgoingEmail[]) {
  return emails.map(({ kind, to, audience = 'owner', ...message }) => ({
    kind,
    toAddress: headerSafe(to),
    audience,
    message: {
      ...message,
      subject: headerSafe(message.subject),
      replyTo: message.replyTo ? headerSafe(message.replyTo) : undefined,
      headers: message.headers
        ? Object.fromEntries(Object.entries(message.headers).map(([k, v]) => [headerSafe(k), headerSafe(v)]))
        : undefined,
    } satisfies StoredMessage,
  }));
}

/** Writes the e-mails as outbox rows on the given transaction. */
export async function enqueueEmails(
  tx: Queryable,
  submissionId: string | null,
  emails: readonly OutgoingEmail[],
) {
  if (emails.length === 0) return;
  await tx.insert(outbox).values(outboxRows(emails).map((row) => ({ ...row, submissionId })));
}

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
  /** Signs the Message-ID, so it cannot be forged from a row id alone. */
  secret: string;
  brand: string;
  batchSize?: number;
  /** How often to look for due rows when nothing wakes the worker (other instances, retries). */
  pollIntervalMs?: number;
  /** How long a claimed row stays out of other workers' reach while it is being sent. */
  leaseMs?: number;
  retryDelayMs?: (attempt: number) => number;
  maxAttempts?: number;
};

/** A row queued before messages were stored as content: its parts were rendered already. */
type RenderedMessage = Omit<StoredMessage, 'content'> & { html: string; text: string };

type ClaimedRow = {
  id: string;
  kind: string;
  to_address: string;
  message: StoredMessage | RenderedMessage | string;
  attempts: number;
};

export type OutboxWorker = {
  start(): void;
  /** A new row was committed: look now rather than at the next poll. */
  wake(): void;
  /** Finishes the message being sent, hands back the rest of the batch, and stops. */
  stop(): Promise<void>;
  /** Resolves when no due row is left (tests). */
  drain(): Promise<void>;
};

function errorCode(error: unknown): string {
  const e = error as { code?: unknown; responseCode?: unknown } | null;
  const parts = [typeof e?.code === 'string' ? e.code : 'ERROR'];
  if (typeof e?.responseCode === 'number') parts.push(String(e.responseCode));
  return parts
    .join(' ')
    .replace(/[^A-Z0-9_ ]/gi, '')
    .slice(0, 40);
}

export function createOutboxWorker(options: OutboxWorkerOptions): OutboxWorker {
  const {
    db,
    transport,
    log,
    batchSize = 10,
    pollIntervalMs = 1000,
    // Longer than a batch takes to send (SMTP timeouts are capped in transport.ts), short
    // enough that a crashed process's claimed rows are sent by someone else within a minute.
    leaseMs = 60_000,
    retryDelayMs = defaultRetryDelayMs,
    maxAttempts = DEFAULT_MAX_ATTEMPTS,
  } = options;
  const domain = options.mailFrom.split('@')[1] ?? 'localhost';
  const from = { name: options.brand, address: options.mailFrom };

  let running = false;
  let stopping = false;
  let woken = false;
  let wakeUp: (() => void) | undefined;
  let loop: Promise<void> | undefined;
  let idleWaiters: (() => void)[] = [];
  /** When a request last queued mail: while submissions keep coming, sending takes a back seat. */
  let lastWake = 0;

  function messageId(id: number): string {
    const tag = createHmac('sha256', options.secret)
      .update(`message-id:${id}`)
      .digest('base64url')
      .slice(0, 16);
    return `<outbox.${id}.${tag}@${domain}>`;
  }

  async function claim(): Promise<ClaimedRow[]> {
    const result = await db.execute(sql`
      update ${outbox} set attempts = attempts + 1,
        next_attempt_at = now() + ${`${leaseMs} milliseconds`}::interval
      where id in (
        select id from ${outbox}
        where status = 'pending' and next_attempt_at <= now()
        order by next_attempt_at
        limit ${batchSize}
        for update skip locked
      )
      returning id::text as id, kind, to_address, message, attempts`);
    return (result as unknown as { rows: ClaimedRow[] }).rows;
  }

  async function markSent(ids: number[]) {
    if (ids.length === 0) return;
    await db.execute(
      sql`update ${outbox} set status = 'sent', sent_at = now(), last_error = null where id in (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    );
  }

  async function release(ids: number[]) {
    if (ids.length === 0) return;
    await db.execute(
      sql`update ${outbox} set next_attempt_at = now(), attempts = attempts - 1 where id in (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    );
  }

  async function markFailure(id: number, attempts: number, code: string) {
    if (attempts >= maxAttempts) {
      await db.execute(sql`update ${outbox} set status = 'failed', last_error = ${code} where id = ${id}`);
      log.error({ outboxId: id, attempts, code }, 'e-mail delivery failed for good');
      return;
    }
    const delay = retryDelayMs(attempts);
    await db.execute(
      sql`update ${outbox} set last_error = ${code}, next_attempt_at = now() + ${`${delay} milliseconds`}::interval where id = ${id}`,
    );
    log.warn({ outboxId: id, attempts, code, retryInMs: delay }, 'e-mail delivery failed, will retry');
  }

  function toMail(row: ClaimedRow, id: number): Mail.Options {
    const message: StoredMessage | RenderedMessage =
      typeof row.message === 'string' ? JSON.parse(row.message) : row.message;
    const { html, text } = 'content' in message ? renderEmail(message.content) : message;
    return {
      from,
      to: row.to_address,
      replyTo: message.replyTo,
      subject: message.subject,
      text,
      html,
      headers: message.headers,
      attachments: message.attachments?.map((a) => ({
        filename: a.filename,
        contentType: a.contentType,
        content: a.content,
        encoding: a.encoding ?? 'utf8',
      })),
      messageId: messageId(id),
      // No visitor value ever becomes a header by accident: only what is listed above.
      disableFileAccess: true,
      disableUrlAccess: true,
    };
  }

  /** Sends one batch; returns how many rows it claimed. */
  async function runBatch(): Promise<number> {
    const rows = await claim();
    const sent: number[] = [];
    for (let i = 0; i < rows.length; i += 1) {
      const row = rows[i]!;
      const id = Number(row.id);
      if (stopping) {
        await release(rows.slice(i).map((r) => Number(r.id)));
        break;
      }
      try {
        const { file } = await transport.send(toMail(row, id), id, row.kind);
        sent.push(id);
        if (file) log.info({ outboxId: id, file }, 'e-mail written to file');
        else log.info({ outboxId: id, kind: row.kind }, 'e-mail sent');
      } catch (error) {
        await markFailure(id, row.attempts, errorCode(error));
      }
    }
    await markSent(sent);
    return rows.length;
  }

  function sleep(ms: number): Promise<void> {
    if (woken) {
      woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wakeUp = undefined;
        woken = false;
        resolve();
      }
      wakeUp = done;
    });
  }

  async function run() {
    while (!stopping) {
      let claimed = 0;
      const started = performance.now();
      try {
        claimed = await runBatch();
      } catch (error) {
        // The database is away (or closing): keep the process up and try again later.
        if (!stopping) log.warn({ code: errorCode(error) }, 'outbox poll failed');
      }
      if (claimed === 0) {
        for (const resolve of idleWaiters) resolve();
        idleWaiters = [];
        await sleep(pollIntervalMs);
      } else if (Date.now() - lastWake < 1000) {
        // Requests are arriving: composing and sending costs CPU in this same thread, so
        // spend at most about a quarter of it here. The mail is safe in the outbox meanwhile.
        const spent = performance.now() - started;
        await new Promise((resolve) => setTimeout(resolve, Math.min(1000, spent * 3)));
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
      if (wakeUp) wakeUp();
      else woken = true;
    },
    async stop() {
      stopping = true;
      wakeUp?.();
      await loop;
      for (const resolve of idleWaiters) resolve();
      idleWaiters = [];
      transport.close();
    },
    drain() {
      return new Promise((resolve) => {
        idleWaiters.push(resolve);
        wakeUp?.();
      });
    },
  };
}
