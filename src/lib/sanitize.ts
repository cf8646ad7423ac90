/**
 * The contact form's cleaning (spec section 5): script, iframe, object and embed blocks,
 * `javascript:` strings and inline event-handler attributes are removed, then the value is
 * trimmed. It runs in the browser on submit and again on the server, through the same schema.
 *
 * This is not what makes e-mails safe (every value is HTML-escaped when rendered); it keeps
 * stored text free of the payloads a scanner or a careless viewer could trip over.
 */

// Whole blocks, and an opening tag left without its closing one (the rest of the text goes too;
// embed has no closing tag, so a lone one is removed on its own below).
const BLOCKS = /<(script|iframe|object|embed)\b[^>]*>[\s\S]*?<\/\1\s*>|<(script|iframe|object)\b[\s\S]*$/gi;
// A stray closing tag or a self-closed tag of the same kinds.
const LONE_TAGS = /<\/?(script|iframe|object|embed)\b[^>]*>/gi;
// `javascript:` with the whitespace and control characters browsers skip inside it.
const JAVASCRIPT_SCHEME =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /j[\s\u0000-\u001f]*a[\s\u0000-\u001f]*v[\s\u0000-\u001f]*a[\s\u0000-\u001f]*s[\s\u0000-\u001f]*c[\s\u0000-\u001f]*r[\s\u0000-\u001f]*i[\s\u0000-\u001f]*p[\s\u0000-\u001f]*t[\s\u0000-\u001f]*:/gi;
// An on*= attribute inside something that looks like a tag: quoted or bare value.
const EVENT_HANDLERS = /(<[^>]*?)[\s/]on[a-z]+\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]*)/gi;

/** Removes the dangerous constructs until none is left (nesting cannot rebuild one), then trims. */
export function sanitizeText(value: string): string {
  let current = value;
  // Each pass strictly shortens the text when it changes anything, so this ends.
  for (;;) {
    let next = current.replace(BLOCKS, '').replace(LONE_TAGS, '').replace(JAVASCRIPT_SCHEME, '');
    let previous: string;
    do {
      previous = next;
      next = next.replace(EVENT_HANDLERS, '$1');
    } while (next !== previous);
    if (next === current) break;
    current = next;
  }
  return current.trim();
}
