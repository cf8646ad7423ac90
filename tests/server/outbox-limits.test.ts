/**
 * The visitor-mail limits the outbox worker enforces when it sends: one e-mail of a kind per
 * recipient per 24 hours (a keyed mark in mail_throttle, never the address), and an hourly cap
 * on visitor e-mails that holds the rest back without losing them and alerts the owner once an
 * hour. Owner e-mails are never limited. Run on Postgres.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/server/kit/db/client';
import { enqueueEmails, type OutgoingEmail } from '../../src/server/kit/mail/outbox';
import { CAP_ALERT_KIND, recipientKey } from '../../src/server/kit/mail/outbox-limits';
import { createOutboxWorker } from '../../src/server/kit/mail/outbox-worker';
import type { MailTransport } from '../../src/server/kit/mail/transport';
import { SECRET, createTestDatabase, postgresUnavailableReason } from './forms-support';
import { parseMail } from './forms-mime';

const pgUnavailable = await postgresUnavailableReason();
if (pgUnavailable) console.warn(`Skipping the outbox limit tests: ${pgUnavailable}`);

const OWNER_ADDRESS = 'owner@sterling.test';

type Sent = { id: number; kind: string; to: string; subject: string; text: string };

/** A transport that records what it was given to send; `failOnce` ids fail their first attempt. */
function recordingTransport() {
  const sent: Sent[] = [];
  const failOnce = new Set<number>();
  const transport: MailTransport = {
    concurrency: 4,
    maxSendMs: 5_000,
    async send(message, outboxId, kind) {
      if (failOnce.delete(outboxId)) {
        throw Object.assign(new Error('try later'), { code: 'EENVELOPE', responseCode: 451 });
      }
      // What goes to the relay: the message's composed bytes.
      const mail = parseMail(String(message.raw));
      sent.push({
        id: outboxId,
        kind,
        to: mail.header('to') ?? '',
        subject: mail.header('subject') ?? '',
        text: mail.text,
      });
      return {};
    },
    close() {},
  };
  return { sent, failOnce, transport };
}

function visitorEmail(kind: string, to: string, over: Partial<OutgoingEmail> = {}): OutgoingEmail {
  return {
    kind,
    to,
    audience: 'visitor',
    subject: 'Your Wealth Building Guide',
    content: {
      preheader: 'Your guide',
      heading: 'Your guide is attached',
      blocks: [{ type: 'paragraph', text: 'Visitor-typed zqxvisitortext' }],
    },
    ...over,
  };
}

function ownerEmail(kind: string): OutgoingEmail {
  return {
    kind,
    to: OWNER_ADDRESS,
    subject: 'New contact message',
    content: { preheader: 'New lead', heading: 'New lead', blocks: [{ type: 'paragraph', text: 'A lead' }] },
  };
}

