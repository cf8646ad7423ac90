/**
 * What an outbox row is sent as: its message rendered from the stored content, from the site's
 * sender, with a Message-ID derived from the row id (a repeat after a crash is recognisable) and
 * signed; then composed into its MIME bytes, which the worker (./outbox-worker.ts) hands to the
 * transport. A visitor's or a subscriber's e-mail's envelope sender is its VERP address when a
 * bounce domain is set (./verp.ts, decision 045); its From stays the site's.
 */
import { createHmac } from 'node:crypto';
import MailComposer from 'nodemailer/lib/mail-composer';
import type Mail from 'nodemailer/lib/mailer';
import { withoutBidiControls } from '~/lib/bidi';
import { renderEmail, type MailBusiness } from './layout';
import type { ClaimedRow } from './outbox';
import { filledBody, isMailingMessage } from './mailing';
import { verpSender } from './verp';

export type SenderIdentity = {
  from: { name: string; address: string };
  /** The Message-ID's domain: MAIL_FROM's. */
  domain: string;
  /** Signs the Message-ID and the VERP envelope sender. */
  secret: string;
  /**
   * BOUNCE_DOMAIN: a visitor e-mail's envelope sender is then `bounce+<id>-<tag>@` it, where the
   * bounce listener (./bounce-listener.ts) receives what relays send back. Absent: MAIL_FROM.
   */
  bounceDomain?: string;
  /** The business's name and postal address for the footer, as last read (the site's publication). */
  business?: { readonly current: MailBusiness | null };
};

/** The Message-ID of an outbox row: derived from its id, so a repeat is recognisable; signed. */
export function messageId(identity: SenderIdentity, id: number): string {
  const tag = createHmac('sha256', identity.secret)
    .update(`message-id:${id}`)
    .digest('base64url')
    .slice(0, 16);
  return `<outbox.${id}.${tag}@${identity.domain}>`;
}

/**
 * The envelope of a row's message when it differs from what nodemailer takes from its From and
 * To: a visitor e-mail's VERP sender, when a bounce domain is set. E-mails to the owner keep
 * MAIL_FROM: their bounces are the relay's business, and the console's addresses are never
 * suppressed (decision 030).
 */
export function verpEnvelope(row: ClaimedRow, identity: SenderIdentity): Mail.Envelope | undefined {
  if (row.audience === 'owner' || !identity.bounceDomain) return undefined;
  return {
    from: verpSender(identity.secret, identity.bounceDomain, Number(row.id), row.to_address),
    to: row.to_address,
  };
}

/**
 * A row's HTML and text parts: rendered now from its stored content, or a mailing's shared body
 * with the recipient's values in place (read when the row was claimed: ./mailing.ts).
 */
function partsOf(row: ClaimedRow, identity: SenderIdentity): { html: string; text: string } {
  const { message } = row;
  if ('content' in message) return renderEmail(message.content, identity.business?.current);
  if (isMailingMessage(message)) {
    if (!row.body) throw Object.assign(new Error('mailing body missing'), { code: 'ENOBODY' });
    return filledBody(row.body, message.fill);
  }
  return message;
}

/** The message nodemailer sends for a claimed row: rendered now from its stored content. */
export function toMail(row: ClaimedRow, identity: SenderIdentity): Mail.Options {
  const id = Number(row.id);
  const { message } = row;
  const { html, text } = partsOf(row, identity);
  const envelope = verpEnvelope(row, identity);
  return {
    ...(envelope ? { envelope } : {}),
    from: identity.from,
    to: row.to_address,
    replyTo: message.replyTo,
    // A visitor's name in a subject cannot turn the rest of it around (decision 031).
    subject: withoutBidiControls(message.subject),
    text,
    html,
    headers: message.headers,
    attachments: ('attachments' in message ? message.attachments : undefined)?.map((a) => ({
      filename: a.filename,
      contentType: a.contentType,
      content: a.content,
      encoding: a.encoding ?? 'utf8',
    })),
    messageId: messageId(identity, id),
    // No visitor value ever becomes a header by accident: only what is listed above.
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}

/**
 * The message of `toMail` composed now, by nodemailer's own composer, into the bytes the
 * transport would have composed at the send, with the envelope nodemailer takes from its From and
 * To (or the VERP one `toMail` set). The transport then only streams them: the worker composes a
 * round's messages while the round before is being recorded, off the relay's path.
 */
export async function composeMail(row: ClaimedRow, identity: SenderIdentity): Promise<Mail.Options> {
  const node = new MailComposer(toMail(row, identity)).compile();
  const envelope = node.getEnvelope();
  return {
    envelope: { from: envelope.from || identity.from.address, to: envelope.to },
    raw: await node.build(),
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}
