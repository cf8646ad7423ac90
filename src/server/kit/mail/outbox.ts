/**
 * The outbox's queue. E-mails are rows written in the same transaction as the submission that
 * caused them, so an acknowledged submission always has its mail queued: `enqueueEmails` on a
 * transaction, or `outboxRows` inside a statement of the caller's own. The worker that sends the
 * rows is ./outbox-worker.ts; the limits on e-mail to visitors are ./outbox-limits.ts.
 */
import { createHmac } from 'node:crypto';
import type { Queryable } from '../db/client';
import { outbox, type MailingMessage, type OutboxAudience, type StoredMessage } from '../db/schema';

/** An e-mail a handler queues. Recipients come from the server (config or the visitor's own address). */
export type OutgoingEmail = Omit<StoredMessage, 'notAfter'> & {
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
  /**
   * Not before this time (a reminder): the row waits in the outbox, due at `sendAt`. Absent:
   * due at once. Written by `enqueueEmails` (`accept` and owner actions); a `compose` form's
   * one-statement write queues nothing for later and ignores it.
   */
  sendAt?: Date;
  /** Not sent after this time (a reminder after downtime): see StoredMessage.notAfter. */
  notAfter?: Date;
};

const CRLF = /[\r\n]+/g;

/** Header values never carry a line break, whatever reached them. */
export function headerSafe(value: string): string {
  return value.replace(CRLF, ' ').trim();
}

/** The outbox rows of some e-mails, every header value made safe. */
export function outboxRows(emails: readonly OutgoingEmail[]) {
  return emails.map(({ kind, to, audience = 'owner', sendAt, notAfter, ...message }) => ({
    kind,
    toAddress: headerSafe(to),
    audience,
    ...(sendAt ? { nextAttemptAt: sendAt } : {}),
    message: {
      ...message,
      subject: headerSafe(message.subject),
      ...(notAfter ? { notAfter: notAfter.toISOString() } : {}),
      replyTo: message.replyTo ? headerSafe(message.replyTo) : undefined,
      headers: message.headers
        ? Object.fromEntries(Object.entries(message.headers).map(([k, v]) => [headerSafe(k), headerSafe(v)]))
        : undefined,
    } satisfies StoredMessage,
  }));
}

/** Writes the e-mails as outbox rows on the given transaction; answers their ids, in order. */
export async function enqueueEmails(
  tx: Queryable,
  submissionId: string | null,
  emails: readonly OutgoingEmail[],
): Promise<number[]> {
  if (emails.length === 0) return [];
  const rows = await tx
    .insert(outbox)
    .values(outboxRows(emails).map((row) => ({ ...row, submissionId })))
    .returning({ id: outbox.id });
  return rows.map((row) => row.id);
}

/**
 * The keyed hash an address is kept by on the suppression list (`suppressions`): the list never
 * holds an address, and the hash is useless without APP_SECRET.
 */
export function suppressionHash(secret: string, address: string): string {
  return createHmac('sha256', secret).update(`suppress:${address.trim().toLowerCase()}`).digest('base64url');
}

/**
 * Whether `address` is one of the console's own (`config.ownerEmails`, lower-cased): such an
 * address is never erased nor suppressed, and the outbox writes to it whatever the list says, so
 * that no mistake can cut the owners off from their notifications and sign-in links.
 */
export function isConsoleAddress(consoleAddresses: readonly string[], address: string): boolean {
  const wanted = address.trim().toLowerCase();
  return consoleAddresses.some((a) => a.trim().toLowerCase() === wanted);
}

/** A row queued before messages were stored as content: its parts were rendered already. */
type RenderedMessage = Omit<StoredMessage, 'content'> & { html: string; text: string };

/** A queued row as the worker claims it back (./outbox-worker.ts). */
/** A row's message as read from the database: a driver may hand jsonb over as its text. */
export function storedMessage(value: ClaimedRow['message'] | string): ClaimedRow['message'] {
  return typeof value === 'string' ? (JSON.parse(value) as ClaimedRow['message']) : value;
}

export type ClaimedRow = {
  id: string;
  kind: string;
  to_address: string;
  audience: OutboxAudience;
  /** Parsed once when claimed (a driver may hand jsonb over as text). */
  message: StoredMessage | RenderedMessage | MailingMessage;
  attempts: number;
  /** A bulk row that was with the relay when its sender stopped, unanswered (./outbox-steps.ts). */
  handed?: boolean;
  /** A mailing's shared body, read when the row was claimed (./mailing.ts). */
  body?: { html: string; text: string };
};
