/**
 * The masterclass registration form: name, e-mail, role or company and the consent to use them
 * for this event (the guide form's fields, on the same kit). The same schema in the browser and
 * on the server; the event is named by its id.
 */
import { z } from '~/lib/zod';
import { masterclassConsent, masterclassConsentVersions } from '~/content/masterclass-consent';
import { UUID_PATTERN } from '~/lib/patterns';
import { consentVersion, leadFields, requiredConsent } from '~/lib/validation';

export const RegistrationSchema = z.object({
  eventId: z
    .string({ error: 'Please reload the page and try again.' })
    .regex(UUID_PATTERN, 'Please reload the page and try again.'),
  /** The visitor's name, e-mail and role or company, as on the guide form. */
  ...leadFields(),
  consent: requiredConsent('Please agree so that we can hold your place and send you its details.'),
  consentVersion: consentVersion(masterclassConsentVersions, masterclassConsent.id),
});

export type RegistrationInput = z.input<typeof RegistrationSchema>;
export type RegistrationValues = z.output<typeof RegistrationSchema>;

export const RegistrationTokenSchema = z.object({ token: z.string().min(1).max(1024) });
