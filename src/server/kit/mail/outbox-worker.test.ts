import { describe, expect, it } from 'vitest';
import type { ClaimedRow } from './outbox';
import { messageId, toMail } from './outbox-message';
import { outboxSettings, pauseAfterRound, WakeSignal, type OutboxWorkerOptions } from './outbox-worker';
import type { MailTransport } from './transport';

const transport: MailTransport = {
  concurrency: 4,
  maxSendMs: 5_000,
  send: async () => ({}),
  close: () => {},
};
const options = {
  db: undefined as never,
  transport,
  log: undefined as never,
  mailFrom: 'hello@sterling.test',
  secret: 's'.repeat(32),
  brand: 'Sterling Sats',
} satisfies OutboxWorkerOptions;

describe('outbox steps', () => {
  it('claims as many rows as the transport sends at once, leased for one message', () => {
    const settings = outboxSettings(options);
    expect(settings.inFlight).toBe(4);
    expect(settings.leaseMs).toBe(15_000);
    expect(outboxSettings({ ...options, batchSize: 2 }).inFlight).toBe(2);
    expect(outboxSettings({ ...options, transport: { ...transport, concurrency: undefined } }).inFlight).toBe(
      1,
    );
  });

  it('backs off: idle when nothing was claimed, a quarter of the CPU while requests arrive, else a yield', () => {
    expect(pauseAfterRound(0, 50, 10)).toEqual({ kind: 'idle' });
    expect(pauseAfterRound(3, 20, 500)).toEqual({ kind: 'wait', ms: 60 });
    expect(pauseAfterRound(3, 800, 500)).toEqual({ kind: 'wait', ms: 1000 });
    expect(pauseAfterRound(3, 20, 5_000)).toEqual({ kind: 'yield' });
  });

  it('wakes a sleep at once, and a wake before the sleep skips it', async () => {
    const signal = new WakeSignal();
    const started = Date.now();
    const sleeping = signal.sleep(10_000);
    signal.wake();
    await sleeping;
    signal.wake();
    await signal.sleep(10_000);
    // An interrupt ends only a sleep in progress.
    signal.interrupt();
    const next = signal.sleep(30);
    await next;
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('renders a stored row into a message with a signed Message-ID from its id', () => {
    const { identity } = outboxSettings(options);
    const row: ClaimedRow = {
      id: '42',
      kind: 'contact.owner',
      to_address: 'owner@sterling.test',
      audience: 'owner',
      attempts: 1,
      message: {
        subject: 'New lead',
        content: { preheader: 'p', heading: 'Hello', blocks: [{ type: 'paragraph', text: 'A lead' }] },
      },
    };
    const mail = toMail(row, identity);
    expect(mail).toMatchObject({
      from: { name: 'Sterling Sats', address: 'hello@sterling.test' },
      to: 'owner@sterling.test',
      subject: 'New lead',
      messageId: messageId(identity, 42),
      disableFileAccess: true,
      disableUrlAccess: true,
    });
    expect(mail.messageId).toMatch(/^<outbox\.42\.[A-Za-z0-9_-]{16}@sterling\.test>$/);
    expect(messageId({ ...identity, secret: 't'.repeat(32) }, 42)).not.toBe(mail.messageId);
    expect(String(mail.text)).toContain('A lead');
  });
});
