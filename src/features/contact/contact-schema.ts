/**
 * The contact form's fields and rules (spec sections 3, 5 and 7). The form validates with this
 * object in the browser and the server validates the request body with it again.
 */
import { z } from '~/lib/zod';
import { contactConsentVersions, consents } from '~/content/consents';
import { cleanText, email, requiredConsent } from '~/lib/validation';

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

export const ContactSchema = z.object({
  firstName: cleanText({ required: 'Please enter your first name.', max: CONTACT_LIMITS.name }),
  lastName: cleanText({ required: 'Please enter your last name.', max: CONTACT_LIMITS.name }),
  email: email({ max: CONTACT_LIMITS.email }),
  company: cleanText({ required: 'Please enter your company.', max: CONTACT_LIMITS.company }),
  subject: z.enum(CONTACT_SUBJECTS.map((s) => s.value) as [ContactSubject, ...ContactSubject[]], {
    error: 'Please select a subject.',
  }),
  message: cleanText({
    required: 'Please enter your message.',
    max: CONTACT_LIMITS.message,
    tooLong: MESSAGE_TOO_LONG,
    multiline: true,
  }),
  consent: requiredConsent('Please tick the box so we can use your details to reply.'),
  /** Which wording the visitor saw; absent means the current one. */
  consentVersion: z
    .enum(Object.keys(contactConsentVersions) as [keyof typeof contactConsentVersions])
    .default(consents.contact.id as keyof typeof contactConsentVersions),
});

/** What the visitor types (before cleaning). */
export type ContactInput = z.input<typeof ContactSchema>;
export type ContactValues = z.output<typeof ContactSchema>;

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
