/**
 * The outbox tells the truth about each e-mail: a relay that takes 20 s per message, served by
 * two instances on one Postgres, still gets every e-mail exactly once (each row is marked sent
 * as soon as the relay accepted it, and a claim's lease covers one message, not a batch). And
 * the `.eml` fallback keeps its folder and files to the server's user (and, for the browser tests
 * only, refuses recipients at one domain as a relay refuses a mailbox that does not exist).
 */
import { mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { enqueueEmails, type OutgoingEmail } from '../../src/server/kit/mail/outbox';
import { fileTransport } from '../../src/server/kit/mail/transport';
import {
  OWNER,
  createTestDatabase,
  makeFormsApp,
  postgresUnavailableReason,
  startSmtpPeer,
  type FormsTestApp,
} from './forms-support';

const pgUnavailable = await postgresUnavailableReason();
if (pgUnavailable) console.warn(`Skipping the slow-relay Postgres test: ${pgUnavailable}`);

function ownerEmail(i: number): OutgoingEmail {
  return {
    kind: 'contact.owner',
    to: OWNER,
    subject: `New contact message ${i}`,
    content: {
      preheader: 'A new lead',
      heading: 'New contact message',
      blocks: [{ type: 'fields', rows: [['Message', `Slow relay ${i}`]] }],
    },
  };
}

describe.skipIf(Boolean(pgUnavailable))('a relay taking 20 s per message, two instances', () => {
  it('delivers every e-mail exactly once', async () => {
    const peer = await startSmtpPeer();
    peer.delay(20_000);
    const database = await createTestDatabase('slowrelay');
    const env = { DATABASE_URL: database.url, SMTP_URL: peer.url };
    let apps: FormsTestApp[] = [];
    try {
      apps = await Promise.all([makeFormsApp(env), makeFormsApp(env)]);
      const count = 4;
      await enqueueEmails(
        apps[0]!.app.services.database.db,
        null,
        Array.from({ length: count }, (_, i) => ownerEmail(i)),
      );
      for (const t of apps) t.app.services.outbox.wake();
      // Only this test's e-mails: on a Monday the apps queue the owner's weekly report too.
      const ours = () => peer.mails.filter((m) => (m.header('subject') ?? '').startsWith('New contact message'));
      const until = Date.now() + 90_000;
      while (ours().length < count) {
        if (Date.now() > until) throw new Error(`expected ${count} e-mails, got ${ours().length}`);
        await new Promise((r) => setTimeout(r, 25));
      }
      // Each row records its own send; none is left claimed for another instance to repeat.
      const end = Date.now() + 10_000;
      while (
        (await apps[1]!.query(`select 1 from outbox where kind = 'contact.owner' and status <> 'sent'`))
          .length > 0
      ) {
        if (Date.now() > end) throw new Error('rows not marked sent');
        await new Promise((r) => setTimeout(r, 100));
      }
      await new Promise((r) => setTimeout(r, 1500));
      const ids = ours().map((m) => m.header('message-id'));
      expect(ids).toHaveLength(count);
      expect(new Set(ids).size).toBe(count);
      const rows = await apps[0]!.query<{ attempts: number }>(
        `select attempts from outbox where kind = 'contact.owner'`,
      );
      expect(rows.map((r) => r.attempts)).toEqual([1, 1, 1, 1]);
    } finally {
      await Promise.all(apps.map((t) => t.app.close()));
      await peer.close();
      await database.drop();
    }
  });
});

describe('the .eml fallback', () => {
  const mail = { from: 'hello@sterling.test', to: OWNER, subject: 'Hello', text: 'Hello' };

  it('creates its folder 0700 and each file 0600', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'outbox-eml-')), 'data', 'mail');
    const transport = fileTransport(dir);
    const { file } = await transport.send(mail, 7, 'contact.owner');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(file!).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['00000007-contact.owner.eml']);
  });

  it('closes a folder made earlier with wider permissions', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'outbox-eml-')), 'mail');
    mkdirSync(dir, { mode: 0o755 });
    await fileTransport(dir).send(mail, 8, 'contact.owner');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('refuses a recipient at the refused domain (tests only) as a relay would, writing nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'outbox-eml-'));
    const transport = fileTransport(dir, { refusedDomain: 'refused.test' });
    const refused = transport.send(
      { ...mail, envelope: { from: mail.from, to: ['Nobody@Refused.test'] } },
      10,
      'x',
    );
    await expect(refused).rejects.toMatchObject({ code: 'EENVELOPE', responseCode: 550, command: 'RCPT TO' });
    expect(readdirSync(dir)).toEqual([]);
    await transport.send(mail, 11, 'contact.owner');
    expect(readdirSync(dir)).toEqual(['00000011-contact.owner.eml']);
  });

  it('writes the temporary file 0600 too, replacing a leftover with wider permissions', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'outbox-eml-'));
    const file = join(dir, '00000009-contact.owner.eml');
    writeFileSync(`${file}.tmp`, 'left by a crash', { mode: 0o644 });
    // The final name is taken by a folder, so the rename fails and the temporary file stays
    // where it can be looked at.
    mkdirSync(file);
    writeFileSync(join(file, 'x'), '');
    await expect(fileTransport(dir).send(mail, 9, 'contact.owner')).rejects.toThrow();
    expect(statSync(`${file}.tmp`).mode & 0o777).toBe(0o600);
  });
});
