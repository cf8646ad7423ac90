/**
 * Outages answered as outages (decision 031). A database that cannot be reached answers every
 * request that needs it 503 with Retry-After and a sentence, never 500, and the site answers again
 * once it is back; the outage is logged once, not once per request. A rate-limit store (Redis)
 * that goes away lets the forms through and is logged once when it goes and once when it comes
 * back. The services are cut by a TCP gate in front of them (a closed port, connections cut), or
 * the database is closed under the running app.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNAVAILABLE_MESSAGE } from '../../src/server/kit/http/request-checks';
import {
  bodies,
  closeDatabaseUnder,
  createTestDatabase,
  type FormsTestApp,
  logCapture,
  makeFormsApp,
  postgresUnavailableReason,
  serviceMissing,
  TEST_REDIS_URL,
  until,
} from './forms-support';
import { asOwner, type OwnerCall, signInOwner } from './owner-session';
import { tcpGate, type TcpGate } from './tcp-gate';

const count = (lines: string[], message: string) =>
  lines.filter((line) => line.includes(`"msg":"${message}"`)).length;

function expectOutage(res: { statusCode: number; headers: Record<string, unknown>; json(): unknown }) {
  expect(res.statusCode).toBe(503);
  expect(res.headers['retry-after']).toBe('5');
  expect(res.json()).toEqual({ error: UNAVAILABLE_MESSAGE });
}

const noPostgres = await postgresUnavailableReason();

describe.skipIf(noPostgres)('Postgres that cannot be reached', () => {
  let gate: TcpGate;
  let drop: () => Promise<void>;
  let t: FormsTestApp;
  let owner: OwnerCall;
  const log = logCapture();

  beforeAll(async () => {
    const db = await createTestDatabase('outage');
    drop = db.drop;
    gate = await tcpGate(db.url);
    t = await makeFormsApp({ DATABASE_URL: gate.url }, { logger: log.logger });
    owner = asOwner(t.app, await signInOwner(t.app));
  });
  afterAll(async () => {
    await gate?.open().catch(() => {});
    await t?.app.close();
    await gate?.close();
    await drop?.();
  });

  it('answers 503 with Retry-After while it is away, logs it once, and answers again once it is back', async () => {
    expect((await t.post(bodies.contact())).statusCode).toBe(200);
    expect((await owner('GET', '/api/owner/overview')).statusCode).toBe(200);

    await gate.shut();
    const started = Date.now();
    for (let i = 0; i < 5; i += 1) expectOutage(await t.post(bodies.contact()));
    expectOutage(await owner('GET', '/api/owner/overview'));
    expectOutage(await owner('GET', '/api/owner/submissions'));
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(503);
    expect(Date.now() - started, 'each refusal comes at once').toBeLessThan(10_000);
    expect(count(log.lines, 'database unavailable: answered 503')).toBe(1);
    expect(count(log.lines, 'request failed')).toBe(0);

    await gate.open();
    const back = await until(async () => {
      const res = await t.post(bodies.contact());
      return res.statusCode === 200 && res;
    }, 10_000);
    expect(back.json()).toHaveProperty('id');
    expect((await owner('GET', '/api/owner/overview')).statusCode).toBe(200);
    expect(count(log.lines, 'database reachable again')).toBe(1);
    expect(count(log.lines, 'database unavailable: answered 503')).toBe(1);
  });

  it('answers a request whose connection is cut mid-way 503, not 500', async () => {
    // Every pooled connection is cut while the port stays open: the next statements find them gone.
    const results = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        if (i === 3) await gate.shut().then(() => gate.open());
        return t.post(bodies.contact());
      }),
    );
    for (const res of results) expect([200, 503], res.body).toContain(res.statusCode);
    expect(count(log.lines, 'request failed')).toBe(0);
  });
});

describe('the database closed under the running app', () => {
  let t: FormsTestApp;
  let owner: OwnerCall;
  const log = logCapture();

  beforeAll(async () => {
    t = await makeFormsApp({}, { logger: log.logger });
    owner = asOwner(t.app, await signInOwner(t.app));
  });
  afterAll(async () => {
    await t?.app.close();
  });

  it('answers 503 with Retry-After, never 500', async () => {
    expect((await t.post(bodies.contact())).statusCode).toBe(200);
    await closeDatabaseUnder(t);
    for (let i = 0; i < 3; i += 1) expectOutage(await t.post(bodies.contact()));
    expectOutage(await owner('GET', '/api/owner/overview'));
    // (The outage log is the process's: the Postgres outage above may have taken this minute's line.)
    expect(count(log.lines, 'database unavailable: answered 503')).toBeLessThanOrEqual(1);
    expect(count(log.lines, 'request failed')).toBe(0);
  });
});

const noRedis = await (async () => {
  const { Redis } = await import('ioredis');
  const probe = new Redis(TEST_REDIS_URL, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  probe.on('error', () => {});
  try {
    await probe.connect();
    await probe.ping();
    return undefined;
  } catch (error) {
    return serviceMissing(`Redis at TEST_REDIS_URL does not answer (${(error as Error).message})`);
  } finally {
    probe.disconnect();
  }
})();

describe.skipIf(noRedis)('a rate-limit store that goes away', () => {
  let gate: TcpGate;
  let t: FormsTestApp;
  const log = logCapture();

  beforeAll(async () => {
    gate = await tcpGate(TEST_REDIS_URL);
    t = await makeFormsApp({ REDIS_URL: gate.url }, { logger: log.logger });
  });
  afterAll(async () => {
    await t?.app.close();
    await gate?.close();
  });

  it('lets the forms through, logged once when it goes and once when it comes back', async () => {
    expect((await t.post(bodies.contact())).statusCode).toBe(200);
    await gate.shut();
    for (let i = 0; i < 8; i += 1) expect((await t.post(bodies.contact())).statusCode).toBe(200);
    expect(count(log.lines, 'rate limit store unavailable')).toBe(1);
    expect(count(log.lines, 'rate limit store available again')).toBe(0);

    await gate.open();
    await until(async () => {
      expect((await t.post(bodies.contact())).statusCode).toBe(200);
      return count(log.lines, 'rate limit store available again') > 0;
    }, 15_000);
    for (let i = 0; i < 3; i += 1) expect((await t.post(bodies.contact())).statusCode).toBe(200);
    expect(count(log.lines, 'rate limit store unavailable')).toBe(1);
    expect(count(log.lines, 'rate limit store available again')).toBe(1);
  });

  it('while it is away, one client still meets its limit, counted by the instance', async () => {
    const closed = await tcpGate(TEST_REDIS_URL);
    await closed.shut();
    const own = logCapture();
    const app = await makeFormsApp({ REDIS_URL: closed.url }, { logger: own.logger });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 12; i += 1)
        statuses.push((await app.post(bodies.contact(), {}, '198.51.100.9')).statusCode);
      expect(statuses[0]).toBe(200);
      expect(statuses).toContain(429);
      expect(statuses.indexOf(429)).toBeGreaterThan(0);
      expect(count(own.lines, 'rate limit store unavailable')).toBe(1);
    } finally {
      await app.app.close();
      await closed.close();
    }
  });

  it('lets the forms through from the start when its port is closed, logged once', async () => {
    const closed = await tcpGate(TEST_REDIS_URL);
    await closed.shut();
    const own = logCapture();
    const app = await makeFormsApp({ REDIS_URL: closed.url }, { logger: own.logger });
    try {
      const started = Date.now();
      for (let i = 0; i < 5; i += 1) expect((await app.post(bodies.contact())).statusCode).toBe(200);
      expect(Date.now() - started, 'only the first waits on the store').toBeLessThan(5_000);
      expect(count(own.lines, 'rate limit store unavailable')).toBe(1);
    } finally {
      await app.app.close();
    }
  });
});
