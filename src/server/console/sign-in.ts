/**
 * Passwordless sign-in by e-mail (decision 020). The owner types an address; if it may sign in
 * (OWNER_EMAIL or OWNER_EMAILS), a single-use link valid 15 minutes goes out through the outbox.
 * Every address gets the same answer, so the page tells nobody who the owner is. The link's
 * token is a signed token (src/server/kit/http/signed-tokens.ts) whose subject is a keyed hash
 * of the address: a link that leaks through a proxy log or a browser history names nobody.
 * `npm run owner:link` makes the same link on the server's machine.
 */
import { createHmac } from 'node:crypto';
import { site } from '~/content/site';
import type { Config } from '../kit/config';
import type { Links } from '../kit/http/links';
import { Refusal } from '../kit/http/request-checks';
import type { OutgoingEmail } from '../kit/mail/outbox';

export const SIGN_IN_PURPOSE = 'owner-sign-in';
export const SIGN_IN_MINUTES = 15;
export const SIGN_IN_PATH = '/owner/sign-in';

export const SIGN_IN_SENT =
  'If that address belongs to the owner, a sign-in link is on its way. It works once, within 15 minutes.';
export const LINK_EXPIRED = 'This sign-in link has expired. Ask for a new one.';
export const LINK_USED = 'This sign-in link has been used already. Ask for a new one.';
export const LINK_INVALID = 'This sign-in link is not valid. Ask for a new one.';

/** The keyed hash a sign-in token names its owner by. */
export function ownerKey(config: Pick<Config, 'appSecret'>, email: string): string {
  return createHmac('sha256', config.appSecret).update(`owner:${email.toLowerCase()}`).digest('base64url');
}

/** The console address of an owner key, if it still may sign in. */
export function ownerOfKey(
  config: Pick<Config, 'appSecret' | 'ownerEmails'>,
  key: string,
): string | undefined {
  return config.ownerEmails.find((email) => ownerKey(config, email) === key);
}

export function maySignIn(config: Pick<Config, 'ownerEmails'>, email: string): boolean {
  return config.ownerEmails.includes(email.trim().toLowerCase());
}

/** A fresh single-use sign-in link for `email` (which must be an owner's). */
export async function signInLink(
  config: Pick<Config, 'appSecret' | 'ownerEmails'>,
  links: Links,
  email: string,
  now = new Date(),
): Promise<string> {
  if (!maySignIn(config, email)) throw new Error('not an owner address');
  const token = await links.tokens.sign(SIGN_IN_PURPOSE, ownerKey(config, email), {
    expiresInSeconds: SIGN_IN_MINUTES * 60,
    singleUse: true,
    now,
  });
  return links.absolute(`${SIGN_IN_PATH}?token=${encodeURIComponent(token)}`);
}

export function signInEmail(to: string, url: string): OutgoingEmail {
  return {
    kind: 'owner.sign-in',
    to,
    subject: `Your sign-in link for ${site.brand}`,
    content: {
      preheader: `It works once, within ${SIGN_IN_MINUTES} minutes.`,
      heading: 'Sign in to the console',
      blocks: [
        { type: 'paragraph', text: 'Someone asked to sign in to the owner’s console with this address.' },
        { type: 'button', label: 'Sign in', url },
        {
          type: 'small',
          text: `The link works once, within ${SIGN_IN_MINUTES} minutes. If you did not ask for it, ignore this e-mail: nobody can sign in without it.`,
        },
      ],
    },
  };
}

/** The owner a sign-in token names, or the refusal for it (before it is consumed). */
export async function verifySignInToken(
  config: Pick<Config, 'appSecret' | 'ownerEmails'>,
  links: Links,
  token: unknown,
  now = new Date(),
) {
  const result = await links.tokens.verify(SIGN_IN_PURPOSE, token, { now });
  if (!result.ok) {
    if (result.reason === 'expired') throw new Refusal(410, { error: LINK_EXPIRED });
    throw new Refusal(400, { error: LINK_INVALID });
  }
  const email = ownerOfKey(config, result.subject);
  if (!email || !result.tokenId) throw new Refusal(400, { error: LINK_INVALID });
  return { email, verified: result };
}
