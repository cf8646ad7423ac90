/**
 * Where e-mails go: an SMTP relay (SMTP_URL) through nodemailer, or, with none configured,
 * `.eml` files in DATA_DIR/mail that any mail client opens (development and tests read them).
 */
import { chmod, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import MailComposer from 'nodemailer/lib/mail-composer';
import type Mail from 'nodemailer/lib/mailer';
import type SMTPPool from 'nodemailer/lib/smtp-pool';

export type MailTransport = {
  /** Sends one message; resolves with where it went (a file path for .eml delivery). */
  send(message: Mail.Options, outboxId: number, kind: string): Promise<{ file?: string }>;
  /** How many messages it sends at once; the outbox never hands it more. */
  concurrency?: number;
  /** The longest one message can take before `send` gives up; the outbox's lease covers it. */
  maxSendMs?: number;
  close(): void;
};

/** Pooled SMTP connections: each carries one message at a time. */
export const SMTP_CONNECTIONS = 4;
/**
 * Bounded waits: connecting and the greeting share `connectionTimeout`; each later reply may
 * take `socketTimeout` (a slow relay answering in 20 s still gets its answer through).
 */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };
/**
 * However the relay stalls, one message gives up after this (by default); the outbox's lease is
 * this and a margin, so another worker never sends a row whose message may still be accepted here.
 */
export const SMTP_SEND_DEADLINE_MS = 50_000;

function sendDeadlineError(): Error {
  return Object.assign(new Error('SMTP send deadline passed'), { code: 'ESENDDEADLINE' });
}

export function smtpTransport(
  smtpUrl: string,
  { deadlineMs = SMTP_SEND_DEADLINE_MS }: { deadlineMs?: number } = {},
): MailTransport {
  const open = () =>
    nodemailer.createTransport({
      url: smtpUrl,
      pool: true,
      maxConnections: SMTP_CONNECTIONS,
      // A pooled connection is replaced after this many messages (the relay's own limits are
      // usually higher); a fresh connection costs one handshake.
      maxMessages: 500,
      ...SMTP_TIMEOUTS,
    } as SMTPPool.Options);
  let transporter = open();
  return {
    concurrency: SMTP_CONNECTIONS,
    maxSendMs: deadlineMs,
    async send(message) {
      const pool = transporter;
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => {
          // A message past its deadline must not be accepted later, after the outbox has
          // recorded a failure and scheduled its retry: closing its pool ends its connection.
          if (transporter === pool) {
            transporter = open();
            pool.close();
          }
          reject(sendDeadlineError());
        }, deadlineMs);
      });
      try {
        await Promise.race([pool.sendMail(message), deadline]);
      } finally {
        clearTimeout(timer);
      }
      return {};
    },
    close: () => transporter.close(),
  };
}

/**
 * The name of an outbox row's `.eml` file: what the file transport writes, and what erasure and
 * retention delete.
 */
export function emlFileName(outboxId: number, kind: string): string {
  return `${String(outboxId).padStart(8, '0')}-${kind.replace(/[^a-z0-9._-]/gi, '_')}.eml`;
}

/** What a relay's refusal of an unknown mailbox looks like, as nodemailer reports it. */
function recipientRefusedError(): Error {
  return Object.assign(new Error("Can't send mail - all recipients were rejected: 550 Mailbox unavailable"), {
    code: 'EENVELOPE',
    responseCode: 550,
    command: 'RCPT TO',
  });
}

/** The envelope's recipients of a message (composed by the outbox, or plain). */
function recipientsOf(message: Mail.Options): string[] {
  const to = (message.envelope as { to?: unknown } | undefined)?.to ?? message.to;
  const list = Array.isArray(to) ? to : [to];
  return list.flatMap((r) =>
    typeof r === 'string' ? [r] : r && typeof r === 'object' && 'address' in r ? [String(r.address)] : [],
  );
}

/**
 * `.eml` files: the folder is the server user's alone (0700) and so is every file (0600), the
 * temporary file included: e-mails carry what visitors typed.
 *
 * `refusedDomain` (tests only, MAIL_FILE_REFUSED_DOMAIN): a recipient at that domain is refused
 * as a relay refuses a mailbox that does not exist (550 at RCPT TO), and no file is written, so
 * the browser tests can show the console a refused address.
 */
export function fileTransport(
  dir: string,
  { refusedDomain }: { refusedDomain?: string } = {},
): MailTransport {
  const refused = refusedDomain ? `@${refusedDomain.toLowerCase()}` : undefined;
  let ready: Promise<unknown> | undefined;
  const prepare = async () => {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    // A folder made earlier, by an older version or by hand, is closed too.
    await chmod(dir, 0o700);
  };
  return {
    concurrency: SMTP_CONNECTIONS,
    maxSendMs: 10_000,
    async send(message, outboxId, kind) {
      if (refused && recipientsOf(message).some((to) => to.toLowerCase().endsWith(refused))) {
        throw recipientRefusedError();
      }
      ready ??= prepare();
      await ready;
      const raw = await new MailComposer(message).compile().build();
      const file = join(dir, emlFileName(outboxId, kind));
      const tmp = `${file}.tmp`;
      // Written aside and renamed, so a reader never sees half a message. A leftover of a
      // crash is removed first: the new file is created, with its mode, not reused.
      await rm(tmp, { force: true });
      await writeFile(tmp, raw, { mode: 0o600, flag: 'wx' });
      await rename(tmp, file);
      return { file };
    },
    close: () => {},
  };
}
