/**
 * The one place an e-mail to a visitor may quote what the visitor typed: the first name in
 * the greeting, and only when it looks like a name. Anyone can type a stranger's address into
 * a form, so whatever else they typed (a company, notes, a "name" such as
 * "Click www.example.com") must never reach that stranger. E-mails to the owner keep every field.
 */

/** Letters (any script, with their accents), spaces, hyphens and apostrophes; 1-50 characters. */
const NAME = /^\p{L}[\p{L}\p{M}' \u2019-]{0,49}$/u;

/** The first name when it passes the strict name rule, otherwise undefined. */
export function quotableName(firstName: string | undefined | null): string | undefined {
  const name = firstName?.trim().replace(/\s+/g, ' ');
  return name && NAME.test(name) ? name : undefined;
}

/** `Hello Jane,` or, for anything that is not plainly a name, `Hello,`. */
export function greeting(firstName: string | undefined | null): string {
  const name = quotableName(firstName);
  return name ? `Hello ${name},` : 'Hello,';
}
