/**
 * Where e-mails go: an SMTP relay (SMTP_URL) through nodemailer, or, with none configured,
 * `.eml` files in DATA_DIR/mail that any mail client opens (development and tests read them).
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import MailComposer from 'nodemailer/lib/mail-composer';
import type Mail from 'nodemailer/lib/mailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';

export type MailTransport = {
  /** Sends one message; resolves with where it went (a file path for .eml delivery). */
  send(message: Mail.Options, outboxId: number, kind: string): Promise<{ file?: string }>;
  close(): void;
};

export function smtpTransport(smtpUrl: string): MailTransport {
  // Bounded waits, so a hung relay cannot hold a claimed batch past its lease (outbox.ts).
  const transporter = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  } as SMTPTransport.Options);
  return {
    async send(message) {
      await transporter.sendMail(message);
      return {};
    },
    close: () => transporter.close(),
  };
}

export function fileTransport(dir: string): MailTransport {
  let ready: Promise<unknown> | undefined;
  return {
    async send(message, outboxId, kind) {
      ready ??= mkdir(dir, { recursive: true });
      await ready;
      const raw = await new MailComposer(message).compile().build();
      const name = `${String(outboxId).padStart(8, '0')}-${kind.replace(/[^a-z0-9._-]/gi, '_')}.eml`;
      const file = join(dir, name);
      // Written aside and renamed, so a reader never sees half a message.
      await writeFile(`${file}.tmp`, raw);
      await rename(`${file}.tmp`, file);
      return { file };
    },
    close: () => {},
  };
}
