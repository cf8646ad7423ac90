/**
 * A server process killed with SIGKILL in the middle of sending a newsletter issue (decision 046):
 * the restarted server sends the rest, and nobody receives the issue twice. The e-mails that were
 * with the relay at the kill, unanswered, may have arrived: they are marked in doubt and not sent
 * again (a reader whose e-mail had not fully reached the relay then misses the issue: at most once).
 * Real processes (src/server/root/main.ts), Postgres, a slow real SMTP peer, and a lease shortened
 * to 20 s (OUTBOX_LEASE_SECONDS); the issue is started by the server's own chore, as a scheduled
 * issue whose time has come.
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
import { SMTP_CONNECTIONS } from '../../src/server/kit/mail/transport';
import { databaseFor } from './databases';
import { OWNER, until } from './forms-support';
import { exited, spawnServer, type SpawnedServer } from './server-process';

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
      const database = await openDatabase({ dataDir, databaseUrl: await databaseFor(dataDir) });
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

    let first: SpawnedServer | undefined;
    let killed = false;
    const relay = await startRelay((count) => {
      // The first round was answered long ago; the second is with the relay: kill now.
      if (count === SMTP_CONNECTIONS + 2 && first) {
        first.child.kill('SIGKILL');
        killed = true;
      }
    });
    const env = {
      DATA_DIR: dataDir,
      SMTP_URL: relay.url,
      OWNER_EMAIL: OWNER,
      NEWSLETTER_SEND_RATE: '0',
      OUTBOX_LEASE_SECONDS: '20',
    };
    try {
      first = await spawnServer(env);
      await exited(first.child);
      expect(killed).toBe(true);
      await new Promise((r) => setTimeout(r, 200));
      const atKill = relay.received.length;
      expect(atKill).toBeLessThan(READERS);

      const second = await spawnServer(env);
      try {
        await second.ready;
        // The rest is sent at once; the rows of the dead process's round fall due again when their
        // lease ends (one message's longest send and a margin), and are then found in doubt.
        const pending = await openDatabase({ dataDir, databaseUrl: await databaseFor(dataDir) });
        try {
          await until(async () => {
            const left = rowsOf<{ n: number }>(
              await pending.db.execute(
                sql`select count(*)::int as n from outbox where mailing_id = ${issueId}::uuid and status in ('pending', 'held')`,
              ),
            );
            return left[0]?.n === 0;
          }, 90_000);
        } finally {
          await pending.close();
        }
      } finally {
        second.child.kill('SIGTERM');
        await exited(second.child);
      }
      // Nobody twice.
      expect(new Set(relay.received).size).toBe(relay.received.length);
      const database = await openDatabase({ dataDir, databaseUrl: await databaseFor(dataDir) });
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
  }, 480_000);
});
