/**
 * Someone whose address is on the suppression list (erased, or unsubscribed) who asks for
 * something again: the e-mail that asks them to confirm the address is theirs, and the page its
 * link opens (decision 030). The paths are shared by the server and the page.
 */
import { site } from './site';

/** The page the e-mail's link opens (one button; opening it changes nothing). */
export const ADDRESS_CONFIRM_PATH = '/email/confirm';
/** What the page's button posts `{token}` to. */
export const ADDRESS_CONFIRM_API = '/api/email/confirm';
/** How long the link works, and how far back the e-mails it releases may have been asked for. */
export const ADDRESS_CONFIRM_DAYS = 7;

export const addressConfirmEmailCopy = {
  subject: `Do you want e-mail from ${site.brand} again?`,
  preheader: 'Something was asked for on our website with this address. Nothing is sent until you confirm.',
  heading: 'Do you want e-mail from us again?',
  asked: `Someone, we hope you, asked for something on the ${site.brand} website with this e-mail address.`,
  why: 'Some time ago this address asked us to delete what we held about it, or to stop writing to it, so we have sent nothing.',
  ifYou:
    'If it was you and you want it, press the button: we will be able to write to this address again and will send what was asked for.',
  button: 'Yes, e-mail me again',
  notYou: `If it was not you, ignore this e-mail: nothing more will be sent, and the link stops working after ${ADDRESS_CONFIRM_DAYS} days.`,
  footer: 'We send an address at most one e-mail like this a day, whoever types it into our forms.',
};

export const addressConfirmPage = {
  title: 'E-mail from us again',
  eyebrow: 'Your e-mail address',
  description: 'Confirm that we may e-mail your address again.',
  loading: 'Reading the link...',
  working: 'Confirming...',
  heading: 'May we e-mail you again?',
  facts: [
    ['What happens', 'Your address comes off our list of addresses we never write to'],
    ['Then', 'We send what was asked for with it in the last few days'],
  ] as [string, string][],
  button: 'Yes, e-mail me again',
  done: 'Thank you: we may write to you again, and what you asked for is on its way.',
  missing: 'This link is incomplete. Please open it again from the e-mail.',
  invalid: 'This link is not valid. Please open it again from the e-mail.',
  expired: `This link has expired (it works for ${ADDRESS_CONFIRM_DAYS} days). Ask again on our website and we will send a new one.`,
  used: 'This link has been used already: we may write to your address.',
  gone: 'This link no longer works: what it was about has been deleted. Ask again on our website.',
};
