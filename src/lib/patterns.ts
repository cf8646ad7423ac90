/**
 * The shapes the site and the server recognise, one pattern each: the forms, the console and
 * the signed links all test against these, so no copy drifts from another.
 */

/**
 * Spec section 5: text, '@', text, '.', text, with no spaces; and no control or format
 * character (NUL, C1 controls, right-to-left overrides and other bidirectional controls,
 * zero-width characters), none of which belongs in an address: the database refuses a NUL, and a
 * bidirectional control would show the address to the owner as another one that no search finds.
 */
export const EMAIL_PATTERN = /^[^\s@\p{Cc}\p{Cf}]+@[^\s@\p{Cc}\p{Cf}]+\.[^\s@\p{Cc}\p{Cf}]+$/u;

/** A row id as Postgres writes a uuid: 8-4-4-4-12 hex digits, either case, any version. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
