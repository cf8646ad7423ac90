/**
 * A server process killed with SIGKILL in the middle of sending queued e-mails: at most the
 * e-mails in flight at that moment (one per pooled SMTP connection, received by the relay but
 * not yet answered) are sent twice; every e-mail the relay had already accepted is recorded
 * and never repeated. Real processes (src/server/root/main.ts), Postgres, a real SMTP peer, and a
 * lease shortened to 20 s (OUTBOX_LEASE_SECONDS), which the restarted server waits out.
 */
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/kit/db/client';
import { enqueueEmails } from '../../src/server/kit/mail/outbox';
import { SMTP_CONNECTIONS } from '../../src/server/kit/mail/transport';
import { databaseFor } from './databases';
import { OWNER } from './forms-support';
import { exited, spawnServer, type SpawnedServer } from './server-process';

const RELAY_DELAY_MS = 1500;

/**
 * A relay that answers each message after a delay and notes, per Message-ID, when the whole
 * message arrived and when it was answered. Like a real relay, a message received in full is
 * kept even if the sender dies before the answer.
 */
async function startRelay(onReceived: (count: number) => void) {
  const received: string[] = [];
  const arrived = new Map<string, number>();
  const answered = new Map<string, number>();
  let count = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('error', () => {});
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const message = Buffer.concat(chunks).toString('utf8');
        // Only the test's own e-mails are counted: on a Monday the server queues the owner's
        // weekly report too, which is accepted and left out.
        if (!/^subject:\s*Lead \d+/im.test(message)) {
          callback();
          return;
        }
        const id = /^message-id:\s*(\S+)/im.exec(message)?.[1] ?? '?';
        if (!arrived.has(id)) arrived.set(id, Date.now());
        count += 1;
        onReceived(count);
        setTimeout(() => {
          received.push(id);
          answered.set(id, Date.now());
          callback();
        }, RELAY_DELAY_MS);
      });
    },
  });
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    /** Messages that arrived in full and are not answered yet. */
    inFlight: () => [...arrived.keys()].filter((id) => !answered.has(id)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('a server killed while sending', () => {
  it('sends again at most the e-mails in flight, never one the relay had accepted', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'outbox-crash-'));
    const total = 12;
    {
      const database = await openDatabase({ dataDir, databaseUrl: await databaseFor(dataDir) });
      await enqueueEmails(
        database.db,
        null,
        Array.from({ length: total }, (_, i) => ({
          kind: 'contact.owner',
          to: OWNER,
          subject: `Lead ${i}`,
          content: {
            preheader: 'Lead',
            heading: 'Lead',
            blocks: [{ type: 'paragraph' as const, text: `${i}` }],
          },
        })),
      );
      await database.close();
    }

    let first: SpawnedServer | undefined;
    let killedAt = 0;
    let inFlightAtKill: string[] = [];
    const relay = await startRelay((count) => {
      // The sixth message has arrived in full: the first round's were answered long ago,
      // this round's are in flight. Kill now, before the relay answers anything else.
      if (count === SMTP_CONNECTIONS + 2 && first) {
        first.child.kill('SIGKILL');
        killedAt = Date.now();
      }
    });
    const env = { DATA_DIR: dataDir, SMTP_URL: relay.url, OWNER_EMAIL: OWNER, OUTBOX_LEASE_SECONDS: '20' };
    try {
      first = await spawnServer(env);
      await exited(first.child);
      // What the dead process had handed over: the relay may still be reading bytes it wrote
      // just before the kill. Everything not yet answered was in flight.
      await new Promise((r) => setTimeout(r, 200));
      inFlightAtKill = relay.inFlight();
      expect(killedAt).toBeGreaterThan(0);
      expect(inFlightAtKill.length).toBeGreaterThan(0);
      expect(inFlightAtKill.length).toBeLessThanOrEqual(SMTP_CONNECTIONS);

      const second = await spawnServer(env);
      try {
        await second.ready;
        // The rows in flight fall due when their lease ends (one message's worst case and a margin).
        const end = Date.now() + 150_000;
        while (
          new Set(relay.received).size < total ||
          relay.received.length < total + inFlightAtKill.length
        ) {
          if (Date.now() > end) break;
          await new Promise((r) => setTimeout(r, 200));
        }
        await new Promise((r) => setTimeout(r, 1000));
      } finally {
        second.child.kill('SIGTERM');
        await exited(second.child);
      }
      expect(new Set(relay.received).size).toBe(total);
      const seen = new Map<string, number>();
      for (const id of relay.received) seen.set(id, (seen.get(id) ?? 0) + 1);
      const twice = [...seen].filter(([, n]) => n > 1).map(([id]) => id);
      expect([...seen.values()].every((n) => n <= 2)).toBe(true);
      expect(twice.length).toBeLessThanOrEqual(SMTP_CONNECTIONS);
      // Only what was in flight at the kill was sent again.
      for (const id of twice) expect(inFlightAtKill, id).toContain(id);
      const database = await openDatabase({ dataDir, databaseUrl: await databaseFor(dataDir) });
      try {
        const rows = (
          (await database.db.execute(
            sql`select status from outbox where kind = 'contact.owner'`,
          )) as unknown as {
            rows: { status: string }[];
          }
        ).rows;
        expect(rows.map((r) => r.status)).toEqual(Array(total).fill('sent'));
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
