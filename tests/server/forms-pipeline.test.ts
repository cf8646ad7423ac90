/**
 * The handler interface a new form type builds on (the booking form is next): extra response
 * fields, an Idempotency-Key, several e-mails with attachments in one transaction, rows in
 * tables of its own, and a failing handler leaving nothing behind.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { pgTable, text, uuid } from 'drizzle-orm/pg-core';
import Fastify, { type FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineFormHandler } from '../../src/server/kit/http/form-handler';
import { formsApi } from '../../src/server/root/forms/endpoint';
import { createDiary } from '../../src/server/kit/diary';
import { createLinks } from '../../src/server/kit/http/links';
import { memoryRateLimiter } from '../../src/server/root/forms/rate-limit';
import { createSubmissionWriter } from '../../src/server/root/forms/submission-writer';
import { loadConfig } from '../../src/server/kit/config';
import { openDatabase, type Database } from '../../src/server/kit/db/client';
import { outbox, type StoredMessage } from '../../src/server/kit/db/schema';
import { createOutboxWorker } from '../../src/server/kit/mail/outbox-worker';
import { fileTransport } from '../../src/server/kit/mail/transport';
import { parseMail } from './forms-mime';
import { databaseFor } from './databases';
import { SECRET, nextAddress, readyTokens } from './forms-support';

const extras = pgTable('pipeline_test_extras', {
  submissionId: uuid('submission_id').primaryKey(),
  reference: text('reference').notNull(),
});

const EchoSchema = z.object({
  name: z.string().min(2, 'Name should be at least 2 characters'),
  fail: z.boolean().optional(),
});

let counter = 0;
const echoHandler = defineFormHandler({
  schema: EchoSchema,
  rateLimit: { max: 100, windowMs: 60_000 },
  idempotent: true,
  async accept({ tx, data, submissionId, config, sendEmail }) {
    counter += 1;
    const reference = `REF-${String(counter).padStart(4, '0')}`;
    await tx.insert(extras).values({ submissionId, reference });
    sendEmail(
      {
        kind: 'echo.owner',
        to: config.ownerEmail,
        subject: `Echo ${reference}`,
        content: { preheader: data.name, heading: 'Echo', blocks: [{ type: 'paragraph', text: data.name }] },
      },
      {
        kind: 'echo.visitor',
        to: 'visitor@example.org',
        subject: 'Your invite',
        content: {
          preheader: 'Your invite',
          heading: 'Your invite',
          blocks: [{ type: 'paragraph', text: 'See the attachment' }],
        },
        attachments: [
          {
            filename: 'invite.ics',
            contentType: 'text/calendar; method=REQUEST',
            content: 'BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n',
          },
        ],
      },
    );
    if (data.fail) throw new Error('handler failed after queueing');
    return { reference };
  },
  spamResponse: () => ({ reference: 'REF-0000' }),
});

describe('the form handler interface', () => {
  let app: FastifyInstance;
  let database: Database;
  let wakes = 0;
  const post = (body: object, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url: '/api/send-contact-email',
      remoteAddress: nextAddress(),
      headers: { 'content-type': 'application/json', ...headers },
      payload: JSON.stringify({ formType: 'echo', website: '', formToken: readyTokens.echo, ...body }),
    });
  const count = async (q: string) =>
    ((await database.db.execute(sql.raw(q))) as unknown as { rows: { n: number }[] }).rows[0]!.n;

  beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pipeline-test-'));
    const config = loadConfig({
      DATA_DIR: dataDir,
      APP_SECRET: SECRET,
      LOG_LEVEL: 'silent',
      MIN_FILL_TIME_MS: '1000',
    });
    database = await openDatabase({ dataDir, databaseUrl: await databaseFor(dataDir) });
    await database.db.execute(
      sql`create table pipeline_test_extras (submission_id uuid primary key, reference text not null)`,
    );
    app = Fastify();
    await app.register(formsApi, {
      config,
      database,
      links: createLinks(config.publicUrl, config.appSecret),
      limiter: memoryRateLimiter(),
      handlers: { echo: echoHandler },
      wakeOutbox: () => (wakes += 1),
      diary: createDiary([], {
        publicUrl: config.publicUrl,
        organizer: { name: 'Test', email: config.mailFrom },
        consoleUrl: (path) => path,
      }),
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('answers extra fields, writes its own rows and queues several e-mails with an attachment', async () => {
    const res = await post({ name: 'Ada' });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { id: string; reference: string };
    expect(body.reference).toMatch(/^REF-\d{4}$/);
    expect(
      await count(`select count(*)::int as n from pipeline_test_extras where submission_id = '${body.id}'`),
    ).toBe(1);
    const rows = (
      (await database.db.execute(
        sql.raw(`select kind, message from outbox where submission_id = '${body.id}' order by id`),
      )) as unknown as {
        rows: { kind: string; message: StoredMessage }[];
      }
    ).rows;
    expect(rows.map((r) => r.kind)).toEqual(['echo.owner', 'echo.visitor']);
    // The content is stored, not its rendering: the outbox applies the layout when it sends.
    expect(rows[0]!.message.content.blocks).toEqual([{ type: 'paragraph', text: 'Ada' }]);
    expect(rows[0]!.message).not.toHaveProperty('html');
    expect(rows[1]!.message.attachments?.[0]?.filename).toBe('invite.ics');
    expect(wakes).toBeGreaterThan(0);
  });

  it('honours an Idempotency-Key: the repeat gets the first answer and adds nothing', async () => {
    const key = 'booking-key-0001';
    const first = await post({ name: 'Grace' }, { 'idempotency-key': key });
    const again = await post({ name: 'Grace' }, { 'idempotency-key': key });
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    const id = (first.json() as { id: string }).id;
    expect(await count(`select count(*)::int as n from submissions where idempotency_key = '${key}'`)).toBe(
      1,
    );
    expect(await count(`select count(*)::int as n from outbox where submission_id = '${id}'`)).toBe(2);
    expect((await post({ name: 'Grace' }, { 'idempotency-key': 'bad key!' })).statusCode).toBe(400);
  });

  it('rolls everything back when the handler throws, and answers 500 without internals', async () => {
    const before = await count('select count(*)::int as n from submissions');
    const outboxBefore = await count('select count(*)::int as n from outbox');
    const res = await post({ name: 'Alan', fail: true });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ error: 'Something went wrong on our side. Please try again.' });
    expect(await count('select count(*)::int as n from submissions')).toBe(before);
    expect(await count('select count(*)::int as n from outbox')).toBe(outboxBefore);
  });

  it("gives a spam-trapped submission the handler's look-alike answer", async () => {
    const res = await post({ name: 'Bot', website: 'x' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ reference: 'REF-0000' });
  });

  it('writes concurrent submissions together, and a bad one fails alone', async () => {
    const writer = createSubmissionWriter(database);
    const item = (id: string) => ({
      row: { id, formType: 'echo', fields: { name: 'x' }, userAgent: null, ipHash: 'h', leadState: null },
      consent: { id: 'echo-consent', text: 'I agree.' },
      emails: [
        {
          kind: 'echo.owner',
          to: 'owner@example.org',
          subject: 'S',
          content: { preheader: 't', heading: 'T', blocks: [] },
        },
      ],
    });
    const ids = Array.from({ length: 20 }, () => randomUUID());
    const duplicate = ids[3]!;
    const results = await Promise.allSettled([
      ...ids.map((id) => writer.write(item(id))),
      writer.write(item(duplicate)),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(20);
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(1);
    const list = ids.map((id) => `'${id}'`).join(',');
    expect(await count(`select count(*)::int as n from submissions where id in (${list})`)).toBe(20);
    expect(
      await count(`select count(*)::int as n from consent_records where submission_id in (${list})`),
    ).toBe(20);
    expect(await count(`select count(*)::int as n from outbox where submission_id in (${list})`)).toBe(20);
  });

  it('queues an e-mail due later at its time, as enqueueEmails does', async () => {
    const writer = createSubmissionWriter(database);
    const id = randomUUID();
    const later = new Date(Date.now() + 24 * 3600_000);
    const email = (kind: string, sendAt?: Date) => ({
      kind,
      to: 'owner@example.org',
      subject: 'S',
      content: { preheader: 't', heading: 'T', blocks: [] },
      ...(sendAt ? { sendAt } : {}),
    });
    await writer.write({
      row: { id, formType: 'echo', fields: { name: 'x' }, userAgent: null, ipHash: 'h', leadState: null },
      consent: undefined,
      emails: [email('echo.now'), email('echo.later', later)],
    });
    const rows = await database.db
      .select({ kind: outbox.kind, at: outbox.nextAttemptAt })
      .from(outbox)
      .where(sql`${outbox.submissionId} = ${id}`)
      .orderBy(outbox.kind);
    expect(rows.map((r) => r.kind)).toEqual(['echo.later', 'echo.now']);
    expect(rows[0]!.at.getTime()).toBe(later.getTime());
    expect(rows[1]!.at.getTime()).toBeLessThanOrEqual(Date.now());
  });

  /** Runs an outbox worker until nothing is due; returns the folder it wrote the e-mails to. */
  async function deliverQueued(): Promise<string> {
    const mailDir = mkdtempSync(join(tmpdir(), 'pipeline-mail-'));
    const worker = createOutboxWorker({
      db: database.db,
      transport: fileTransport(mailDir),
      log: pino({ level: 'silent' }),
      mailFrom: 'hello@sterling.test',
      secret: SECRET,
      brand: 'Sterling Sats',
      pollIntervalMs: 20,
    });
    worker.start();
    await worker.drain();
    await worker.stop();
    return mailDir;
  }

  it('delivers the queued attachment through the outbox', async () => {
    const mailDir = await deliverQueued();
    const file = readdirSync(mailDir).find((f) => f.endsWith('echo.visitor.eml'));
    expect(file).toBeDefined();
    const mail = parseMail(readFileSync(join(mailDir, file!), 'utf8'));
    expect(mail.attachments[0]).toMatchObject({ filename: 'invite.ics', contentType: 'text/calendar' });
    expect(mail.attachments[0]!.content).toContain('BEGIN:VCALENDAR');
    const owner = readdirSync(mailDir).find((f) => f.endsWith('echo.owner.eml'));
    const ownerMail = parseMail(readFileSync(join(mailDir, owner!), 'utf8'));
    expect(ownerMail.html).toContain(
      '<h1 style="margin:0 0 20px;font-size:22px;line-height:30px;color:#0b1f3a;">Echo</h1>',
    );
    expect(ownerMail.text).toContain('STERLING SATS');
  });

  it('still delivers an e-mail queued with rendered parts, as rows written before content was stored', async () => {
    await database.db.insert(outbox).values({
      kind: 'echo.legacy',
      toAddress: 'owner@example.org',
      message: {
        subject: 'Queued earlier',
        html: '<p>Rendered before</p>',
        text: 'Rendered before',
      } as never,
    });
    const mailDir = await deliverQueued();
    const file = readdirSync(mailDir).find((f) => f.endsWith('echo.legacy.eml'));
    const mail = parseMail(readFileSync(join(mailDir, file!), 'utf8'));
    expect(mail.html).toBe('<p>Rendered before</p>');
    expect(mail.text.trim()).toBe('Rendered before');
  });
});
