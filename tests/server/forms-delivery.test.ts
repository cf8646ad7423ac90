/**
 * Delivery through the outbox with a real SMTP peer: retries with back-off while the peer is
 * away, failure after the last attempt, two instances on one Postgres sending each e-mail once,
 * the worker finishing its send on shutdown, and the newsletter's confirm/unsubscribe links.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/kit/db/client';
import { defaultRetryDelayMs, DEFAULT_MAX_ATTEMPTS } from '../../src/server/kit/mail/outbox-steps';
import {
  bodies,
  closeDatabaseUnder,
  createTestDatabase,
  type FormsTestApp,
  logCapture,
  makeFormsApp,
  postgresUnavailableReason,
  type SmtpPeer,
  startSmtpPeer,
  until,
} from './forms-support';

const pgUnavailable = await postgresUnavailableReason();
if (pgUnavailable) console.warn(`Skipping the two-instance Postgres test: ${pgUnavailable}`);

describe('the retry schedule', () => {
  it('retries first within a minute and last about 24 hours after the first failure', () => {
    expect(defaultRetryDelayMs(1)).toBeLessThanOrEqual(60_000);
    let total = 0;
    for (let attempt = 1; attempt < DEFAULT_MAX_ATTEMPTS; attempt += 1) {
      expect(defaultRetryDelayMs(attempt + 1)).toBeGreaterThan(defaultRetryDelayMs(attempt));
      total += defaultRetryDelayMs(attempt);
    }
    expect(total / 3_600_000).toBeGreaterThan(20);
    expect(total / 3_600_000).toBeLessThan(28);
  });
});

describe('delivery when the SMTP peer is away', () => {
  it('accepts and stores submissions, retries, and delivers once the peer is back', async () => {
    const probe = await startSmtpPeer();
    const port = probe.port;
    await probe.close();
    const t = await makeFormsApp(
      { SMTP_URL: `smtp://127.0.0.1:${port}` },
      { services: { outbox: { retryDelayMs: () => 150 } } },
    );
    let peer: SmtpPeer | undefined;
    try {
      const res = await t.post(bodies.contact());
      expect(res.statusCode).toBe(200);
      const { id } = res.json() as { id: string };
      expect(await t.query(`select 1 from submissions where id = '${id}'`)).toHaveLength(1);
      const failed = await until(async () => {
        const rows = await t.query<{ attempts: number; last_error: string; status: string }>(
          `select attempts, last_error, status from outbox where submission_id = '${id}'`,
        );
        return rows[0] && rows[0].attempts >= 2 && rows[0];
      });
      expect(failed.status).toBe('pending');
      expect(failed.last_error).toMatch(/^[A-Z0-9_ ]+$/);
      peer = await startSmtpPeer(port);
      const mails = await peer.waitFor(1);
      expect(mails[0]!.text).toContain(id);
      await until(
        async () =>
          (await t.query(`select 1 from outbox where submission_id = '${id}' and status = 'sent'`)).length ===
          1,
      );
    } finally {
      await t.app.close();
      await peer?.close();
    }
  });

  it('marks an e-mail failed after the last attempt and logs it by id only', async () => {
    const peer = await startSmtpPeer();
    peer.refuse(true);
    const { lines, logger } = logCapture();
    const t = await makeFormsApp(
      { SMTP_URL: peer.url },
      { logger, services: { outbox: { retryDelayMs: () => 50, maxAttempts: 3 } } },
    );
    try {
      const res = await t.post(bodies.guide());
      const { id } = res.json() as { id: string };
      const rows = await until(async () => {
        const r = await t.query<{ id: string; status: string; attempts: number; last_error: string }>(
          `select id::text as id, status, attempts, last_error from outbox where submission_id = '${id}'`,
        );
        return r.length === 2 && r.every((x) => x.status === 'failed') && r;
      });
      expect(rows.map((r) => r.attempts)).toEqual([3, 3]);
      expect(rows[0]!.last_error).toContain('451');
      // The worker logs a failure after its row is marked: wait for both lines too.
      const failures = await until(async () => {
        const found = lines.filter((l) => l.includes('failed for good'));
        return found.length === 2 && found;
      });
      // One line per row, naming it by id (the two are sent side by side, so in either order).
      expect(failures.map((l) => /"outboxId":(\d+)/.exec(l)?.[1]).sort()).toEqual(
        rows.map((r) => r.id).sort(),
      );
    } finally {
      await t.app.close();
      await peer.close();
    }
  });
});

describe('shutdown', () => {
  it('lets the worker finish the message it is sending, then closes the database', async () => {
    const peer = await startSmtpPeer();
    const t = await makeFormsApp({ SMTP_URL: peer.url });
    // Hold the peer's answer so the send is in flight when the app closes.
    peer.delay(1500);
    const res = await t.post(bodies.contact());
    const { id } = res.json() as { id: string };
    // In flight: the relay has begun to receive it (a claimed row not yet handed over goes back instead).
    await until(async () => peer.receiving() > 0, 5000);
    await t.app.close();
    // close() waited for the send in flight rather than abandoning it.
    expect(peer.mails.some((m) => m.text.includes(id))).toBe(true);
    const db = await openDatabase({ dataDir: t.dataDir, databaseUrl: t.config.databaseUrl });
    const { sql } = await import('drizzle-orm');
    const rows = (
      (await db.db.execute(
        sql.raw(`select status from outbox where submission_id = '${id}'`),
      )) as unknown as { rows: { status: string }[] }
    ).rows;
    await db.close();
    expect(rows[0]?.status).toBe('sent');
    expect(peer.mails.some((m) => m.text.includes(id))).toBe(true);
    await peer.close();
  });

  it('finishes requests in flight and refuses new connections once closing', async () => {
    const t = await makeFormsApp();
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    // Close once the server has read the request's head, before it is answered. (A connection
    // merely accepted carries no request yet: closing then ends it as idle, as it should.)
    const received = new Promise((resolve) => t.app.server.once('request', resolve));
    const inFlight = fetch(`${address}/api/send-contact-email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(bodies.guide({ email: 'inflight@example.org' })),
    });
    await received;
    const closed = t.app.close();
    const res = await inFlight;
    expect(res.status).toBe(200);
    const { id } = (await res.json()) as { id: string };
    await closed;
    await expect(fetch(`${address}/healthz`)).rejects.toThrow();
    const db = await openDatabase({ dataDir: t.dataDir, databaseUrl: t.config.databaseUrl });
    const { sql } = await import('drizzle-orm');
    const rows = (
      (await db.db.execute(sql.raw(`select 1 from submissions where id = '${id}'`))) as unknown as {
        rows: unknown[];
      }
    ).rows;
    await db.close();
    expect(rows).toHaveLength(1);
  });

  it('answers /readyz with 503 once the database is gone', async () => {
    const t = await makeFormsApp();
    await closeDatabaseUnder(t);
    const res = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(503);
    expect(typeof (res.json() as { error: string }).error).toBe('string');
    await t.app.close();
  });
});

describe.skipIf(Boolean(pgUnavailable))('two instances on one Postgres', () => {
  let peer: SmtpPeer;
  let a: FormsTestApp;
  let b: FormsTestApp;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    peer = await startSmtpPeer();
    const db = await createTestDatabase('twoinstances');
    drop = db.drop;
    const env = { DATABASE_URL: db.url, SMTP_URL: peer.url, BENCH_DISABLE_RATE_LIMIT: 'true' };
    // Both start together: one runs the migrations while the other waits on the lock.
    [a, b] = await Promise.all([
      makeFormsApp(env, { services: { outbox: { batchSize: 3 } } }),
      makeFormsApp(env, { services: { outbox: { batchSize: 3 } } }),
    ]);
  });
  afterAll(async () => {
    await a?.app.close();
    await b?.app.close();
    await peer?.close();
    await drop?.();
  });

  it('sends each outbox e-mail exactly once', async () => {
    const posts = [];
    for (let i = 0; i < 30; i += 1)
      posts.push((i % 2 ? a : b).post(bodies.guide({ email: `twin${i}@example.org` })));
    const results = await Promise.all(posts);
    expect(results.every((r) => r.statusCode === 200)).toBe(true);
    await peer.waitFor(60, 30_000);
    await until(async () => (await a.query(`select 1 from outbox where status <> 'sent'`)).length === 0);
    await new Promise((r) => setTimeout(r, 500));
    const ids = peer.mails.map((m) => m.header('message-id'));
    expect(ids).toHaveLength(60);
    expect(new Set(ids).size).toBe(60);
  });
});

describe('newsletter confirmation and unsubscribe', () => {
  let t: FormsTestApp;
  let peer: SmtpPeer;
  beforeAll(async () => {
    peer = await startSmtpPeer();
    t = await makeFormsApp({ SMTP_URL: peer.url });
  });
  afterAll(async () => {
    await t.app.close();
    await peer.close();
  });

  const status = async (email: string) =>
    (
      await t.query<{ status: string }>(`select status from newsletter_subscribers where email = '${email}'`)
    )[0]?.status;

  it('confirms with the e-mailed token and unsubscribes with one click', async () => {
    const res = await t.post(bodies.newsletter({ email: 'kate@example.org' }));
    expect(res.statusCode).toBe(200);
    const mail = (await until(async () =>
      peer.mails.find((m) => m.envelopeTo.includes('kate@example.org')),
    ))!;
    const confirmToken = /\/newsletter\/confirm\?token=(\S+)/.exec(mail.text)![1]!;
    const oneClick = /^<([^>]+)>$/.exec(mail.header('list-unsubscribe')!)![1]!;
    expect(await status('kate@example.org')).toBe('pending');

    const json = (url: string, payload: object, headers: Record<string, string> = {}) =>
      t.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json', ...headers },
        payload: JSON.stringify(payload),
      });

    const forged = await json('/api/newsletter/confirm', {
      token: confirmToken.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')),
    });
    expect(forged.statusCode).toBe(400);
    expect(await status('kate@example.org')).toBe('pending');
    expect(
      (await json('/api/newsletter/confirm', { token: confirmToken }, { origin: 'https://evil.test' }))
        .statusCode,
    ).toBe(403);

    const confirmed = await json('/api/newsletter/confirm', { token: confirmToken });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toEqual({ status: 'confirmed' });
    expect(await status('kate@example.org')).toBe('confirmed');

    // A confirm token does not unsubscribe: each token has one purpose.
    expect((await json('/api/newsletter/unsubscribe', { token: confirmToken })).statusCode).toBe(400);

    // A GET of the List-Unsubscribe URL changes nothing and lands on the page.
    const url = new URL(oneClick);
    const get = await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
    expect(get.statusCode).toBe(303);
    expect(get.headers.location).toMatch(/^\/newsletter\/unsubscribe\?token=/);
    expect(await status('kate@example.org')).toBe('confirmed');

    // RFC 8058: the mail provider POSTs List-Unsubscribe=One-Click to the header's URL.
    const post = await t.app.inject({
      method: 'POST',
      url: `${url.pathname}${url.search}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(post.statusCode).toBe(200);
    expect(await status('kate@example.org')).toBe('unsubscribed');

    // The old confirmation link does not sign her up again.
    expect((await json('/api/newsletter/confirm', { token: confirmToken })).statusCode).toBe(400);
    expect(await status('kate@example.org')).toBe('unsubscribed');
  });
});

describe('logs and stored errors never carry personal data', () => {
  it('keeps a sentinel sent through every form out of the logs and the error fields', async () => {
    const SENTINEL = 'zqxsentinel';
    const peer = await startSmtpPeer();
    peer.refuse(true);
    const { lines, logger } = logCapture();
    const t = await makeFormsApp(
      { SMTP_URL: peer.url },
      { logger, services: { outbox: { retryDelayMs: () => 40, maxAttempts: 2 } } },
    );
    try {
      const sentinelEmail = `${SENTINEL}@${SENTINEL}.example`;
      const posts = [
        bodies.contact({
          firstName: SENTINEL,
          lastName: SENTINEL,
          email: sentinelEmail,
          company: SENTINEL,
          message: `${SENTINEL} message`,
        }),
        bodies.guide({ firstName: SENTINEL, email: sentinelEmail, company: SENTINEL }),
        bodies.newsletter({ firstName: SENTINEL, lastName: SENTINEL, email: sentinelEmail }),
        // Rejected, spam-trapped and rate-limited paths log too.
        bodies.contact({ firstName: SENTINEL, email: `${SENTINEL} not an email` }),
        bodies.guide({ firstName: SENTINEL, email: sentinelEmail, website: SENTINEL }),
      ];
      for (const body of posts) await t.post(body, { 'user-agent': SENTINEL }, '203.0.113.77');
      for (let i = 0; i < 4; i += 1)
        await t.post(bodies.contact({ firstName: SENTINEL }), {}, '203.0.113.78');
      await until(async () => (await t.query(`select 1 from outbox where status = 'pending'`)).length === 0);
      const errors = await t.query<{ last_error: string }>('select last_error from outbox');
      // contact 1 + guide 2 + newsletter 2 + the three accepted contact messages of the second client.
      expect(errors.length).toBe(8);
      expect(errors.every((e) => e.last_error && !e.last_error.toLowerCase().includes(SENTINEL))).toBe(true);
      const log = lines.join('');
      expect(lines.length).toBeGreaterThan(10);
      expect(log.toLowerCase()).not.toContain(SENTINEL);
      expect(log).not.toContain('203.0.113.77');
      expect(log).toContain('submissionId');
    } finally {
      await t.app.close();
      await peer.close();
    }
  });
});
