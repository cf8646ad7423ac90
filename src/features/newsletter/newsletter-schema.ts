/** The Smart Money Newsletter sign-up (spec sections 3, 5 and 7): first name, last name, e-mail. */
import { z } from '~/lib/zod';
import { email, text } from '~/lib/validation';

export const NewsletterSchema = z.object({
  firstName: text({ required: 'Please enter your first name.', max: 50 }),
  lastName: text({ required: 'Please enter your last name.', max: 50 }),
  email: email(),
});

export type NewsletterInput = z.input<typeof NewsletterSchema>;
export type NewsletterValues = z.output<typeof NewsletterSchema>;

export const NewsletterTokenSchema = z.object({ token: z.string().min(1).max(1024) });
