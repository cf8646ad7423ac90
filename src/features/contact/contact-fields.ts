/**
 * The contact form's plain data (spec sections 3, 5 and 7): the subjects, the limits and the
 * request body. No schema here, so the page loads without zod (decision 016).
 */
import type { ContactValues } from './contact-schema';

export const CONTACT_FORM_TYPE = 'contact';

export const CONTACT_SUBJECTS = [
  { value: 'training', label: 'Team Training' },
  { value: 'consulting', label: 'Consulting' },
  { value: 'speaking', label: 'Speaking Engagement' },
  { value: 'partnership', label: 'Partnership' },
  { value: 'other', label: 'Other' },
] as const;

export type ContactSubject = (typeof CONTACT_SUBJECTS)[number]['value'];

export const CONTACT_LIMITS = { name: 50, email: 100, company: 100, message: 5000 } as const;
export const MESSAGE_TOO_LONG = 'Message is too long. Please keep it under 5000 characters.';

export function subjectLabel(value: string): string {
  return CONTACT_SUBJECTS.find((s) => s.value === value)?.label ?? value;
}

/**
 * The request body (spec section 7): the form's fields and formType. The spec's client sent a
 * composed summary as `message`; here the server composes the e-mail itself, so `message`
 * carries the visitor's own words and nothing is duplicated.
 */
export function toContactRequest(values: ContactValues) {
  return { formType: CONTACT_FORM_TYPE, ...values };
}
