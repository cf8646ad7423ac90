/**
 * The two spam traps every form carries (see docs/decisions): a honeypot field people never
 * see, and the time from the visitor first using the form to its submission, measured by the
 * server: on first focus the form asks the server for a signed token that records the time,
 * and sends it back with the form. The server reads both before the form's own schema.
 */
export const HONEYPOT_FIELD = 'website';
export const FORM_TOKEN_FIELD = 'formToken';

/** The two fields every form adds to its request body. */
export type SpamTrapFields = { [HONEYPOT_FIELD]: string; [FORM_TOKEN_FIELD]: string };
/** The token endpoint's answer. */
export type FormTokenAnswer = { token: string; expiresInSeconds: number };
