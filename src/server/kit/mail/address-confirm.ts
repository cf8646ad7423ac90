/**
 * The e-mail that asks someone on the suppression list to confirm their address (decision 030).
 * When a visitor e-mail (a guide, a booking's confirmation...) is held back because its address is
 * suppressed, the outbox queues this one instead: the one e-mail a suppressed address can get, a
 * visitor e-mail like the rest (one a day per address, counted against the hourly cap), quoting
 * nothing anyone typed. Its link names the held e-mail; following it lifts the suppression and
 * releases what was asked for (src/server/root/forms/address-confirm.ts).
 */
import {
  addressConfirmEmailCopy as copy,
  ADDRESS_CONFIRM_DAYS,
  ADDRESS_CONFIRM_PATH,
} from '~/content/address-confirm';
import type { Links } from '../http/links';
import type { OutgoingEmail } from './outbox';

export const ADDRESS_CONFIRM_KIND = 'address.confirm';
/** The signed token's purpose: its subject is the held outbox row's id. */
export const ADDRESS_CONFIRM_PURPOSE = 'address-confirm';

/** The confirmation e-mail for the e-mail `heldId`, held back from `to`. */
export async function addressConfirmEmail(links: Links, heldId: number, to: string): Promise<OutgoingEmail> {
  const token = await links.tokens.sign(ADDRESS_CONFIRM_PURPOSE, String(heldId), {
    expiresInSeconds: ADDRESS_CONFIRM_DAYS * 24 * 3600,
    singleUse: true,
  });
  return {
    kind: ADDRESS_CONFIRM_KIND,
    audience: 'visitor',
    to,
    subject: copy.subject,
    content: {
      preheader: copy.preheader,
      heading: copy.heading,
      blocks: [
        { type: 'paragraph', text: copy.asked },
        { type: 'paragraph', text: copy.why },
        { type: 'paragraph', text: copy.ifYou },
        {
          type: 'button',
          label: copy.button,
          url: links.absolute(`${ADDRESS_CONFIRM_PATH}?token=${encodeURIComponent(token)}`),
        },
        { type: 'paragraph', text: copy.notYou },
      ],
      footer: [{ type: 'small', text: copy.footer }],
    },
  };
}
