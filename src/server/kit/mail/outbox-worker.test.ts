import { describe, expect, it } from 'vitest';
import type { ClaimedRow } from './outbox';
import { composeMail, messageId, toMail } from './outbox-message';
import { SendPace } from './outbox-marks';
import {
  claimRoom,
  outboxSettings,
  pauseAfterRound,
  WakeSignal,
  type OutboxWorkerOptions,
} from './outbox-worker';
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

/** A stored owner notification of a lead, as the worker claims it, with `extra` in its message. */
function leadRow(id: string, extra: Partial<ClaimedRow['message']> = {}): ClaimedRow {
  return {
    id,
    kind: 'contact.owner',
    to_address: 'owner@sterling.test',
    audience: 'owner',
    attempts: 1,
    message: {
      subject: 'New lead',
      content: { preheader: 'p', heading: 'Hello', blocks: [{ type: 'paragraph', text: 'A lead' }] },
      ...extra,
    } as ClaimedRow['message'],
  };
}

describe('outbox steps', () => {
  it('sends as many rows at once as the transport, each leased for one message and a margin', () => {
    const settings = outboxSettings(options);
    expect(settings.inFlight).toBe(4);
    expect(settings.leaseMs).toBe(15_000);
    // A row may wait for its round half the lease's margin over one message's worst case.
    expect(settings.holdMs).toBe(5_000);
    expect(settings.readAhead).toBe(24);
    expect(outboxSettings({ ...options, batchSize: 2 }).inFlight).toBe(2);
    expect(outboxSettings({ ...options, transport: { ...transport, concurrency: undefined } }).inFlight).toBe(
      1,
    );
    // A lease with no margin leaves no time to wait: nothing is claimed ahead.
    expect(outboxSettings({ ...options, leaseMs: 5_000 })).toMatchObject({ holdMs: 0, readAhead: 0 });
  });

  it('claims several rounds ahead while sends are quick, one round while they are slow or requests arrive', () => {
    const settings = { inFlight: 4, readAhead: 24, holdMs: 5_000 };
    // Nothing waits: a round and the read-ahead.
    expect(claimRoom(0, settings, 5, false)).toBe(28);
    // Enough for the next round and half the read-ahead: no claim.
    expect(claimRoom(16, settings, 5, false)).toBe(0);
    expect(claimRoom(15, settings, 5, false)).toBe(13);
    // A row would wait 6 rounds of 500 ms: more than half its hold, so one round at a time.
    expect(claimRoom(0, settings, 500, false)).toBe(4);
    expect(claimRoom(4, settings, 500, false)).toBe(0);
    expect(claimRoom(1, settings, 5, true)).toBe(3);
  });

  it('paces sends by their average and by the longest one under way', () => {
    const pace = new SendPace();
    expect(pace.typicalMs()).toBe(0);
    const end = pace.begin();
    expect(pace.typicalMs(performance.now() + 2_000)).toBeGreaterThanOrEqual(2_000);
    end();
    expect(pace.typicalMs()).toBeLessThan(1_000);
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
    const row = leadRow('42');
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

  it('composes the message into the bytes nodemailer would send, with its envelope', async () => {
    const { identity } = outboxSettings(options);
    const row = leadRow('7', {
      replyTo: 'ada@example.org',
      attachments: [{ filename: 'invite.ics', contentType: 'text/calendar', content: 'BEGIN:VCALENDAR' }],
    });
    const composed = await composeMail(row, identity);
    expect(composed.envelope).toEqual({ from: 'hello@sterling.test', to: ['owner@sterling.test'] });
    const raw = String(composed.raw);
    expect(raw).toContain(`Message-ID: ${messageId(identity, 7)}`);
    expect(raw).toContain('From: Sterling Sats <hello@sterling.test>');
    expect(raw).toContain('Reply-To: ada@example.org');
    expect(raw).toContain('Subject: New lead');
    expect(raw).toContain('filename=invite.ics');
    expect(composed).toMatchObject({ disableFileAccess: true, disableUrlAccess: true });
  });
});
