/**
 * The two spam traps every form carries (see docs/decisions): a honeypot field people never
 * see, and the time from the form appearing to its submission. The browser fills them in; the
 * server reads them before the form's own schema.
 */
export const HONEYPOT_FIELD = 'website';
export const FILL_TIME_FIELD = 'elapsedMs';

export type FormGuard = { [HONEYPOT_FIELD]: string; [FILL_TIME_FIELD]: number };
