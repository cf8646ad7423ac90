/**
 * The dispatch table: one line per form type, keyed by the `formType` of the request body.
 * Adding a form is a feature folder with a `*.server.ts` handler, plus its line here.
 */
import { bookingHandler } from '~/features/booking/booking.server';
import { contactHandler } from '~/features/contact/contact.server';
import { registrationHandler } from '~/features/events/events.server';
import { guideHandler } from '~/features/guide/guide.server';
import { newsletterHandler } from '~/features/newsletter/newsletter.server';
import type { FormHandler } from '../../kit/http/form-handler';

export const formHandlers: Readonly<Record<string, FormHandler>> = {
  bitcoin_guide: guideHandler,
  newsletter: newsletterHandler,
  contact: contactHandler,
  booking: bookingHandler,
  masterclass: registrationHandler,
} as Record<string, FormHandler>;
