/** The Smart Money Newsletter sign-up (spec sections 3, 5 and 7): first name, last name, e-mail. */
import { z } from '~/lib/zod';
import { email, text } from '~/lib/validation';

export const NEWSLETTER_FORM_TYPE = 'newsletter';

export const NewsletterSchema = z.object({
  firstName: text({ required: 'Please enter your first name.', max: 50 }),
  lastName: text({ required: 'Please enter your last name.', max: 50 }),
  email: email(),
});

export type NewsletterInput = z.input<typeof NewsletterSchema>;
export type NewsletterValues = z.output<typeof NewsletterSchema>;

/** The request body of spec section 7; subject, message and sendConfirmation are informative. */
export function toNewsletterRequest(values: NewsletterValues) {
  return {
    formType: NEWSLETTER_FORM_TYPE,
    ...values,
    subject: 'New Newsletter Subscriber',
    message: `New subscriber: ${values.firstName} ${values.lastName} (${values.email}). Please add them to the newsletter list.`,
    sendConfirmation: false,
  };
}

/** Where the e-mail links land (small pages that ask for a button press before changing anything). */
export const NEWSLETTER_CONFIRM_PATH = '/newsletter/confirm';
export const NEWSLETTER_UNSUBSCRIBE_PATH = '/newsletter/unsubscribe';
/** The API behind those pages; the unsubscribe one is also the RFC 8058 one-click target. */
export const NEWSLETTER_CONFIRM_API = '/api/newsletter/confirm';
export const NEWSLETTER_UNSUBSCRIBE_API = '/api/newsletter/unsubscribe';

export const NewsletterTokenSchema = z.object({ token: z.string().min(1).max(200) });
