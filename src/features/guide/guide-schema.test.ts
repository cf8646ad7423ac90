import { describe, expect, it } from 'vitest';
import { consents } from '~/content/consents';
import { GuideSchema, toGuideRequest } from './guide-schema';

describe('GuideSchema', () => {
  const valid = { firstName: 'Grace Hopper', email: 'grace@example.org', company: 'Partner', consent: true };

  it('builds the body of spec section 7', () => {
    const values = GuideSchema.parse(valid);
    expect(values.consentVersion).toBe(consents.guide.id);
    expect(toGuideRequest(values)).toMatchObject({
      formType: 'bitcoin_guide',
      firstName: 'Grace Hopper',
      lastName: '',
      email: 'grace@example.org',
      company: 'Partner',
      subject: 'Wealth Building Guide Download',
    });
  });

  it('requires the consent box and a valid e-mail', () => {
    expect(GuideSchema.safeParse({ ...valid, consent: false }).success).toBe(false);
    expect(GuideSchema.safeParse({ ...valid, email: 'grace' }).success).toBe(false);
    expect(GuideSchema.safeParse({ ...valid, consentVersion: 'made-up' }).success).toBe(false);
  });
});
