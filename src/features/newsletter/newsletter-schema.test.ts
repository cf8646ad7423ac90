import { describe, expect, it } from 'vitest';
import { toNewsletterRequest } from './newsletter-fields';
import { NewsletterSchema } from './newsletter-schema';

describe('NewsletterSchema', () => {
  it('requires first name, last name and e-mail, and sends sendConfirmation false', () => {
    expect(NewsletterSchema.safeParse({ firstName: 'A', lastName: '', email: 'a@b.co' }).success).toBe(false);
    const values = NewsletterSchema.parse({
      firstName: ' Alan ',
      lastName: 'Turing',
      email: 'alan@example.org',
    });
    expect(values.firstName).toBe('Alan');
    expect(toNewsletterRequest(values)).toMatchObject({ formType: 'newsletter', sendConfirmation: false });
  });
});