function limitSuite(label: string, open: () => Promise<{ database: Database; drop(): Promise<void> }>) {
  describe(`visitor-mail limits on ${label}`, () => {
    let database: Database;
    let drop: () => Promise<void>;
    beforeAll(async () => {
      ({ database, drop } = await open());
    });
    afterAll(async () => {
      await database?.close();
      await drop?.();
    });
    beforeEach(async () => {
      await database.db.execute(sql`delete from outbox`);
      await database.db.execute(sql`delete from mail_throttle`);
    });

    const query = async <T = Record<string, unknown>>(text: string) =>
      ((await database.db.execute(sql.raw(text))) as unknown as { rows: T[] }).rows;

    /** Runs one worker until nothing is due; returns what it sent and what it logged. */
    async function pass(
      rec = recordingTransport(),
      opts: { cap?: number; retryDelayMs?: (attempt: number) => number } = {},
    ) {
      const lines: string[] = [];
      const log = pino(
        { level: 'info' },
        new Writable({
          write(chunk, _enc, cb) {
            lines.push(String(chunk));
            cb();
          },
        }),
      );
      const worker = createOutboxWorker({
        db: database.db,
        transport: rec.transport,
        log,
        mailFrom: 'hello@sterling.test',
        secret: SECRET,
        brand: 'Sterling Sats',
        ownerEmail: OWNER_ADDRESS,
        visitorHourlyCap: opts.cap ?? 200,
        pollIntervalMs: 20,
        retryDelayMs: opts.retryDelayMs,
      });
      worker.start();
      await worker.drain();
      await worker.stop();
      return { ...rec, lines };
    }

    const statuses = () =>
      query<{ id: string; kind: string; status: string; attempts: number }>(
        `select id::text as id, kind, status, attempts from outbox order by id`,
      );

    it('sends one e-mail of a kind to one address a day and skips the second, logged by id and kind only', async () => {
      await enqueueEmails(database.db, null, [
        visitorEmail('guide.visitor', 'Ada@Example.org'),
        visitorEmail('guide.visitor', 'ada@example.org '),
      ]);
      const { sent, lines } = await pass();
      expect(sent).toHaveLength(1);
      const rows = await statuses();
      expect(rows.map((r) => r.status).sort()).toEqual(['sent', 'skipped']);
      const skipped = rows.find((r) => r.status === 'skipped')!;
      const skipLog = lines.find((l) => l.includes('skipped'))!;
      expect(JSON.parse(skipLog)).toMatchObject({ outboxId: Number(skipped.id), kind: 'guide.visitor' });
      expect(lines.join('').toLowerCase()).not.toContain('ada@');
      // The mark is keyed by a keyed hash of the address, never the address.
      const marks = await query<{ key: string; holder: number }>(
        `select key, holder::int from mail_throttle`,
      );
      expect(marks).toEqual([
        { key: recipientKey(SECRET, 'guide.visitor', 'ada@example.org'), holder: Number(sent[0]!.id) },
      ]);
      expect(marks[0]!.key).toMatch(/^recipient:guide\.visitor:[A-Za-z0-9_-]{43}$/);
      // A later pass (another day's e-mail would need the window to pass) still sends nothing more.
      await enqueueEmails(database.db, null, [visitorEmail('guide.visitor', 'ada@example.org')]);
      expect((await pass()).sent).toHaveLength(0);
    });

    it('sends e-mails of different kinds, or to different addresses, each', async () => {
      await enqueueEmails(database.db, null, [
        visitorEmail('guide.visitor', 'grace@example.org'),
        visitorEmail('newsletter.confirm', 'grace@example.org'),
        visitorEmail('guide.visitor', 'alan@example.org'),
      ]);
      const { sent } = await pass();
      expect(sent).toHaveLength(3);
      expect((await statuses()).every((r) => r.status === 'sent')).toBe(true);
    });

    it('sends a visitor e-mail again after 24 hours', async () => {
      await enqueueEmails(database.db, null, [visitorEmail('guide.visitor', 'kate@example.org')]);
      expect((await pass()).sent).toHaveLength(1);
      await query(`update mail_throttle set last_at = now() - interval '25 hours'`);
      await enqueueEmails(database.db, null, [visitorEmail('guide.visitor', 'kate@example.org')]);
      expect((await pass()).sent).toHaveLength(1);
    });

    it('does not block a failed and retried e-mail with its own mark', async () => {
      await enqueueEmails(database.db, null, [visitorEmail('guide.visitor', 'retry@example.org')]);
      const rec = recordingTransport();
      const [row] = await statuses();
      rec.failOnce.add(Number(row!.id));
      const { sent } = await pass(rec, { retryDelayMs: () => 0 });
      expect(sent.map((s) => s.id)).toEqual([Number(row!.id)]);
      expect(await statuses()).toEqual([{ ...row, status: 'sent', attempts: 2 }]);
    });

    it('never limits owner e-mails, not even while the visitor cap holds visitor e-mails back', async () => {
      await enqueueEmails(database.db, null, [
        ownerEmail('contact.owner'),
        ownerEmail('contact.owner'),
        ownerEmail('contact.owner'),
        visitorEmail('guide.visitor', 'one@example.org'),
        visitorEmail('guide.visitor', 'two@example.org'),
      ]);
      const { sent } = await pass(undefined, { cap: 1 });
      const kinds = sent.map((s) => s.kind).sort();
      expect(kinds.filter((k) => k === 'contact.owner')).toHaveLength(3);
      expect(kinds.filter((k) => k === 'guide.visitor')).toHaveLength(1);
      expect(await query(`select 1 from mail_throttle where key like 'recipient:contact.owner:%'`)).toEqual(
        [],
      );
    });

    it('holds visitor e-mails over the hourly cap, alerts the owner once, and sends them as the hour passes', async () => {
      const visitors = Array.from({ length: 5 }, (_, i) =>
        visitorEmail('guide.visitor', `cap${i}@example.org`),
      );
      await enqueueEmails(database.db, null, visitors);
      const first = await pass(undefined, { cap: 3 });
      expect(first.sent.filter((s) => s.kind === 'guide.visitor')).toHaveLength(3);
      const held = await query<{ attempts: number; status: string; due_later: boolean }>(
        `select attempts, status, next_attempt_at > now() as due_later from outbox
         where kind = 'guide.visitor' and status <> 'sent'`,
      );
      // Waiting, not failed, and no attempt spent on them.
      expect(held).toEqual([
        { attempts: 0, status: 'pending', due_later: true },
        { attempts: 0, status: 'pending', due_later: true },
      ]);
      // Exactly one alert, to the owner, about the waiting e-mails, quoting no visitor text.
      const alerts = first.sent.filter((s) => s.kind === CAP_ALERT_KIND);
      expect(alerts).toHaveLength(1);
      expect(alerts[0]!.to).toBe(OWNER_ADDRESS);
      expect(alerts[0]!.text).toContain('2 visitor e-mails are waiting');
      expect(alerts[0]!.text).not.toContain('zqxvisitortext');
      expect(alerts[0]!.text).not.toContain('cap0@');
      expect(first.lines.join('')).not.toContain('cap0@');

      // Several more passes while the cap holds: the held e-mails come due and are held again,
      // and the owner still has one alert.
      for (let i = 0; i < 3; i += 1) {
        await query(`update outbox set next_attempt_at = now() where status = 'pending'`);
        const again = await pass(undefined, { cap: 3 });
        expect(again.sent).toEqual([]);
      }
      const rows = await query<{ kind: string; status: string; audience: string; to_address: string }>(
        `select kind, status, audience, to_address from outbox where kind = '${CAP_ALERT_KIND}'`,
      );
      expect(rows).toEqual([
        { kind: CAP_ALERT_KIND, status: 'sent', audience: 'owner', to_address: OWNER_ADDRESS },
      ]);
      expect(
        await query<{ attempts: number }>(`select attempts from outbox where status = 'pending' order by id`),
      ).toEqual([{ attempts: 0 }, { attempts: 0 }]);

      // An hour later (moved rather than waited for), the held e-mails go out: nothing lost.
      await query(`update outbox set sent_at = sent_at - interval '61 minutes' where sent_at is not null`);
      await query(`update outbox set next_attempt_at = now() where status = 'pending'`);
      const later = await pass(undefined, { cap: 3 });
      expect(later.sent.map((s) => s.kind)).toEqual(['guide.visitor', 'guide.visitor']);
      const final = await query<{ n: number }>(
        `select count(*)::int as n from outbox where kind = 'guide.visitor' and status = 'sent'`,
      );
      expect(final[0]!.n).toBe(5);
      expect(
        (await query(`select 1 from outbox where kind = '${CAP_ALERT_KIND}'`)).length,
        'no second alert within the hour',
      ).toBe(1);
    });
  });
}

if (!pgUnavailable) {
  limitSuite('Postgres', async () => {
    const created = await createTestDatabase('outboxlimits');
    const database = await openDatabase({
      dataDir: mkdtempSync(join(tmpdir(), 'outbox-limits-pg-')),
      databaseUrl: created.url,
    });
    return { database, drop: created.drop };
  });
}
