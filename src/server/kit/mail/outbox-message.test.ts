/**
 * What an outbox row is sent as: a subject with no bidirectional control (decision 031); a
 * visitor e-mail's VERP envelope sender when a bounce domain is set, and nothing else changed
 * (decision 045).
 */
import { describe, expect, it } from 'vitest';
import { composeMail, toMail, type SenderIdentity } from './outbox-message';
import type { ClaimedRow } from './outbox';
import { verpRowId } from './verp';

const identity: SenderIdentity = {
  from: { name: 'Site', address: 'hello@example.org' },
  domain: 'example.org',
  secret: 's',
};

const row = (over: Partial<ClaimedRow> = {}): ClaimedRow => ({
  id: '1',
  kind: 'contact.owner',
  to_address: 'owner@example.org',
  audience: 'owner',
  attempts: 0,
  message: { subject: 'Enquiry', html: '<p>x</p>', text: 'x' },
  ...over,
});

describe('an outbox row sent', () => {
  it('never reach an e-mail subject, even from a row queued before', () => {
    const mail = toMail(
      row({ message: { subject: 'Enquiry from Ada \u202Eexe.gnp', html: '<p>x</p>', text: 'x' } }),
      identity,
    );
    expect(mail.subject).toBe('Enquiry from Ada exe.gnp');
  });
});

describe("a row's envelope sender", () => {
  const visitor = row({
    id: '77',
    kind: 'guide.visitor',
    to_address: 'ada@example.net',
    audience: 'visitor',
  });
  const withBounces = { ...identity, bounceDomain: 'bounce.example.org' };

  it("is the visitor e-mail's VERP address when a bounce domain is set; From is unchanged", async () => {
    const mail = await composeMail(visitor, withBounces);
    const envelope = mail.envelope as { from: string; to: string[] };
    expect(verpRowId('s', 'bounce.example.org', envelope.from, 'ada@example.net')).toBe(77);
    expect(envelope.to).toEqual(['ada@example.net']);
    const raw = String(mail.raw);
    expect(raw).toMatch(/^From: Site <hello@example\.org>\r$/m);
    // The envelope is no header: the receiving server writes the Return-Path.
    expect(raw).not.toContain('bounce+');
  });

  it('is MAIL_FROM without a bounce domain, and for e-mails to the owner', async () => {
    for (const [r, id] of [
      [visitor, identity],
      [row(), withBounces],
    ] as const) {
      const mail = await composeMail(r, id);
      expect(mail.envelope).toEqual({ from: 'hello@example.org', to: [r.to_address] });
      expect(toMail(r, id).envelope).toBeUndefined();
    }
  });
});
