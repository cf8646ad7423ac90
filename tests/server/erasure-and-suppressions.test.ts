/**
 * The console's own addresses, erasure's reach and the suppression list (decision 030), over
 * a PostgreSQL database of its own:
 * - an owner's address (OWNER_EMAIL, any OWNER_EMAILS address, in any case) cannot be erased: 409
 *   with a sentence, nothing deleted, nothing suppressed; the People answer says why;
 * - an address once on the list before that refusal existed is written to all the same;
 * - erasing an address that was the owner's before OWNER_EMAIL changed removes that person's rows
 *   only: the notifications it received about other people's submissions (rows and .eml files) stay;
 * - the owner lifts a suppression (audited); a hash not on the list is 404, a malformed one 400;
 * - retention never moves a console address that unsubscribed from the newsletter onto the list.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SuppressionPage } from '../../src/contract/console';
import type { PersonView } from '../../src/contract/people';
import { peopleCopy } from '../../src/content/console';
import { suppressionHash } from '../../src/server/kit/mail/outbox';
import { emlFileName } from '../../src/server/kit/mail/transport';
import { apiCall, asOwner, type OwnerCall, signInOwner } from './owner-session';
import { bodies, type FormsTestApp, makeFormsApp, OWNER, SECRET, testDrivers, until } from './forms-support';

const drivers = await testDrivers('erasure');
const PARTNER = 'Partner.Owner@Sterling.test';

describe.each(drivers)('owners’ addresses, erasure and the suppression list on $name', (driver) => {
  let t: FormsTestApp;
  let drop: () => Promise<void>;
  let env: Record<string, string>;
  let owner: OwnerCall;
  let dataDir: string;

  beforeAll(async () => {
    const db = await driver.env();
    drop = db.drop;
    env = { ...db.env, OWNER_EMAILS: PARTNER };
    dataDir = mkdtempSync(join(tmpdir(), 'erasure-test-'));
    // No SMTP_URL: e-mails are .eml files in DATA_DIR/mail.
    t = await makeFormsApp(env, { dataDir });
    owner = asOwner(t.app, await signInOwner(t.app));
  });
  afterAll(async () => {
    await t?.app.close();
    await drop?.();
  });

  const count = async (where: string) =>
    (await t.query<{ n: number }>(`select count(*)::int as n from ${where}`))[0]!.n;

  it('refuses to erase an owner’s address, in any case, and says why; nothing is deleted or suppressed', async () => {
    expect((await t.post(bodies.contact({ email: 'someone.else@example.org' }))).statusCode).toBe(200);
    await t.app.services.outbox.drain();
    const outboxBefore = await count('outbox');
    const submissionsBefore = await count('submissions');
    expect(outboxBefore).toBeGreaterThan(0);

    for (const address of [OWNER, OWNER.toUpperCase(), PARTNER, PARTNER.toLowerCase(), ` ${PARTNER} `]) {
      const res = await owner('POST', '/api/owner/people/erase', { body: { email: address } });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ error: peopleCopy.consoleAddress });
    }
    expect(await count('outbox')).toBe(outboxBefore);
    expect(await count('submissions')).toBe(submissionsBefore);
    expect(await count('suppressions')).toBe(0);
    const audit = await t.query<{ action: string }>(
      `select action from audit_log where action = 'person.erase'`,
    );
    expect(audit).toEqual([]);

    const view = (
      await owner('GET', `/api/owner/people?email=${encodeURIComponent(PARTNER)}`)
    ).json() as PersonView;
    expect(view.cannotErase).toBe(peopleCopy.consoleAddress);
    const visitor = (
      await owner('GET', `/api/owner/people?email=someone.else%40example.org`)
    ).json() as PersonView;
    expect(visitor.cannotErase).toBeUndefined();
  });

  it('writes to an owner’s address that is on the list (put there before the refusal existed), and flags its hash', async () => {
    const hash = suppressionHash(SECRET, OWNER);
    await t.query(`insert into suppressions (hash, reason) values ('${hash}', 'erased')`);
    expect((await t.post(bodies.guide({ email: `visitor.${Date.now()}@example.org` }))).statusCode).toBe(200);
    await t.app.services.outbox.drain();
    const [notice] = await t.query<{ status: string }>(
      `select status from outbox where kind = 'guide.owner' order by id desc limit 1`,
    );
    expect(notice!.status).toBe('sent');

    const page = (await owner('GET', '/api/owner/suppressions')).json() as SuppressionPage;
    expect(page.items.find((i) => i.hash === hash)).toMatchObject({ console: true, reason: 'erased' });

    // Tidied up by the owner: lifted, audited.
    const lifted = await owner('POST', '/api/owner/suppressions/lift', { body: { hash } });
    expect(lifted.statusCode).toBe(200);
    expect(lifted.json()).toEqual({ ok: true, reason: 'erased' });
    expect(await count(`suppressions where hash = '${hash}'`)).toBe(0);
  });

  it('retention moves unsubscribed readers onto the list, but never an owner who tried the newsletter', async () => {
    const reader = `reader.${Date.now()}@example.org`;
    for (const email of [PARTNER, reader]) {
      expect((await t.post(bodies.newsletter({ email }))).statusCode).toBe(200);
    }
    await t.query(
      `update newsletter_subscribers set status = 'unsubscribed' where email in ('${PARTNER.toLowerCase()}', '${reader}')`,
    );
    const started = await owner('POST', '/api/owner/retention/run');
    expect(started.statusCode).toBe(202);
    await until(
      async () =>
        ((await owner('GET', '/api/owner/retention')).json() as { running: number | null }).running === null,
    );
    const onList = async (address: string) =>
      count(`suppressions where hash = '${suppressionHash(SECRET, address)}'`);
    expect(await onList(reader)).toBe(1);
    expect(await onList(PARTNER)).toBe(0);
    expect(await count(`newsletter_subscribers where email = '${PARTNER.toLowerCase()}'`)).toBe(0);
  });

  it('erasing an address that was once the owner’s leaves the notifications about other people', async () => {
    const former = `Former.Owner.${Date.now()}@example.org`;
    const now = `new.owner.${Date.now()}@sterling.test`;
    // The site ran with `former` as OWNER_EMAIL: three visitors wrote in, and `former` asked for the guide.
    await t.app.close();
    t = await makeFormsApp({ ...env, OWNER_EMAIL: former, OWNER_EMAILS: '' }, { dataDir });
    const others = [1, 2, 3].map((i) => `other.${i}.${Date.now()}@example.org`);
    for (const email of others) expect((await t.post(bodies.contact({ email }))).statusCode).toBe(200);
    expect((await t.post(bodies.guide({ email: former }))).statusCode).toBe(200);
    await t.app.services.outbox.drain();
    const aboutOthers = await t.query<{ id: number; kind: string }>(
      `select o.id, o.kind from outbox o join submissions s on s.id = o.submission_id
       where lower(o.to_address) = '${former.toLowerCase()}' and s.email_key <> '${former.toLowerCase()}'`,
    );
    expect(aboutOthers).toHaveLength(3);
    const mailDir = join(dataDir, 'mail');
    const files = aboutOthers.map((m) => emlFileName(Number(m.id), m.kind));
    for (const file of files) expect(existsSync(join(mailDir, file))).toBe(true);

    // OWNER_EMAIL moved on; the former address is a visitor's now, and is erased.
    await t.app.close();
    t = await makeFormsApp({ ...env, OWNER_EMAIL: now, OWNER_EMAILS: '' }, { dataDir });
    owner = asOwner(t.app, await signInOwner(t.app, now));
    const erased = await owner('POST', '/api/owner/people/erase', { body: { email: former } });
    expect(erased.statusCode).toBe(200);
    const counts = (erased.json() as { counts: Record<string, number> }).counts;
    // Their own guide request: the submission, its consent, its two e-mails (theirs and the owner's).
    expect(counts).toMatchObject({ submissions: 1, consents: 1, emails: 2 });

    const left = await t.query<{ id: number }>(
      `select id from outbox where id in (${aboutOthers.map((m) => m.id).join(', ')})`,
    );
    expect(left).toHaveLength(3);
    for (const file of files) expect(existsSync(join(mailDir, file))).toBe(true);
    expect(await count(`submissions where email_key = '${former.toLowerCase()}'`)).toBe(0);
    for (const email of others) expect(await count(`submissions where email_key = '${email}'`)).toBe(1);
    // Nothing else of theirs is left in the .eml files but the notifications about others.
    const mentioning = readdirSync(mailDir).filter((f) =>
      readFileSync(join(mailDir, f), 'utf8').toLowerCase().includes(former.toLowerCase()),
    );
    expect(mentioning.sort()).toEqual(files.sort());
  });

  it('lifts a suppression only when asked for one on the list, and records who did it', async () => {
    const hash = suppressionHash(SECRET, `lift.${Date.now()}@example.org`);
    await t.query(`insert into suppressions (hash, reason) values ('${hash}', 'unsubscribed')`);
    const lift = (h: unknown) => owner('POST', '/api/owner/suppressions/lift', { body: { hash: h } });

    for (const bad of ['', 'not-a-hash', `${hash}x`, 42, null, { hash }]) {
      const res = await lift(bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect((res.json() as { error: string }).error).toMatch(/hash/);
    }
    const first = await lift(hash);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ ok: true, reason: 'unsubscribed' });
    const again = await lift(hash);
    expect(again.statusCode).toBe(404);
    expect((again.json() as { error: string }).error).toMatch(/not on the suppression list/);

    const audit = await t.query<{ actor: string; target: string; detail: unknown }>(
      `select actor, target, detail from audit_log where action = 'suppression.lift' order by id`,
    );
    expect(audit.at(-1)).toMatchObject({ target: hash.slice(0, 16) });
    expect(String(audit.at(-1)!.actor).toLowerCase()).toContain('@sterling.test');
    const detail = audit.at(-1)!.detail;
    expect(typeof detail === 'string' ? JSON.parse(detail) : detail).toEqual({ reason: 'unsubscribed' });

    // Without a session, nothing.
    const stranger = await apiCall(t.app, 'POST', '/api/owner/suppressions/lift', { body: { hash } });
    expect(stranger.statusCode).toBe(401);
  });
});
