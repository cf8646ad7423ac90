/**
 * Crash safety: a server process killed with SIGKILL in the middle of a burst of submissions
 * loses none that it answered 200. After a restart every acknowledged submission is stored
 * and its e-mail is sent. Real processes (src/server/root/main.ts), real Postgres, real SMTP, and
 * a lease shortened to 20 s (OUTBOX_LEASE_SECONDS), which the restarted server waits out.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/kit/db/client';
import {
  bodies,
  createTestDatabase,
  postgresUnavailableReason,
  startSmtpPeer,
  until as eventually,
} from './forms-support';
import { exited, startServer } from './server-process';

const pgUnavailable = await postgresUnavailableReason();
if (pgUnavailable) console.warn(`Skipping the Postgres crash test: ${pgUnavailable}`);

/** The load below comes from one client, at once: no rate limit, no minimum fill time. */
const LOAD_ENV = { BENCH_DISABLE_RATE_LIMIT: 'true', MIN_FILL_TIME_MS: '0', OUTBOX_LEASE_SECONDS: '20' };

async function crashTest(dbEnv: Record<string, string>, openDb: () => ReturnType<typeof openDatabase>) {
  const smtp = await startSmtpPeer();
  const env = { ...dbEnv, SMTP_URL: smtp.url, ...LOAD_ENV };
  const first = await startServer(env);
  const acknowledged: string[] = [];
  let stop = false;
  const worker = async (w: number) => {
    for (let i = 0; !stop; i += 1) {
      try {
        const res = await fetch(`${first.url}/api/send-contact-email`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(bodies.contact({ email: `crash${w}x${i}@example.org` })),
        });
        if (res.status === 200) acknowledged.push(((await res.json()) as { id: string }).id);
      } catch {
        // The process died under this request: it was never acknowledged.
        return;
      }
    }
  };
  const loops = Array.from({ length: 8 }, (_, w) => worker(w));
  while (acknowledged.length < 150) await new Promise((r) => setTimeout(r, 5));
  first.child.kill('SIGKILL');
  stop = true;
  await Promise.all(loops);
  await exited(first.child);
  const acked = [...acknowledged];
  expect(acked.length).toBeGreaterThanOrEqual(150);

  const second = await startServer(env);
  const db = await openDb();
  try {
    // Every acknowledged submission's owner e-mail arrives (the footer names the submission);
    // rows the dead process had claimed fall due again when their lease ends.
    const until = Date.now() + 120_000;
    for (;;) {
      const mailed = new Set(smtp.mails.map((m) => /Submission ([0-9a-f-]{36})/.exec(m.text)?.[1]));
      const missing = acked.filter((id) => !mailed.has(id));
      if (missing.length === 0) break;
      if (Date.now() > until) throw new Error(`${missing.length} acknowledged submissions were never mailed`);
      await new Promise((r) => setTimeout(r, 100));
    }
    // Each is recorded as sent, with one exception: an e-mail the killed process handed to the
    // relay just before it died, but never recorded. Its row stays claimed under that process's
    // lease and is sent again when the lease ends (at least once, never lost); its e-mail has
    // arrived, as checked above. Read while the restarted server runs: a row whose lease has just
    // ended waits for its next poll, and one it has claimed again would go back at its shutdown.
    const read = async () => {
      const rows = (
        (await db.db.execute(
          sql`select s.id::text as id, o.status, o.next_attempt_at > now() as leased
              from submissions s join outbox o on o.submission_id = s.id`,
        )) as unknown as {
          rows: { id: string; status: string; leased: boolean }[];
        }
      ).rows;
      return new Map(rows.map((r) => [r.id, r]));
    };
    const settled = (row: { status: string; leased: boolean } | undefined) =>
      row !== undefined && (row.status === 'sent' || (row.status === 'pending' && row.leased));
    let stored = await read();
    await eventually(async () => {
      stored = await read();
      return acked.every((id) => settled(stored.get(id)));
    }).catch(() => {});
    for (const id of acked) {
      const row = stored.get(id);
      expect(row, id).toBeDefined();
      if (row!.status !== 'sent') expect({ id, ...row }).toMatchObject({ status: 'pending', leased: true });
    }
  } finally {
    second.child.kill('SIGTERM');
    await exited(second.child);
    await smtp.close();
    await db.close();
  }
}

describe('a server killed mid-burst', () => {
  it.skipIf(Boolean(pgUnavailable))(
    'on Postgres loses no acknowledged submission',
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'forms-crash-pg-'));
      const database = await createTestDatabase('crash');
      try {
        await crashTest({ DATA_DIR: dataDir, DATABASE_URL: database.url }, () =>
          openDatabase({ dataDir, databaseUrl: database.url }),
        );
      } finally {
        await database.drop();
      }
    },
    600_000,
  );
});

describe.skipIf(Boolean(pgUnavailable))('two server processes on one Postgres', () => {
  it('send each outbox e-mail exactly once', async () => {
    const smtp = await startSmtpPeer();
    const database = await createTestDatabase('twoprocs');
    const env = { DATABASE_URL: database.url, SMTP_URL: smtp.url, ...LOAD_ENV };
    // Started together: one applies the migrations while the other waits on the lock.
    const servers = await Promise.all([
      startServer({ ...env, DATA_DIR: mkdtempSync(join(tmpdir(), 'forms-two-a-')) }),
      startServer({ ...env, DATA_DIR: mkdtempSync(join(tmpdir(), 'forms-two-b-')) }),
    ]);
    try {
      const posts = Array.from({ length: 40 }, (_, i) =>
        fetch(`${servers[i % 2]!.url}/api/send-contact-email`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(bodies.guide({ email: `twoprocs${i}@example.org` })),
        }),
      );
      const statuses = (await Promise.all(posts)).map((r) => r.status);
      expect(statuses.every((s) => s === 200)).toBe(true);
      // Each guide request queues two e-mails.
      await smtp.waitFor(80, 60_000);
      await new Promise((r) => setTimeout(r, 1500));
      const ids = smtp.mails.map((m) => m.header('message-id'));
      expect(ids).toHaveLength(80);
      expect(new Set(ids).size).toBe(80);
    } finally {
      for (const s of servers) s.child.kill('SIGTERM');
      await Promise.all(servers.map((s) => exited(s.child)));
      await smtp.close();
      await database.drop();
    }
  }, 420_000);
});
