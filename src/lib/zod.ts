/**
 * zod as every form schema imports it. zod compiles object parsers with `new Function` when it
 * may; our CSP forbids eval, and even its probe for eval shows as a CSP violation in the
 * browser. Importing zod through this module turns that off before any schema is built.
 *
 * A problem whose schema names no message of its own is worded here, for a person, instead of
 * zod's default ("Invalid input: expected object, received array"): a console route or a form
 * that forgot a message still answers with a sentence (decision 031).
 */
import { z } from 'zod';

/** The sentence of a problem no schema worded. */
export function defaultMessage(issue: { code: string; path?: PropertyKey[]; expected?: unknown }): string {
  const field = issue.path?.filter((part) => typeof part === 'string' || typeof part === 'number').join('.');
  if (!field) {
    return issue.code === 'invalid_type' && issue.expected === 'object'
      ? 'Please send the request as a JSON object.'
      : 'The request is not valid.';
  }
  return issue.code === 'invalid_type' && issue.expected !== 'undefined'
    ? `The value of ${field} is missing or of the wrong kind.`
    : `The value of ${field} is not valid.`;
}

z.config({ jitless: true, customError: defaultMessage });

export { z };
