/**
 * The forms cannot be turned against anyone: the fill time is measured by the server (a signed
 * token from the form's first focus), an Idempotency-Key is bound to its body, newsletter
 * confirmation links expire and work once, and e-mails to a typed address quote no visitor
 * text but a plain first name. On Postgres.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignedTokens } from '../../src/server/kit/http/signed-tokens';
import {
  OWNER,
  SECRET,
  bodies,
  bookableDate,
  startFormsTestbed,
  formToken,
  postgresUnavailableReason,
  readyTokens,
  type FormsTestApp,
  type ReceivedMail,
  type SmtpPeer,
} from './forms-support';

const pgUnavailable = await postgresUnavailableReason();
if (pgUnavailable) console.warn(`Skipping forms-hardening: ${pgUnavailable}`);

const REFUSED = 'This form could not be checked. Please reload the page and send it again.';
let counter = 0;
const unique = (name: string) => `${name}.${(counter += 1)}.${Date.now()}@example.org`;

describe.skipIf(Boolean(pgUnavailable))('hardened forms on Postgres', () => {
  let smtp: SmtpPeer;
  let t: FormsTestApp;
  let close: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    ({ smtp, t, close } = await startFormsTestbed('hardening'));
  });
  afterAll(async () => {
    await close?.();
  });

  const json = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json', ...headers },
      payload: JSON.stringify(payload),
    });
  const spamOf = async (id: string) =>
    (
      await t.query<{ spam: boolean; spam_reason: string | null }>(
        `select spam, spam_reason from submissions where id = '${id}'`,
      )
    )[0];

  async function mailTo(address: string): Promise<ReceivedMail> {
    const until = Date.now() + 15_000;
    for (;;) {
      const mail = smtp.mails.find((m) => m.envelopeTo.map((a) => a.toLowerCase()).includes(address));
      if (mail) return mail;
      if (Date.now() > until) throw new Error(`no e-mail to ${address}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  describe('the fill time, measured by the server', () => {
    it('refuses a submission with no token, a forged one, or one made for another form', async () => {
      const forged = await createSignedTokens('x'.repeat(40)).sign('form-start', 'contact', {
        expiresInSeconds: 1800,
        claims: { st: Date.now() - 60_000 },
      });
      const other = await formToken('newsletter', 60_000);
      for (const token of [undefined, '', 'abc', forged, other, 5000]) {
        const res = await t.post(bodies.contact({ formToken: token, email: unique('nt') }));
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ error: REFUSED });
      }
      // The old client-reported field proves nothing any more.
      const old = await t.post(bodies.contact({ formToken: undefined, elapsedMs: 5000 }));
      expect(old.statusCode).toBe(400);
      expect(await t.query(`select 1 from submissions where fields->>'email' like 'nt.%'`)).toHaveLength(0);
    });

    it('stores a form sent at once with a token fresh from the endpoint as spam, answered as a success', async () => {
      const issued = await json('/api/form-token', { formType: 'contact' });
      expect(issued.statusCode).toBe(200);
      expect(issued.headers['cache-control']).toBe('no-store');
      const { token, expiresInSeconds } = issued.json() as { token: string; expiresInSeconds: number };
      expect(expiresInSeconds).toBe(1800);
      const res = await t.post(bodies.contact({ formToken: token, email: unique('fast') }));
      expect(res.statusCode).toBe(200);
      expect(await spamOf((res.json() as { id: string }).id)).toEqual({
        spam: true,
        spam_reason: 'too-fast',
      });
    });

    it('accepts a token of a form started long enough ago', async () => {
      const res = await t.post(bodies.contact({ formToken: await formToken('contact', 4000) }));
      expect(res.statusCode).toBe(200);
      expect(await spamOf((res.json() as { id: string }).id)).toEqual({ spam: false, spam_reason: null });
    });

    it('refuses a token long past its expiry, and renews it keeping the original start', async () => {
      const tokens = createSignedTokens(SECRET);
      const startedAt = Date.now() - 3 * 3600_000;
      const expired = await tokens.sign('form-start', 'bitcoin_guide', {
        expiresInSeconds: 1800,
        claims: { st: startedAt },
        now: new Date(startedAt),
      });
      const email = unique('sat-open');
      expect((await t.post(bodies.guide({ formToken: expired, email }))).statusCode).toBe(400);

      const renewed = await json('/api/form-token', { formType: 'bitcoin_guide', renew: expired });
      expect(renewed.statusCode).toBe(200);
      const { token } = renewed.json() as { token: string };
      const verified = await tokens.verify('form-start', token);
      expect(verified).toMatchObject({ ok: true, subject: 'bitcoin_guide', claims: { st: startedAt } });
      const res = await t.post(bodies.guide({ formToken: token, email }));
      expect(res.statusCode).toBe(200);
      expect(await spamOf((res.json() as { id: string }).id)).toEqual({ spam: false, spam_reason: null });
    });

    it('renews nothing forged, nothing for another form, nothing started over a day ago', async () => {
      const tokens = createSignedTokens(SECRET);
      const dayOld = Date.now() - 25 * 3600_000;
      const ancient = await tokens.sign('form-start', 'contact', {
        expiresInSeconds: 1800,
        claims: { st: dayOld },
        now: new Date(dayOld),
      });
      const forged = await createSignedTokens('y'.repeat(40)).sign('form-start', 'contact', {
        claims: { st: Date.now() - 60_000 },
      });
      for (const [formType, renew] of [
        ['contact', ancient],
        ['contact', forged],
        ['newsletter', readyTokens.contact],
        ['contact', 'not-a-token'],
      ]) {
        const res = await json('/api/form-token', { formType, renew });
        expect(res.statusCode).toBe(400);
      }
      expect((await json('/api/form-token', { formType: 'nope' })).statusCode).toBe(400);
      expect(
        (await json('/api/form-token', { formType: 'contact' }, { origin: 'https://evil.test' })).statusCode,
      ).toBe(403);
    });
  });

  describe('the Idempotency-Key', () => {
    const booking = (over: Record<string, unknown> = {}) => {
      return {
        formType: 'booking',
        sessionType: 'inPerson',
        // A working day the default availability offers (its notice counts working days).
        firstChoiceDate: bookableDate(3),
        firstChoiceTime: 'morning',
        secondChoiceDate: '',
        secondChoiceTime: '',
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: unique('idem'),
        phone: '+44 7700 900123',
        company: 'Analytical Engines Ltd',
        role: 'Partner',
        notes: '',
        website: '',
        formToken: readyTokens.booking,
        ...over,
      };
    };

    it('answers the first answer again for the same body, and 422 for another body', async () => {
      const key = `key-${Date.now()}-abcdef`;
      const body = booking();
      const first = await t.post(body, { 'idempotency-key': key });
      expect(first.statusCode, first.body).toBe(200);
      const again = await t.post(body, { 'idempotency-key': key });
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual(first.json());

      const other = await t.post(booking({ email: unique('someone-else') }), { 'idempotency-key': key });
      expect(other.statusCode).toBe(422);
      expect(other.json()).toEqual({
        error:
          'This Idempotency-Key was already used for a different request. Send a new booking with a new key.',
      });
      expect(JSON.stringify(other.json())).not.toContain((first.json() as { reference: string }).reference);
      expect(await t.query(`select 1 from submissions where idempotency_key = '${key}'`)).toHaveLength(1);
    });
  });

  describe('newsletter confirmation links', () => {
    async function signUp(email: string, over: Record<string, unknown> = {}) {
      const res = await t.post(bodies.newsletter({ email, ...over }));
      expect(res.statusCode).toBe(200);
      const mail = await mailTo(email);
      return /\/newsletter\/confirm\?token=(\S+)/.exec(mail.text)![1]!;
    }
    const status = async (email: string) =>
      (
        await t.query<{ status: string; first_name: string; last_name: string }>(
          `select status, first_name, last_name from newsletter_subscribers where email = '${email}'`,
        )
      )[0];

    it('work once: a replay changes nothing and says so', async () => {
      const email = unique('once');
      const token = await signUp(email);
      expect((await json('/api/newsletter/confirm', { token })).statusCode).toBe(200);
      expect((await status(email))?.status).toBe('confirmed');

      // Unsubscribed since: the same link, replayed, must not subscribe again.
      const row = (
        await t.query<{ id: string }>(`select id from newsletter_subscribers where email = '${email}'`)
      )[0]!;
      const unsubscribe = await createSignedTokens(SECRET).sign('newsletter-unsubscribe', row.id);
      expect((await json('/api/newsletter/unsubscribe', { token: unsubscribe })).statusCode).toBe(200);
      const replay = await json('/api/newsletter/confirm', { token });
      expect(replay.statusCode).toBe(400);
      expect(replay.json()).toEqual({ error: 'This confirmation link has already been used.' });
      expect((await status(email))?.status).toBe('unsubscribed');
      // Unsubscribe links keep working, again and again.
      expect((await json('/api/newsletter/unsubscribe', { token: unsubscribe })).statusCode).toBe(200);
    });

    it('expire after 7 days', async () => {
      const email = unique('late');
      await signUp(email);
      const row = (
        await t.query<{ id: string }>(`select id from newsletter_subscribers where email = '${email}'`)
      )[0]!;
      const eightDaysAgo = new Date(Date.now() - 8 * 86400_000);
      const old = await createSignedTokens(SECRET).sign('newsletter-confirm', row.id, {
        expiresInSeconds: 7 * 86400,
        singleUse: true,
        now: eightDaysAgo,
      });
      const res = await json('/api/newsletter/confirm', { token: old });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        error: 'This confirmation link has expired (links work for 7 days). Please sign up again.',
      });
      expect((await status(email))?.status).toBe('pending');
    });

    it('a sign-up never renames a confirmed subscriber', async () => {
      const email = unique('named');
      const token = await signUp(email, { firstName: 'Alan', lastName: 'Turing' });
      expect((await json('/api/newsletter/confirm', { token })).statusCode).toBe(200);
      const again = await t.post(bodies.newsletter({ email, firstName: 'Visit', lastName: 'evil.example' }));
      expect(again.statusCode).toBe(200);
      expect(await status(email)).toEqual({ status: 'confirmed', first_name: 'Alan', last_name: 'Turing' });
    });

    it('still honours an unsubscribe link signed the old way', async () => {
      const email = unique('legacy');
      await signUp(email);
      const row = (
        await t.query<{ id: string }>(`select id from newsletter_subscribers where email = '${email}'`)
      )[0]!;
      const legacy = `${row.id}.${createHmacLegacy(row.id)}`;
      expect((await json('/api/newsletter/unsubscribe', { token: legacy })).statusCode).toBe(200);
      expect((await status(email))?.status).toBe('unsubscribed');
      // The old format never confirmed anything after this change.
      expect((await json('/api/newsletter/confirm', { token: legacy })).statusCode).toBe(400);
    });
  });

  describe('e-mails to a typed address', () => {
    it('quote no visitor text but a plain first name; the owner still gets every field', async () => {
      const email = unique('victim');
      const res = await t.post(
        bodies.guide({
          email,
          firstName: 'Verify at evil.example/login',
          company: 'Click http://evil.example',
        }),
      );
      expect(res.statusCode).toBe(200);
      const visitor = await mailTo(email);
      expect(visitor.text).toContain('Hello,');
      for (const part of [visitor.text, visitor.html, visitor.header('subject') ?? '']) {
        expect(part).not.toContain('evil');
      }
      const id = (res.json() as { id: string }).id;
      const until = Date.now() + 15_000;
      let owner: ReceivedMail | undefined;
      while (!owner && Date.now() < until) {
        owner = smtp.mails.find((m) => m.envelopeTo.includes(OWNER) && m.text.includes(id));
        await new Promise((r) => setTimeout(r, 25));
      }
      expect(owner?.text).toContain('Verify at evil.example/login');
      expect(owner?.text).toContain('Click http://evil.example');

      const named = unique('named-guide');
      expect((await t.post(bodies.guide({ email: named, firstName: "Anne-Marie O'Brien" }))).statusCode).toBe(
        200,
      );
      expect((await mailTo(named)).text).toContain("Hello Anne-Marie O'Brien,");
    });

    it('marks e-mails to typed addresses as visitor mail, and the owner copies as owner mail', async () => {
      const email = unique('audience');
      const res = await t.post(bodies.guide({ email }));
      const id = (res.json() as { id: string }).id;
      const rows = await t.query<{ kind: string; audience: string }>(
        `select kind, audience from outbox where submission_id = '${id}' order by kind`,
      );
      expect(rows).toEqual([
        { kind: 'guide.owner', audience: 'owner' },
        { kind: 'guide.visitor', audience: 'visitor' },
      ]);
    });
  });
});

function createHmacLegacy(id: string): string {
  // The format of the first unsubscribe links: `<id>.<HMAC-SHA256(APP_SECRET, purpose:id)>`.
  return createHmac('sha256', SECRET).update(`newsletter-unsubscribe:${id}`).digest('base64url');
}
