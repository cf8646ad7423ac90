/**
 * Validation primitives shared by the form schemas. Every schema is used twice, by its form in
 * the browser and by the server, so these helpers are the one place the rules live.
 */
import type { ConsentVersion } from '~/content/consents';
import { EMAIL_PATTERN } from './patterns';
import { z } from './zod';
import { sanitizeText } from './sanitize';
import { withoutBidiControls } from './bidi';

export const INVALID_EMAIL_MESSAGE = 'Please enter a valid email address.';

// Line breaks and other control characters have no place in a name or an address, and one
// that reached an e-mail header could forge it: refused outright rather than cleaned.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const SINGLE_LINE = /^[^\u0000-\u001f\u007f]*$/;
// A free-text message may have line breaks and tabs, but no other control characters.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const MULTI_LINE = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/;
const CONTROL_MESSAGE = 'Please remove line breaks and unusual characters.';
// Half of a UTF-16 surrogate pair (not a character at all): the database cannot store it.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const wellFormed = (v: string) => !LONE_SURROGATE.test(v);

type TextRules = { required: string; max: number; tooLong?: string; multiline?: boolean };

/** A string with a required message and a maximum length, free of the control characters it may not hold. */
function rawText({ required, max, tooLong, multiline = false }: TextRules) {
  const checked = z
    .string({ error: required })
    .max(max, tooLong ?? `Please keep this under ${max} characters.`)
    .regex(multiline ? MULTI_LINE : SINGLE_LINE, CONTROL_MESSAGE)
    .refine(wellFormed, CONTROL_MESSAGE);
  // A name, a company, a one-line answer: shown as a name or in a subject, where a bidirectional
  // control would turn the text around (decision 031). A message keeps them: it is read as text.
  return multiline ? checked : checked.overwrite(withoutBidiControls);
}

/** Trimmed text with a required message and a maximum length. */
export function text(rules: TextRules) {
  return rawText(rules).trim().min(1, rules.required);
}

/** Trimmed text that may be left empty, with a maximum length and the same refusals. */
export function optionalText(rules: Omit<TextRules, 'required'>) {
  return rawText({ ...rules, required: 'Please write this in words.' }).trim();
}

/**
 * Text cleaned by `sanitizeText` (contact form). The length is checked on the raw value first
 * so the cleaning never runs over an unbounded string.
 */
export function cleanText(rules: TextRules) {
  return rawText(rules).transform(sanitizeText).pipe(z.string().min(1, rules.required));
}

export function email({ required = 'Please enter your email address.', max = 100 } = {}) {
  return (
    z
      .string({ error: required })
      .trim()
      .min(1, required)
      .max(max, `Please keep this under ${max} characters.`)
      .regex(EMAIL_PATTERN, INVALID_EMAIL_MESSAGE)
      // The spec's pattern lets through characters that change meaning in an address header.
      .regex(/^[^<>()[\]\\,;:"]+$/, INVALID_EMAIL_MESSAGE)
  );
}

/** A consent box that must be ticked. */
export function requiredConsent(message: string) {
  return z.literal(true, { error: message });
}

/**
 * Which wording of a consent box the visitor saw: one of `versions` (src/content/consents.ts);
 * absent means `current`.
 */
export function consentVersion<const K extends string>(versions: Record<K, ConsentVersion>, current: K) {
  return z.enum(Object.keys(versions) as [K, ...K[]]).default(current);
}

/**
 * A lead's short form, the guide download's and a masterclass registration's: the visitor's name
 * (carried as firstName), e-mail address and role or company.
 */
export function leadFields() {
  return {
    firstName: text({ required: 'Please enter your name.', max: 100 }),
    email: email(),
    company: text({ required: 'Please enter your current role or company.', max: 100 }),
  };
}
