/**
 * The wording of every consent box, versioned. A stored consent record keeps the id and the
 * exact text the visitor saw, so changing a wording means adding a new version here (and
 * pointing `current` at it), never editing an old one: records made under it stay true.
 */
import { masterclassConsentVersions } from './masterclass-consent';

export type ConsentVersion = { readonly id: string; readonly text: string };

/** Guide download: consent to e-mail communications, with the right to unsubscribe (spec section 5). */
export const guideConsentVersions = {
  'guide-email-2025-06': {
    id: 'guide-email-2025-06',
    text: 'I agree to receive email communications from Sterling Sats and understand I can unsubscribe at any time.',
  },
} as const satisfies Record<string, ConsentVersion>;

/** Contact form: consent to collecting the data to answer the inquiry (spec section 5). */
export const contactConsentVersions = {
  'contact-data-2025-06': {
    id: 'contact-data-2025-06',
    text: 'I consent to Sterling Sats collecting my data via this form for the purpose of responding to my inquiry.',
  },
} as const satisfies Record<string, ConsentVersion>;

/**
 * Masterclass registration: in a module of its own (the Resources page's browser code reads it
 * from there, keeping its text out of the chunk the home page loads), re-exported here.
 */
export { masterclassConsentVersions };

export const consents = {
  guide: guideConsentVersions['guide-email-2025-06'],
  contact: contactConsentVersions['contact-data-2025-06'],
  masterclass: masterclassConsentVersions['masterclass-data-2026-11'],
} as const;
