/**
 * The guide download form (spec sections 3, 5 and 7): name, e-mail, role or company and the
 * required consent to e-mail communications. Used by the form and, unchanged, by the server.
 */
import { z } from '~/lib/zod';
import { consents, guideConsentVersions } from '~/content/consents';
import { consentVersion, leadFields, requiredConsent } from '~/lib/validation';
import { GUIDE_FORM_TYPE } from './guide-file';

export const GuideSchema = z.object({
  /** The visitor's name is firstName in the spec's body (lastName is sent empty). */
  ...leadFields(),
  consent: requiredConsent('Please agree to receive emails so we can send you the guide.'),
  consentVersion: consentVersion(guideConsentVersions, consents.guide.id),
});

export type GuideInput = z.input<typeof GuideSchema>;
export type GuideValues = z.output<typeof GuideSchema>;

/** The request body of spec section 7. The server composes its own e-mails; subject and message are informative. */
export function toGuideRequest(values: GuideValues) {
  return {
    formType: GUIDE_FORM_TYPE,
    ...values,
    lastName: '',
    subject: 'Wealth Building Guide Download',
    message: `Name: ${values.firstName}\nEmail: ${values.email}\nCompany: ${values.company}`,
  };
}
