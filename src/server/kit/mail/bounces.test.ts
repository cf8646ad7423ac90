/**
 * What a message sent back to a VERP address is (decision 045): a hard bounce only when a
 * delivery status report says a recipient failed with a 5.x.x status, a complaint only when a
 * feedback report says abuse, fraud, virus or other; anything else, auto-replies and delays among
 * them, is neither.
 */
import { describe, expect, it } from 'vitest';
import { fieldGroups, hardBounceStatus, reportVerdict } from './bounces';

/** A report as relays write it: a human part, the machine-readable part, the returned headers. */
function report({
  reportType = 'delivery-status',
  partType = 'message/delivery-status',
  part,
  partEncoding,
}: {
  reportType?: string | null;
  partType?: string;
  part: string;
  partEncoding?: 'base64';
}): string {
  const type =
    reportType === null
      ? 'multipart/report; boundary="B1"'
      : `multipart/report; report-type=${reportType};\r\n\tboundary="B1"`;
  const body = partEncoding === 'base64' ? Buffer.from(part).toString('base64') : part;
  return [
    'From: MAILER-DAEMON@mx.example.net (Mail Delivery System)',
    'To: bounce+1-aaaaaaaaaaaaaaaa@bounce.example.org',
    'Subject: Undelivered Mail Returned to Sender',
    'Auto-Submitted: auto-replied',
    'MIME-Version: 1.0',
    `Content-Type: ${type}`,
    '',
    '--B1',
    'Content-Type: text/plain; charset=us-ascii',
    '',
    'This is the mail system at host mx.example.net. Your message could not be delivered.',
    '',
    '--B1',
    `Content-Type: ${partType}`,
    ...(partEncoding ? [`Content-Transfer-Encoding: ${partEncoding}`] : []),
    '',
    body,
    '',
    '--B1',
    'Content-Type: text/rfc822-headers',
    '',
    'From: Sterling Sats <hello@example.org>',
    'To: gone@example.net',
    'Subject: Your guide',
    '',
    '--B1--',
    '',
  ].join('\r\n');
}

const perMessage = 'Reporting-MTA: dns; mx.example.net\r\nArrival-Date: Mon, 2 Jun 2025 10:00:00 +0100';
const recipient = (action: string, status: string) =>
  [
    'Final-Recipient: rfc822; gone@example.net',
    'Original-Recipient: rfc822;gone@example.net',
    `Action: ${action}`,
    `Status: ${status}`,
    `Diagnostic-Code: smtp; 550 ${status} <gone@example.net>: Recipient address rejected`,
  ].join('\r\n');
const dsn = (...recipients: string[]) => [perMessage, ...recipients].join('\r\n\r\n');

const feedback = (type: string) =>
  [
    `Feedback-Type: ${type}`,
    'User-Agent: ExampleFBL/1.0',
    'Version: 1',
    'Original-Rcpt-To: <gone@example.net>',
    'Arrival-Date: Mon, 2 Jun 2025 10:00:00 +0100',
  ].join('\r\n');

describe('a delivery status report', () => {
  it('is a hard bounce when a recipient failed with a 5.x.x status', async () => {
    expect(await reportVerdict(report({ part: dsn(recipient('failed', '5.1.1')) }))).toEqual({
      kind: 'bounce',
      status: '5.1.1',
    });
  });

  it('is read whatever its part transfer encoding, and in its UTF-8 form (RFC 6533)', async () => {
    expect(
      await reportVerdict(report({ part: dsn(recipient('failed', '5.2.1')), partEncoding: 'base64' })),
    ).toEqual({ kind: 'bounce', status: '5.2.1' });
    expect(
      await reportVerdict(
        report({
          reportType: 'global-delivery-status',
          partType: 'message/global-delivery-status',
          part: dsn(recipient('failed', '5.1.10')),
        }),
      ),
    ).toEqual({ kind: 'bounce', status: '5.1.10' });
  });

  it('finds the failed recipient among others', async () => {
    expect(
      await reportVerdict(report({ part: dsn(recipient('delayed', '4.4.1'), recipient('failed', '5.2.2')) })),
    ).toEqual({ kind: 'bounce', status: '5.2.2' });
  });

  it('is not a bounce when delivery is only delayed, relayed or done, or the failure is temporary', async () => {
    for (const [action, status] of [
      ['delayed', '4.4.1'],
      ['relayed', '2.0.0'],
      ['delivered', '2.0.0'],
      ['expanded', '2.0.0'],
      ['failed', '4.4.7'],
      ['delayed', '5.1.1'],
    ] as const) {
      expect(await reportVerdict(report({ part: dsn(recipient(action, status)) }))).toEqual({
        kind: 'ignored',
        why: 'not-a-hard-bounce',
      });
    }
  });

  it('needs its report type and its status part', async () => {
    const part = dsn(recipient('failed', '5.1.1'));
    expect(await reportVerdict(report({ reportType: null, part }))).toMatchObject({ kind: 'ignored' });
    expect(await reportVerdict(report({ partType: 'text/plain', part }))).toEqual({
      kind: 'ignored',
      why: 'no-status-part',
    });
  });

  it('reads folded fields', () => {
    const groups = fieldGroups(
      'Reporting-MTA: dns;\n mx\n\nAction:\n  failed\nStatus:\n\t5.1.1 (no such user)\n',
    );
    expect(groups).toHaveLength(2);
    expect(hardBounceStatus(groups)).toBe('5.1.1');
  });
});

describe('a feedback report', () => {
  it('is a complaint for abuse, fraud, virus and other', async () => {
    for (const type of ['abuse', 'fraud', 'virus', 'other', 'Abuse']) {
      expect(
        await reportVerdict(
          report({
            reportType: 'feedback-report',
            partType: 'message/feedback-report',
            part: feedback(type),
          }),
        ),
      ).toEqual({ kind: 'complaint', feedbackType: type.toLowerCase() });
    }
  });

  it('is not a complaint when it reports no spam or an authentication failure', async () => {
    for (const type of ['not-spam', 'auth-failure']) {
      expect(
        await reportVerdict(
          report({
            reportType: 'feedback-report',
            partType: 'message/feedback-report',
            part: feedback(type),
          }),
        ),
      ).toEqual({ kind: 'ignored', why: 'not-a-complaint' });
    }
  });
});

describe('anything else sent back', () => {
  it('is neither, however much it looks like one', async () => {
    const autoReply = [
      'From: Gone Away <gone@example.net>',
      'To: bounce+1-aaaaaaaaaaaaaaaa@bounce.example.org',
      'Subject: Out of office: Your guide',
      'Auto-Submitted: auto-replied',
      'X-Autoreply: yes',
      'Content-Type: text/plain; charset=utf-8',
      '',
      'I am away until Monday.',
      'Action: failed',
      'Status: 5.1.1',
      '',
    ].join('\r\n');
    expect(await reportVerdict(autoReply)).toEqual({ kind: 'ignored', why: 'not-a-report' });
    const mixed = report({ part: dsn(recipient('failed', '5.1.1')) }).replace(
      'multipart/report; report-type=delivery-status;',
      'multipart/mixed;',
    );
    expect(await reportVerdict(mixed)).toEqual({ kind: 'ignored', why: 'not-a-report' });
    expect(await reportVerdict(Buffer.from([0, 1, 2, 255, 254]))).toMatchObject({ kind: 'ignored' });
    expect(await reportVerdict('')).toMatchObject({ kind: 'ignored' });
  });
});
