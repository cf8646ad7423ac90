/**
 * Abuse controls and bad input: the per-client, per-form rate limit (in memory and in Redis),
 * X-Forwarded-For ignored unless TRUST_PROXY says so, and property-based bodies that must all
 * get a 4xx JSON answer while nothing is stored.
 */
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryRateLimiter, rateLimitSubject } from '../../src/server/root/forms/rate-limit';
import { TEST_REDIS_URL, bodies, makeFormsApp, serviceMissing, type FormsTestApp } from './forms-support';

const TOO_MANY = { error: 'Too many attempts. Please wait before trying again.' };

/** Why the local Redis does not answer, or undefined when it does (see serviceMissing). */
async function redisUnavailableReason(): Promise<string | undefined> {
  const r = new Redis(TEST_REDIS_URL, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  try {
    await r.connect();
    await r.ping();
    return undefined;
  } catch (error) {
    return serviceMissing(`Redis at TEST_REDIS_URL does not answer (${(error as Error).message})`);
  } finally {
    r.disconnect();
  }
}
const redisUnavailable = await redisUnavailableReason();
if (redisUnavailable) console.warn(`Skipping the Redis rate limit test: ${redisUnavailable}`);

describe('the rate limit', () => {
  let t: FormsTestApp;
  beforeAll(async () => {
    t = await makeFormsApp();
  });
  afterAll(async () => {
    await t.app.close();
  });

  it('answers the 4th contact message from one client within 5 minutes with 429', async () => {
    const ip = '203.0.113.7';
    for (let i = 0; i < 3; i += 1)
      expect((await t.post(bodies.contact({ email: `a${i}@example.org` }), {}, ip)).statusCode).toBe(200);
    const fourth = await t.post(bodies.contact(), {}, ip);
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json()).toEqual(TOO_MANY);
    expect(Number(fourth.headers['retry-after'])).toBeGreaterThan(200);
    // Per form type and per client: the same client may still ask for the guide, another may write.
    expect((await t.post(bodies.guide(), {}, ip)).statusCode).toBe(200);
    expect((await t.post(bodies.contact(), {}, '203.0.113.8')).statusCode).toBe(200);
  });

  it('ignores X-Forwarded-For by default, so a client cannot pick a fresh address', async () => {
    const ip = '203.0.113.9';
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      statuses.push(
        (await t.post(bodies.contact(), { 'x-forwarded-for': `192.0.2.${i + 1}` }, ip)).statusCode,
      );
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('counts by X-Forwarded-For behind a trusted proxy', async () => {
    const proxied = await makeFormsApp({ TRUST_PROXY: '127.0.0.1' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i += 1) {
        statuses.push(
          (await proxied.post(bodies.contact(), { 'x-forwarded-for': `192.0.2.${i + 1}` }, '127.0.0.1'))
            .statusCode,
        );
      }
      expect(statuses).toEqual([200, 200, 200, 200]);
    } finally {
      await proxied.app.close();
    }
  });

  it('starts a new window once the old one has passed (memory store)', async () => {
    let now = 1_000_000;
    const limiter = memoryRateLimiter(() => now);
    const hits = [];
    for (let i = 0; i < 4; i += 1) hits.push((await limiter.hit('k', 3, 300_000)).allowed);
    expect(hits).toEqual([true, true, true, false]);
    now += 300_001;
    expect((await limiter.hit('k', 3, 300_000)).allowed).toBe(true);
    await limiter.close();
  });

  it.skipIf(Boolean(redisUnavailable))('is shared by every instance through Redis', async () => {
    const env = { REDIS_URL: TEST_REDIS_URL };
    const a = await makeFormsApp(env);
    const b = await makeFormsApp(env);
    const ip = `203.0.113.${100 + (process.pid % 100)}`;
    const redis = new Redis(TEST_REDIS_URL);
    // This address's window only: other files and runs count theirs in the same store meanwhile.
    const key = `rl:contact:${a.app.services.links.hashAddress(rateLimitSubject(ip))}`;
    try {
      // A previous run's window for this address must not leak into this one.
      await redis.del(key);
      const statuses = [
        (await a.post(bodies.contact(), {}, ip)).statusCode,
        (await b.post(bodies.contact(), {}, ip)).statusCode,
        (await a.post(bodies.contact(), {}, ip)).statusCode,
        (await b.post(bodies.contact(), {}, ip)).statusCode,
      ];
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect(await redis.exists(key)).toBe(1);
      // The store holds a keyed hash, never the address.
      expect((await redis.keys('rl:contact:*')).join(' ')).not.toContain(ip);
      expect(await redis.pttl(key)).toBeGreaterThan(290_000);
      await redis.del(key);
    } finally {
      redis.disconnect();
      await a.app.close();
      await b.app.close();
    }
  });
});

describe('bad input, property-based', () => {
  let t: FormsTestApp;
  beforeAll(async () => {
    t = await makeFormsApp({ BENCH_DISABLE_RATE_LIMIT: 'true' });
  });
  afterAll(async () => {
    await t.app.close();
  });

  const formTypes = ['contact', 'bitcoin_guide', 'newsletter'] as const;
  const valid = { contact: bodies.contact, bitcoin_guide: bodies.guide, newsletter: bodies.newsletter };
  const nasty = fc.oneof(
    fc.string(),
    // Any UTF-16 code unit, lone surrogate halves included (valid JSON, refused by Postgres).
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.constantFrom('a\ud800b', '\udc00', 'ok \ud83d\ude00 emoji'),
    fc.string({ unit: 'grapheme', maxLength: 200 }),
    fc.constantFrom(
      '<script>alert(1)</script>',
      'a@b.co\r\nBcc: victim@evil.test',
      'Ada\nSubject: hi',
      '\u0000\u0007\u001b',
      'x'.repeat(6000),
      '',
      '   ',
    ),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(fc.string(), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
  );

  it('answers a broken or missing field of any form with a 4xx JSON error and stores nothing', async () => {
    const count = async () =>
      (await t.query<{ n: number }>('select count(*)::int as n from submissions'))[0]!.n;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...formTypes),
        fc.constantFrom(
          'firstName',
          'lastName',
          'email',
          'company',
          'subject',
          'message',
          'consent',
          'formType',
        ),
        nasty,
        fc.boolean(),
        async (formType, field, value, drop) => {
          const body: Record<string, unknown> = valid[formType]();
          if (drop) delete body[field];
          else body[field] = value;
          const before = await count();
          const res = await t.post(body);
          expect(res.headers['content-type']).toMatch(/^application\/json/);
          if (res.statusCode === 200) {
            // Only a change the form does not validate can be accepted (a field it ignores, or a
            // value that is still valid); what was stored then holds no control character in a
            // single-line field.
            const [row] = await t.query<{ fields: Record<string, unknown> }>(
              `select fields from submissions where id = '${(res.json() as { id: string }).id}'`,
            );
            for (const key of ['firstName', 'lastName', 'email', 'company']) {
              const stored = row?.fields[key];
              if (typeof stored === 'string')
                expect([...stored].some((c) => c.charCodeAt(0) < 0x20)).toBe(false);
            }
            return;
          }
          expect(res.statusCode).toBeGreaterThanOrEqual(400);
          expect(res.statusCode).toBeLessThan(500);
          expect(typeof (res.json() as { error: unknown }).error).toBe('string');
          expect(await count()).toBe(before);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses a missing or wrongly typed required field of every form', async () => {
    const required = {
      contact: ['firstName', 'lastName', 'email', 'company', 'subject', 'message', 'consent'],
      bitcoin_guide: ['firstName', 'email', 'company', 'consent'],
      newsletter: ['firstName', 'lastName', 'email'],
    } as const;
    for (const formType of formTypes) {
      for (const field of required[formType]) {
        for (const value of [undefined, 42, null, ['a'], { a: 1 }, '']) {
          const body: Record<string, unknown> = { ...valid[formType](), [field]: value };
          const res = await t.post(body);
          expect(res.statusCode, `${formType}.${field}=${JSON.stringify(value)}`).toBe(400);
          expect((res.json() as { fieldErrors: Record<string, string> }).fieldErrors[field]).toBeTruthy();
        }
      }
    }
  });

  it('never answers 5xx to arbitrary JSON bodies, and stores none of them', async () => {
    const before = (await t.query<{ n: number }>('select count(*)::int as n from submissions'))[0]!.n;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.json(),
          fc
            .record({ formType: fc.oneof(fc.constantFrom(...formTypes), fc.string()) }, { requiredKeys: [] })
            .map((r) => JSON.stringify(r)),
          fc
            .record({
              formType: fc.constantFrom(...formTypes),
              firstName: nasty,
              lastName: nasty,
              email: nasty,
              company: nasty,
              subject: nasty,
              message: nasty,
              consent: nasty,
            })
            .map((r) => JSON.stringify(r)),
          fc.string(),
        ),
        async (payload) => {
          const res = await t.post(payload);
          expect(res.statusCode).toBeGreaterThanOrEqual(400);
          expect(res.statusCode).toBeLessThan(500);
          expect(res.headers['content-type']).toMatch(/^application\/json/);
        },
      ),
      { numRuns: 300 },
    );
    expect((await t.query<{ n: number }>('select count(*)::int as n from submissions'))[0]!.n).toBe(before);
  });
});
