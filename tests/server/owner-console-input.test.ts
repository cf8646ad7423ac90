/**
 * What the sign-in, security, deliveries, audit, subscribers and suppression routes of the console
 * refuse, on PostgreSQL: a malformed sign-in with the address's sentence, a malformed
 * link or passkey answer with its own sentence and no field named, a malformed sign-in counted
 * against the client's limit all the same, a filter or an id that cannot be, and a page cursor the
 * database cannot read (a 400, never a 500); and the subscribers' and suppressions' pages follow
 * one another by their cursors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LINK_INVALID, PASSKEY_REFUSED } from '../../src/contract/security';
import { type FormsTestApp, makeFormsApp, nextAddress, testDrivers } from './forms-support';
import { apiCall, asOwner, type OwnerCall, signInOwner } from './owner-session';

const ADDRESS_REFUSED = 'Please enter a valid email address.';
const base64url = (text: string) => Buffer.from(text).toString('base64url');

const drivers = await testDrivers('console_input');

describe.each(drivers)('the console refuses what it cannot read, on $name', (driver) => {
  let t: FormsTestApp;
  let drop: () => Promise<void>;
  let owner: OwnerCall;

  beforeAll(async () => {
    const db = await driver.env();
    drop = db.drop;
    t = await makeFormsApp(db.env);
    owner = asOwner(t.app, await signInOwner(t.app));
  });
  afterAll(async () => {
    await t?.app.close();
    await drop?.();
  });

  it('answers a malformed sign-in, link or passkey answer with its sentence', async () => {
    for (const body of [
      {},
      { email: 'not an address' },
      { email: 5 },
      { email: `${'a'.repeat(250)}@b.co` },
    ]) {
      const res = await apiCall(t.app, 'POST', '/api/owner/sign-in', { body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toEqual({ error: ADDRESS_REFUSED, fieldErrors: { email: ADDRESS_REFUSED } });
    }
    for (const body of [{}, { token: 5 }, { token: 'not-a-token' }]) {
      const res = await apiCall(t.app, 'POST', '/api/owner/sign-in/link', { body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toEqual({ error: LINK_INVALID });
    }
    for (const body of [
      {},
      { challengeId: 'x' },
      { challengeId: 'x', response: 'text' },
      { challengeId: 5, response: { id: 'a' } },
      { challengeId: 'x'.repeat(65), response: { id: 'a' } },
      // Well formed, but no such challenge.
      { challengeId: 'no-such-challenge', response: { id: 'a', type: 'public-key' } },
    ]) {
      const res = await apiCall(t.app, 'POST', '/api/owner/passkeys/authenticate', { body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toEqual({ error: PASSKEY_REFUSED });
      const added = await owner('POST', '/api/owner/passkeys/register', { body });
      expect(added.statusCode, JSON.stringify(body)).toBe(400);
      expect(added.json()).toEqual({ error: PASSKEY_REFUSED });
    }
  });

  it('counts a malformed sign-in request against the client, as any other', async () => {
    const remoteAddress = nextAddress();
    const codes: number[] = [];
    for (const email of ['a', 'b', 'c', 'd', 'e', 'nobody@example.org']) {
      codes.push(
        (await apiCall(t.app, 'POST', '/api/owner/sign-in', { body: { email }, remoteAddress })).statusCode,
      );
    }
    expect(codes).toEqual([400, 400, 400, 400, 400, 429]);
  });

  it('refuses a filter, an id or a cursor that cannot be, with the sentence the console shows', async () => {
    const uuid = '00000000-0000-4000-8000-000000000000';
    const answers: [url: string, status: number, error?: string][] = [
      ['/api/owner/deliveries?status=nope', 400, 'The status filter is not valid.'],
      ['/api/owner/deliveries?status=sent&status=failed', 400, 'The status filter is not valid.'],
      ['/api/owner/deliveries?status=', 200],
      ['/api/owner/deliveries?status=suppressed', 200],
      ['/api/owner/subscribers?status=nope', 400, 'The status filter is not valid.'],
      ['/api/owner/subscribers?status=', 200],
      ['/api/owner/subscribers?after=garbage', 400, 'The page is not valid.'],
      // A day February 2025 does not have, and a key that is not the list's.
      [
        `/api/owner/subscribers?after=${base64url(`2025-02-29 10:00:00+00|${uuid}`)}`,
        400,
        'The page is not valid.',
      ],
      [
        `/api/owner/subscribers?after=${base64url('2025-02-28 10:00:00+00|not-a-uuid')}`,
        400,
        'The page is not valid.',
      ],
      [`/api/owner/subscribers?after=${base64url(`2025-02-28 10:00:00+00|${uuid}`)}`, 200],
      ['/api/owner/suppressions?after=garbage', 400, 'The page is not valid.'],
      [
        `/api/owner/suppressions?after=${base64url('0000-01-01 00:00:00+00|abc')}`,
        400,
        'The page is not valid.',
      ],
      ['/api/owner/audit?after=garbage', 400, 'The page is not valid.'],
    ];
    for (const [url, status, error] of answers) {
      const res = await owner('GET', url);
      expect(res.statusCode, url).toBe(status);
      if (error) expect(res.json(), url).toEqual({ error });
    }
    for (const id of ['abc', '0', '-1', '1.5', '99999999999999999999']) {
      const res = await owner('POST', `/api/owner/deliveries/${id}/retry`);
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toEqual({ error: 'There is no such e-mail.' });
    }
    for (const id of ['a.b', 'no-such-passkey']) {
      const res = await owner('POST', `/api/owner/passkeys/${id}/delete`);
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toEqual({ error: 'There is no such passkey.' });
    }
  });

  it('refuses an address holding a NUL or a bidirectional control on People and the audit log', async () => {
    for (const address of ['a\u0000@b.co', 'ada\u202E@example.org', 'ada@exa\u0085mple.org']) {
      const q = encodeURIComponent(address);
      for (const url of [`/api/owner/people?email=${q}`, `/api/owner/people/export.json?email=${q}`]) {
        const res = await owner('GET', url);
        expect(res.statusCode, url).toBe(400);
        expect(res.json().error, url).toBe(ADDRESS_REFUSED);
      }
      const erased = await owner('POST', '/api/owner/people/erase', { body: { email: address } });
      expect(erased.statusCode, address).toBe(400);
      const audit = await owner('GET', `/api/owner/audit?person=${q}`);
      expect(audit.statusCode, address).toBe(400);
    }
  });

  it('pages the subscribers and the suppression list by their cursors', async () => {
    const tag = `pg${Date.now().toString(36)}`;
    await t.query(`insert into newsletter_subscribers (id, email, first_name, last_name, status, created_at)
      select gen_random_uuid(), '${tag}' || n || '@example.org', 'Reader', '${tag}', 'pending',
             now() - make_interval(mins => n % 7)
      from generate_series(1, 120) as n`);
    await t.query(`insert into suppressions (hash, reason, created_at)
      select '${tag}' || n, 'test', now() - make_interval(mins => n % 7) from generate_series(1, 120) as n`);
    for (const [list, key] of [
      ['/api/owner/subscribers?status=pending', 'email'],
      ['/api/owner/suppressions', 'hash'],
    ] as const) {
      const seen: string[] = [];
      let next: string | null = null;
      do {
        const res = await owner('GET', `${list}${list.includes('?') ? '&' : '?'}after=${next ?? ''}`);
        expect(res.statusCode, list).toBe(200);
        const page = res.json() as { items: Record<string, string>[]; next: string | null };
        seen.push(...page.items.map((item) => item[key]!).filter((value) => value.startsWith(tag)));
        next = page.next;
      } while (next);
      expect(seen, list).toHaveLength(120);
      expect(new Set(seen).size, list).toBe(120);
    }
  });
});
