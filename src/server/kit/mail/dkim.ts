/**
 * DKIM signing of every e-mail the site sends (decision 044), by nodemailer's own signer
 * (rsa-sha256, relaxed/relaxed), applied to a message's bytes once they are composed
 * (./outbox-steps.ts), so the relay and the `.eml` files receive the same signed message. The
 * record to publish in DNS is made from the private key (`dkimRecord`), and the server says it
 * at start.
 */
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import DKIM from 'nodemailer/lib/dkim';
import type Mail from 'nodemailer/lib/mailer';

export type DkimSettings = { selector: string; domain: string; privateKey: string };

export type DkimSigner = {
  /** The message with a DKIM-Signature header first; a message without composed bytes is left as it is. */
  signMail(mail: Mail.Options): Promise<Mail.Options>;
  /** The DNS name of the public key's TXT record. */
  recordName: string;
  /** The TXT record's value. */
  record: string;
};

/**
 * The headers signed: those that say who sent what to whom, and when. Nodemailer adds none it
 * does not find; a relay that adds its own headers later does not break the signature.
 */
const SIGNED_HEADERS = [
  'from',
  'sender',
  'reply-to',
  'subject',
  'date',
  'message-id',
  'to',
  'cc',
  'mime-version',
  'content-type',
  'content-transfer-encoding',
  'list-id',
  'list-unsubscribe',
  'list-unsubscribe-post',
].join(':');

/** The TXT record of a private key's public half: `v=DKIM1; k=rsa; p=<SubjectPublicKeyInfo, base64>`. */
export function dkimRecord(privateKeyPem: string): string {
  const der = createPublicKey(createPrivateKey(privateKeyPem)).export({ type: 'spki', format: 'der' });
  return `v=DKIM1; k=rsa; p=${der.toString('base64')}`;
}

export function dkimSigner({ selector, domain, privateKey }: DkimSettings): DkimSigner {
  const dkim = new DKIM({
    domainName: domain,
    keySelector: selector,
    privateKey,
    headerFieldNames: SIGNED_HEADERS,
  });
  return {
    recordName: `${selector}._domainkey.${domain}`,
    record: dkimRecord(privateKey),
    async signMail(mail) {
      const raw = mail.raw;
      if (!(raw instanceof Buffer) && typeof raw !== 'string') return mail;
      return { ...mail, raw: await buffer(dkim.sign(raw)) };
    },
  };
}
