/**
 * The newsletter's plain data (spec section 7): the request body and the addresses of the
 * confirmation pages and their API. No schema here, so pages load without zod (decision 016).
 */
import type { NewsletterValues } from './newsletter-schema';

export const NEWSLETTER_FORM_TYPE = 'newsletter';

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
