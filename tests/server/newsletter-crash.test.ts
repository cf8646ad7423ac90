/**
 * A server process killed with SIGKILL in the middle of sending a newsletter issue (decision 046):
 * the restarted server sends the rest, and nobody receives the issue twice. The e-mails that were
 * with the relay at the kill, unanswered, may have arrived: they are marked in doubt and not sent
 * again (a reader whose e-mail had not fully reached the relay then misses the issue: at most once).
 * Real processes (src/server/root/main.ts), PGlite, a slow real SMTP peer; the issue is
 * started by the server's own chore, as a scheduled issue whose time has come.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/kit/db/client';
import { rowsOf } from '../../src/server/kit/db/rows';
import { SMTP_CONNECTIONS, SMTP_SEND_DEADLINE_MS } from '../../src/server/kit/mail/transport';
import { OWNER } from './forms-support';
import { exited, spawnServer } from './server-process';

const RELAY_DELAY_MS = 1500;
const READERS = 12;

/** A relay that answers each message after a delay, and keeps every message received in full. */
async function startRelay(onReceived: (count: number) => void) {
  const received: string[] = [];
  let count = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      stream.on('error', () => {});
      stream.on('data', () => {});
      stream.on('end', () => {
        received.push(...session.envelope.rcptTo.map((r) => r.address));
        count += 1;
        onReceived(count);
        setTimeout(() => callback(), RELAY_DELAY_MS);
      });
    },
  });
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('a server killed while sending a newsletter issue', () => {
  it('sends the rest after a restart, and nobody twice', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'newsletter-crash-'));
    const readers = Array.from({ length: READERS }, (_, i) => `reader${i}@example.org`);
    const issueId = randomUUID();
    {
      const database = await openDatabase({ dataDir });
      for (const email of readers) {
        await database.db.execute(sql`
          insert into newsletter_subscribers (id, email, first_name, last_name, status, confirmed_at)
          values (${randomUUID()}, ${email}, 'Reader', 'Test', 'confirmed', now())`);
      }
      await database.db.execute(sql`
        insert into newsletter_issues (id, subject, preheader, body, status, scheduled_for)
        values (${issueId}, 'The November issue', '', 'Hello, readers.', 'scheduled', now() - interval '1 minute')`);
      await database.close();
    }

    let first: ReturnType<typeof spawnServer> | undefined;
    let killed = false;
    const relay = await startRelay((count) => {
      // The first round was answered long ago; the second is with the relay: kill now.
      if (count === SMTP_CONNECTIONS + 2 && first) {
        first.child.kill('SIGKILL');
        killed = true;
      }
    });
    const env = { DATA_DIR: dataDir, SMTP_URL: relay.url, OWNER_EMAIL: OWNER, NEWSLETTER_SEND_RATE: '0' };
    try {
      first = spawnServer(env);
      await exited(first.child);
      expect(killed).toBe(true);
      await new Promise((r) => setTimeout(r, 200));
      const atKill = relay.received.length;
      expect(atKill).toBeLessThan(READERS);

      const second = spawnServer(env);
      try {
        await second.ready;
        // The rest is sent at once; the rows of the dead process's round fall due again when their
        // lease ends (one message's longest send and a margin: 60 s), and are then found in doubt.
        await new Promise((r) => setTimeout(r, SMTP_SEND_DEADLINE_MS + 10_000 + 5_000));
      } finally {
        second.child.kill('SIGTERM');
        await exited(second.child);
      }
      // Nobody twice.
      expect(new Set(relay.received).size).toBe(relay.received.length);
      const database = await openDatabase({ dataDir });
      try {
        const rows = rowsOf<{ to_address: string; status: string; last_error: string | null }>(
          await database.db.execute(
            sql`select to_address, status, last_error from outbox where mailing_id = ${issueId}::uuid order by id`,
          ),
        );
        expect(rows).toHaveLength(READERS);
        const inDoubt = rows.filter((r) => r.last_error === 'EINDOUBT');
        expect(inDoubt.length).toBeGreaterThan(0);
        expect(inDoubt.length).toBeLessThanOrEqual(SMTP_CONNECTIONS);
        expect(inDoubt.every((r) => r.status === 'failed')).toBe(true);
        const sent = rows.filter((r) => r.status === 'sent');
        expect(sent).toHaveLength(READERS - inDoubt.length);
        // Everyone recorded as sent received it; the only readers who may lack it are those whose
        // e-mail was with the relay at the kill and had not fully reached it.
        for (const row of sent) expect(relay.received).toContain(row.to_address);
        const missing = readers.filter((r) => !relay.received.includes(r));
        for (const reader of missing) expect(inDoubt.map((r) => r.to_address)).toContain(reader);
      } finally {
        await database.close();
      }
    } finally {
      if (first && first.child.exitCode === null && first.child.signalCode === null)
        first.child.kill('SIGKILL');
      await relay.close();
    }
  }, 240_000);
});
