/**
 * The bidirectional control characters: the embeddings and overrides (U+202A-U+202E), the
 * isolates (U+2066-U+2069) and the marks (U+200E, U+200F, U+061C). In a name or a subject they
 * let a visitor reverse what follows them ("moc.elpmaxe@" shown as "@example.com"), so the owner's
 * console and the e-mails' subjects never show them (decision 031). Right-to-left text itself
 * needs none of them to read right to left.
 */
export const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;

/** `text` without its bidirectional control characters. */
export function withoutBidiControls(text: string): string {
  return text.replace(BIDI_CONTROLS, '');
}
