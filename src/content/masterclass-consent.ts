/**
 * The masterclass registration's consent wording, versioned as every consent is (see
 * consents.ts, which re-exports it). A module of its own so that the browser code of the
 * Resources page, which reads it, does not put its text into the consents chunk the home page
 * loads (the guide form's consent): its JavaScript budget has no room for it (decision 006).
 */
import type { ConsentVersion } from './consents';

/** Masterclass registration: the details are used to hold the place and send the event's e-mails. */
export const masterclassConsentVersions = {
  'masterclass-data-2026-11': {
    id: 'masterclass-data-2026-11',
    text: 'I consent to Sterling Sats using these details to register me for this masterclass and to send me its confirmation, reminders and any change to it.',
  },
} as const satisfies Record<string, ConsentVersion>;

/** The current version. */
export const masterclassConsent = masterclassConsentVersions['masterclass-data-2026-11'];
