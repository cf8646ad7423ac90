/**
 * The contact form's fields and rules (spec sections 3, 5 and 7). The form validates with this
 * object in the browser and the server validates the request body with it again.
 */
import { z } from '~/lib/zod';
import { contactConsentVersions, consents } from '~/content/consents';
import { cleanText, consentVersion, email, requiredConsent } from '~/lib/validation';
import { CONTACT_LIMITS, CONTACT_SUBJECTS, MESSAGE_TOO_LONG, type ContactSubject } from './contact-fields';

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
  consentVersion: consentVersion(contactConsentVersions, consents.contact.id),
});

/** What the visitor types (before cleaning). */
export type ContactInput = z.input<typeof ContactSchema>;
export type ContactValues = z.output<typeof ContactSchema>;
