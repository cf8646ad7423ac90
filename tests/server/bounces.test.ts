/**
 * Bounces and complaints that arrive after a send (decision 045), end to end on loopback, on
 * PostgreSQL: a visitor e-mail sent by the outbox's own steps through the SMTP
 * transport to a real SMTP peer carries its VERP envelope sender (and MAIL_FROM without a bounce
 * domain, or to the owner); a delivery status report and a feedback report, composed as relays do
 * and delivered by nodemailer to the bounce listener for that VERP address, put the row's
 * recipient on the suppression list, after which the outbox sends it nothing; an auto-reply and a
 * delay suppress nothing; a forged or malformed address, another domain and an oversized message
 * are refused in the SMTP dialogue; a console address is never suppressed; the logs hold no
 * address.
 */
import { mkdtempSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import MimeNode from 'nodemailer/lib/mime-node';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/server/kit/db/client';
import { startBounceListener, type BounceListener } from '../../src/server/kit/mail/bounce-listener';
import { enqueueEmails, suppressionHash, type OutgoingEmail } from '../../src/server/kit/mail/outbox';
import { SentMarks } from '../../src/server/kit/mail/outbox-marks';
import { claimDue, dropSuppressed, sendOne, type SendOutcome } from '../../src/server/kit/mail/outbox-steps';
import { outboxSettings } from '../../src/server/kit/mail/outbox-worker';
import { smtpTransport } from '../../src/server/kit/mail/transport';
import { verpRowId, verpSender } from '../../src/server/kit/mail/verp';
import { requestSerializers } from '../../src/server/root/app';
import { loadConfig } from '../../src/server/kit/config';
import {
  bodies,
  makeFormsApp,
  OWNER,
  SECRET,
  startSmtpPeer,
  testDrivers,
  until,
  type SmtpPeer,
} from './forms-support';
import { ADDRESS } from './log-sink-setup';
import { sinkStream } from './log-sink';

const BOUNCE_DOMAIN = 'bounce.sterling.test';
const MAIL_FROM = 'hello@sterling.test';

let counter = 0;
/** A fresh visitor address per e-mail: the per-recipient limit and the list never get in the way. */
const nextVisitor = () => `visitor.${process.pid}.${(counter += 1)}@example.org`;

const visitorEmail = (to: string, kind = 'guide.visitor'): OutgoingEmail => ({
  kind,
  audience: 'visitor',
  to,
  subject: 'Your guide',
  content: { preheader: 'p', heading: 'Your guide', blocks: [] },
});

// --- Reports as relays compose them ------------------------------------------------------------

/** The returned message's headers, as a report quotes them: addresses the listener must not trust. */
const RETURNED =
  'From: Sterling Sats <hello@sterling.test>\r\nTo: someone.else@example.org\r\nSubject: Your guide\r\n';

/** A multipart/report of `reportType` with its machine-readable part, composed by nodemailer. */
function reportMessage(reportType: string, partType: string, part: string, from: string): Promise<Buffer> {
  const root = new MimeNode(`multipart/report; report-type=${reportType}`);
  root.setHeader({ from, subject: 'Delivery report', 'auto-submitted': 'auto-replied' });
  root.createChild('text/plain').setContent('This is an automatically generated report.');
  root.createChild(partType).setContent(part);
  root.createChild('text/rfc822-headers').setContent(RETURNED);
  return root.build();
}

/** An RFC 3464 delivery status notification for one recipient. */
const dsn = (action: string, status: string) =>
  reportMessage(
    'delivery-status',
    'message/delivery-status',
    [
      'Reporting-MTA: dns; mx.example.org',
      '',
      'Final-Recipient: rfc822; someone.else@example.org',
      `Action: ${action}`,
      `Status: ${status}`,
      `Diagnostic-Code: smtp; 550 ${status} User unknown`,
      '',
    ].join('\r\n'),
    'MAILER-DAEMON@mx.example.org',
  );

/** An RFC 5965 feedback report. */
const arf = (feedbackType: string) =>
  reportMessage(
    'feedback-report',
    'message/feedback-report',
    [`Feedback-Type: ${feedbackType}`, 'User-Agent: ExampleFBL/1.0', 'Version: 1', ''].join('\r\n'),
    'fbl@mailbox.example.org',
  );

/** An out-of-office answer, marked as relays and mail programs mark them. */
function autoReply(): Promise<Buffer> {
  const node = new MimeNode('text/plain');
  node.setHeader({
    from: 'someone.else@example.org',
    subject: 'Out of office: Your guide',
    'auto-submitted': 'auto-replied',
    'x-autoreply': 'yes',
  });
  node.setContent('I am away until Monday. Action: failed\r\nStatus: 5.1.1\r\n');
  return node.build();
}

const drivers = await testDrivers('bounces');

describe.each(drivers)('bounces and complaints by VERP, on $name', (driver) => {
  let database: Database;
  let peer: SmtpPeer;
  let listener: BounceListener;
  let drop: () => Promise<void> = async () => {};
  const lines: string[] = [];
  const log = pino(
    { level: 'trace', serializers: requestSerializers },
    sinkStream((l) => lines.push(l)),
  );
  const addressesUsed: string[] = [];

  beforeAll(async () => {
    const env = await driver.env();
    drop = env.drop;
    database = await openDatabase({
      databaseUrl: env.env.DATABASE_URL,
      dataDir: mkdtempSync(join(tmpdir(), 'bounces-')),
    });
    peer = await startSmtpPeer();
    listener = await startBounceListener({
      port: 0,
      host: '127.0.0.1',
      domain: BOUNCE_DOMAIN,
      db: database.db,
      secret: SECRET,
      consoleAddresses: [OWNER],
      log,
    });
  });
  afterAll(async () => {
    await listener?.close();
    await peer?.close();
    await database?.close();
    await drop();
  });

  const query = async <T>(text: string) =>
    ((await database.db.execute(sql.raw(text))) as unknown as { rows: T[] }).rows;

  const rowOf = async (id: number) =>
    (
      await query<{ status: string; last_error: string | null; sent: boolean }>(
        `select status, last_error, sent_at is not null as sent from outbox where id = ${id}`,
      )
    )[0];

  const suppression = async (address: string) =>
    (
      await query<{ reason: string }>(
        `select reason from suppressions where hash = '${suppressionHash(SECRET, address)}'`,
      )
    )[0]?.reason;

  /**
   * The outbox worker's steps over every due row, as one round of the worker does them: the claim,
   * the suppression list, the visitor limits, the composing, the send through the SMTP transport
   * to the peer and the sent marks. `bounceDomain` is the sender identity's.
   */
  async function sendDue(bounceDomain?: string): Promise<SendOutcome[]> {
    const transport = smtpTransport(peer.url);
    try {
      const settings = outboxSettings({
        db: database.db,
        transport,
        log,
        mailFrom: MAIL_FROM,
        secret: SECRET,
        brand: 'Sterling Sats',
        ownerEmail: OWNER,
        consoleAddresses: [OWNER],
      });
      const identity = { ...settings.identity, ...(bounceDomain ? { bounceDomain } : {}) };
      const claimed = await claimDue(database.db, 50, settings.leaseMs);
      const rows = await dropSuppressed(database.db, SECRET, claimed, settings.suppression);
      const marks = new SentMarks(database.db);
      const step = {
        db: database.db,
        transport,
        log,
        settings: { ...settings, identity },
        marks,
        stopping: () => false,
      };
      const claimedAt = performance.now();
      const outcomes = await Promise.all(rows.map((row) => sendOne({ row, claimedAt }, step)));
      await marks.flush();
      return outcomes;
    } finally {
      transport.close();
    }
  }

  /**
   * Queues one visitor e-mail and sends it, with the bounce domain given (null: none); answers its
   * row id and the message the peer received.
   */
  async function sendVisitorEmail(to: string, bounceDomain: string | null = BOUNCE_DOMAIN) {
    addressesUsed.push(to);
    const before = peer.mails.length;
    const [id] = await enqueueEmails(database.db, null, [visitorEmail(to)]);
    expect(await sendDue(bounceDomain ?? undefined)).toEqual(['sent']);
    const mails = await peer.waitFor(before + 1);
    return { id: id!, mail: mails[before]! };
  }

  /** Delivers a raw message to the listener with nodemailer, as a relay would. */
  async function deliver(to: string, raw: Buffer, from = '') {
    const client = nodemailer.createTransport({
      host: '127.0.0.1',
      port: listener.port,
      secure: false,
      ignoreTLS: true,
      connectionTimeout: 5_000,
      socketTimeout: 5_000,
    });
    try {
      return await client.sendMail({ envelope: { from, to }, raw });
    } finally {
      client.close();
    }
  }

  it('sends a visitor e-mail with its VERP envelope sender, From unchanged', async () => {
    const to = nextVisitor();
    const { id, mail } = await sendVisitorEmail(to);
    expect(mail.envelopeFrom).toBe(verpSender(SECRET, BOUNCE_DOMAIN, id, to));
    expect(verpRowId(SECRET, BOUNCE_DOMAIN, mail.envelopeFrom, to)).toBe(id);
    expect(mail.envelopeFrom.split('@')[0]!.length).toBeLessThanOrEqual(64);
    expect(mail.envelopeTo).toEqual([to]);
    expect(mail.header('from')).toBe('Sterling Sats <hello@sterling.test>');
  });

  it('keeps MAIL_FROM as the envelope sender without a bounce domain, and for the owner', async () => {
    const { mail } = await sendVisitorEmail(nextVisitor(), null);
    expect(mail.envelopeFrom).toBe(MAIL_FROM);

    const before = peer.mails.length;
    await enqueueEmails(database.db, null, [
      { kind: 'contact.owner', to: OWNER, subject: 'Lead', content: visitorEmail(OWNER).content },
    ]);
    expect(await sendDue(BOUNCE_DOMAIN)).toEqual(['sent']);
    expect((await peer.waitFor(before + 1))[before]!.envelopeFrom).toBe(MAIL_FROM);
  });

  it('suppresses the address of a hard bounce, and the outbox sends it nothing more', async () => {
    const to = nextVisitor();
    const { id, mail } = await sendVisitorEmail(to);
    const answer = await deliver(mail.envelopeFrom, await dsn('failed', '5.1.1'));
    expect(answer.response).toMatch(/^250/);

    expect(await suppression(to)).toBe('bounced');
    // The row says what became of it, as a code; it did leave.
    expect(await rowOf(id)).toEqual({ status: 'failed', last_error: 'EBOUNCE 5.1.1', sent: true });
    // The address the report quotes is not the one acted on.
    expect(await suppression('someone.else@example.org')).toBeUndefined();

    // The same report again (a relay repeating itself) changes nothing.
    await deliver(mail.envelopeFrom, await dsn('failed', '5.1.1'));
    expect(await suppression(to)).toBe('bounced');

    // Later e-mails to the address end `suppressed` and never reach the relay.
    const before = peer.mails.length;
    const [later] = await enqueueEmails(database.db, null, [visitorEmail(to, 'newsletter.confirm')]);
    expect(await sendDue(BOUNCE_DOMAIN)).toEqual([]);
    expect((await rowOf(later!))?.status).toBe('suppressed');
    expect(peer.mails.length).toBe(before);
  });

  it('suppresses the address of a complaint, and leaves its delivered row as it was', async () => {
    const to = nextVisitor();
    const { id, mail } = await sendVisitorEmail(to);
    await deliver(mail.envelopeFrom, await arf('abuse'), 'fbl@mailbox.example.org');
    expect(await suppression(to)).toBe('complained');
    expect(await rowOf(id)).toEqual({ status: 'sent', last_error: null, sent: true });
  });

  it('suppresses nothing for an auto-reply, a delay, a temporary failure or a not-spam report', async () => {
    const to = nextVisitor();
    const { id, mail } = await sendVisitorEmail(to);
    const messages = [
      await autoReply(),
      await dsn('delayed', '4.4.1'),
      await dsn('failed', '4.2.2'),
      await dsn('delivered', '2.0.0'),
      await arf('not-spam'),
    ];
    for (const raw of messages) {
      // Accepted (a relay is not made to return it), and dropped.
      const answer = await deliver(mail.envelopeFrom, raw, 'someone.else@example.org');
      expect(answer.response).toMatch(/^250/);
    }
    expect(await suppression(to)).toBeUndefined();
    expect(await rowOf(id)).toEqual({ status: 'sent', last_error: null, sent: true });
  });

  it('refuses forged and malformed addresses, another domain, and any other recipient, at RCPT TO', async () => {
    const to = nextVisitor();
    const { id, mail } = await sendVisitorEmail(to);
    const local = mail.envelopeFrom.slice(0, mail.envelopeFrom.indexOf('@'));
    const tag = local.slice(local.indexOf('-') + 1);
    const flipped = `${tag.slice(0, -1)}${tag.endsWith('a') ? 'b' : 'a'}`;
    const refused = [
      // Another row's id with this row's tag, and this row's id with a changed tag.
      `bounce+${id + 1}-${tag}@${BOUNCE_DOMAIN}`,
      `bounce+${id}-${flipped}@${BOUNCE_DOMAIN}`,
      `bounce+${id}-${tag.slice(2)}@${BOUNCE_DOMAIN}`,
      `bounce+${id}@${BOUNCE_DOMAIN}`,
      `postmaster@${BOUNCE_DOMAIN}`,
      // The right address at another domain, and a stranger's address (no open relay).
      `${local}@other.example.org`,
      'someone.else@example.org',
    ];
    const report = await dsn('failed', '5.1.1');
    for (const address of refused) {
      await expect(deliver(address, report), address).rejects.toMatchObject({
        code: 'EENVELOPE',
        responseCode: 550,
      });
    }
    expect(await suppression(to)).toBeUndefined();
    expect((await rowOf(id))?.status).toBe('sent');
  });

  it('closes a session after three unknown recipients, and takes at most four connections from one address', async () => {
    /** A raw SMTP client: each line sent, and the replies read as they come. */
    const session = async () => {
      const socket = net.connect(listener.port, '127.0.0.1');
      socket.setEncoding('utf8');
      let buffered = '';
      let closed = false;
      socket.on('data', (chunk: string) => (buffered += chunk));
      socket.on('close', () => (closed = true));
      socket.on('error', () => {});
      const reply = async () => {
        const line = await until(() => {
          const end = buffered.search(/^\d{3} .*\r\n/m);
          if (end === -1) return false;
          const match = /^(\d{3}) .*\r\n/m.exec(buffered)!;
          buffered = buffered.slice(match.index + match[0].length);
          return match[1]!;
        });
        return Number(line);
      };
      return {
        reply,
        send: async (line: string) => {
          socket.write(`${line}\r\n`);
          return reply();
        },
        closed: () => closed,
        end: () => socket.destroy(),
      };
    };
    const guesser = await session();
    expect(await guesser.reply()).toBe(220);
    expect(await guesser.send('EHLO guesser.example.org')).toBe(250);
    expect(await guesser.send('MAIL FROM:<>')).toBe(250);
    expect(await guesser.send(`RCPT TO:<bounce+1-aaaaaaaaaaaaaaaa@${BOUNCE_DOMAIN}>`)).toBe(550);
    expect(await guesser.send(`RCPT TO:<bounce+2-aaaaaaaaaaaaaaaa@${BOUNCE_DOMAIN}>`)).toBe(550);
    expect(await guesser.send(`RCPT TO:<bounce+3-aaaaaaaaaaaaaaaa@${BOUNCE_DOMAIN}>`)).toBe(421);
    await until(() => guesser.closed());

    const open = [];
    for (let i = 0; i < 4; i += 1) {
      const s = await session();
      expect(await s.reply()).toBe(220);
      open.push(s);
    }
    const fifth = await session();
    expect(await fifth.reply()).toBe(421);
    // One closed, one more is taken (once the listener has seen it close).
    open.shift()!.end();
    const again = await until(async () => {
      const s = await session();
      if ((await s.reply()) === 220) return s;
      s.end();
      return undefined;
    });
    for (const s of [...open, fifth, again]) s.end();
  });

  it('refuses a message over the size limit', async () => {
    const to = nextVisitor();
    const { mail } = await sendVisitorEmail(to);
    const report = await dsn('failed', '5.1.1');
    const oversized = Buffer.concat([Buffer.from(`X-Padding: ${'x'.repeat(70)}\r\n`.repeat(4000)), report]);
    expect(oversized.length).toBeGreaterThan(256 * 1024);
    await expect(deliver(mail.envelopeFrom, oversized)).rejects.toMatchObject({ responseCode: 552 });
    expect(await suppression(to)).toBeUndefined();
  });

  it("never suppresses one of the console's addresses", async () => {
    const { id, mail } = await sendVisitorEmail(OWNER);
    expect(verpRowId(SECRET, BOUNCE_DOMAIN, mail.envelopeFrom, OWNER)).toBe(id);
    await deliver(mail.envelopeFrom, await dsn('failed', '5.1.1'));
    await deliver(mail.envelopeFrom, await arf('abuse'), 'fbl@mailbox.example.org');
    expect(await suppression(OWNER)).toBeUndefined();
    // The row still says it bounced: the owner sees it under Deliveries.
    expect((await rowOf(id))?.last_error).toBe('EBOUNCE 5.1.1');
  });

  it("refuses a report about a row that is no longer kept, or that was another recipient's", async () => {
    const count = async () =>
      (await query<{ n: number }>('select count(*)::int as n from suppressions'))[0]!.n;
    const before = await count();
    // An address made for a row that is gone, and one made for this row's id and another recipient
    // (a database started afresh under the same secret numbers its rows again).
    const to = nextVisitor();
    const { id } = await sendVisitorEmail(to);
    for (const address of [
      verpSender(SECRET, BOUNCE_DOMAIN, 9_999_999, to),
      verpSender(SECRET, BOUNCE_DOMAIN, id, 'someone.else@example.org'),
    ]) {
      await expect(deliver(address, await dsn('failed', '5.1.1'))).rejects.toMatchObject({
        responseCode: 550,
      });
    }
    expect(await count()).toBe(before);
  });

  it('logs ids and codes, never an address', () => {
    const text = lines.join('');
    expect(text).toContain('"report":"bounce"');
    expect(text).toContain('"status":"5.1.1"');
    expect(text).not.toMatch(ADDRESS);
    for (const address of [...addressesUsed, 'someone.else@example.org', BOUNCE_DOMAIN]) {
      expect(text).not.toContain(address);
    }
  });
});

describe('the bounce route in the running server', () => {
  it('starts with BOUNCE_DOMAIN: a guide e-mail leaves with its VERP sender and a bounce to it suppresses the address', async () => {
    const peer = await startSmtpPeer();
    const t = await makeFormsApp({
      SMTP_URL: peer.url,
      BOUNCE_DOMAIN,
      BOUNCE_SMTP_PORT: '0',
      BOUNCE_SMTP_HOST: '127.0.0.1',
    });
    try {
      const port = t.app.services.bounces?.port;
      expect(port).toBeGreaterThan(0);
      const to = nextVisitor();
      expect((await t.post(bodies.guide({ email: to }))).statusCode).toBe(200);
      const mails = await until(
        () => peer.mails.filter((m) => m.envelopeTo.includes(to)).length > 0 && peer.mails,
      );
      const sent = mails.find((m) => m.envelopeTo.includes(to))!;
      expect(sent.envelopeFrom).toMatch(/^bounce\+\d+-[a-z2-7]{16}@bounce\.sterling\.test$/);
      // The owner's copy keeps MAIL_FROM as its envelope sender.
      expect(
        mails.filter((m) => m.envelopeTo.includes(OWNER)).every((m) => m.envelopeFrom === MAIL_FROM),
      ).toBe(true);
      const client = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true });
      try {
        await client.sendMail({
          envelope: { from: '', to: sent.envelopeFrom },
          raw: await dsn('failed', '5.1.1'),
        });
      } finally {
        client.close();
      }
      expect(
        await t.query(`select reason from suppressions where hash = '${suppressionHash(SECRET, to)}'`),
      ).toEqual([{ reason: 'bounced' }]);
    } finally {
      await t.app.close();
      await peer.close();
    }
  });

  it('stops the start with a sentence when the listener cannot take its port', async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as net.AddressInfo).port;
    try {
      await expect(
        makeFormsApp({ BOUNCE_DOMAIN, BOUNCE_SMTP_PORT: String(port), BOUNCE_SMTP_HOST: '127.0.0.1' }),
      ).rejects.toThrow(
        /^The bounce listener cannot listen on 127\.0\.0\.1:\d+ \(EADDRINUSE\): another process/,
      );
    } finally {
      holder.close();
    }
  });

  it('refuses a bounce domain that is MAIL_FROM’s, with a sentence', () => {
    expect(() =>
      loadConfig({ NODE_ENV: 'test', APP_SECRET: SECRET, MAIL_FROM, BOUNCE_DOMAIN: 'Sterling.test' }),
    ).toThrow(/BOUNCE_DOMAIN must be a domain of its own/);
    // Nor a parent of it, nor a console address's domain.
    expect(() =>
      loadConfig({
        NODE_ENV: 'test',
        APP_SECRET: SECRET,
        MAIL_FROM: 'hello@mail.sterling.test',
        BOUNCE_DOMAIN: 'sterling.test',
      }),
    ).toThrow(/BOUNCE_DOMAIN must be a domain of its own/);
    expect(() =>
      loadConfig({
        NODE_ENV: 'test',
        APP_SECRET: SECRET,
        MAIL_FROM,
        OWNER_EMAIL: 'ada@owner.example',
        BOUNCE_DOMAIN: 'owner.example',
      }),
    ).toThrow(/BOUNCE_DOMAIN must be a domain of its own/);
    expect(
      loadConfig({ NODE_ENV: 'test', APP_SECRET: SECRET, MAIL_FROM, BOUNCE_DOMAIN: 'bounces.sterling.test' })
        .bounce,
    ).toMatchObject({ domain: 'bounces.sterling.test', port: 25 });
  });
});
