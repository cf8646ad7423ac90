/** What an outbox row is sent as: a subject with no bidirectional control (decision 031). */
import { describe, expect, it } from 'vitest';
import { toMail } from './outbox-message';

describe('an outbox row sent', () => {
  it('never reach an e-mail subject, even from a row queued before', () => {
    const mail = toMail(
      {
        id: '1',
        kind: 'contact.owner',
        to_address: 'owner@example.org',
        audience: 'owner',
        attempts: 0,
        message: { subject: 'Enquiry from Ada \u202Eexe.gnp', html: '<p>x</p>', text: 'x' },
      },
      { from: { name: 'Site', address: 'hello@example.org' }, domain: 'example.org', secret: 's' },
    );
    expect(mail.subject).toBe('Enquiry from Ada exe.gnp');
  });
});
