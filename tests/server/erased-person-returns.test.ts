/**
 * Someone erased who comes back (decision 030), over a PostgreSQL database of its own,
 * with a real SMTP peer: they ask for the guide again and get one e-mail, the address confirmation
 * (no guide, nothing they typed); its link, followed, lifts the suppression (audited) and the guide
 * is delivered. A stranger who types an erased address into the forms again and again never gets
 * it more than one e-mail a day; a link works once, only as signed, and ends with the held e-mail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADDRESS_CONFIRM_API, addressConfirmPage } from '../../src/content/address-confirm';
import { createSignedTokens } from '../../src/server/kit/http/signed-tokens';
import { ADDRESS_CONFIRM_PURPOSE } from '../../src/server/kit/mail/address-confirm';
import { apiCall, asOwner, signInOwner } from './owner-session';
import {
  bodies,
  type FormsTestApp,
  makeFormsApp,
  readyTokens,
  SECRET,
  type SmtpPeer,
  startSmtpPeer,
  testDrivers,
  until,
} from './forms-support';

const drivers = await testDrivers('returns');

describe.each(drivers)('an erased person who comes back, on $name', (driver) => {
  let t: FormsTestApp;
  let smtp: SmtpPeer;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const db = await driver.env();
    drop = db.drop;
    smtp = await startSmtpPeer();
    t = await makeFormsApp({ ...db.env, SMTP_URL: smtp.url });
  });
  afterAll(async () => {
    await t?.app.close();
    await smtp?.close();
    await drop?.();
  });

  const mailsTo = (address: string) =>
    smtp.mails.filter((m) => m.envelopeTo.some((to) => to.toLowerCase() === address.toLowerCase()));
  const statuses = async (address: string) =>
    (
      await t.query<{ kind: string; status: string }>(
        `select kind, status from outbox where lower(to_address) = '${address.toLowerCase()}' order by id`,
      )
    ).map((r) => `${r.kind} ${r.status}`);
  const linkIn = (text: string) => {
    const url = /https:\/\/www\.sterling\.test\/email\/confirm\?token=([A-Za-z0-9._%-]+)/.exec(text);
    return url ? decodeURIComponent(url[1]!) : undefined;
  };
  const follow = (token: unknown) => apiCall(t.app, 'POST', ADDRESS_CONFIRM_API, { body: { token } });

  /** Someone wrote in (no e-mail to them), and was erased at their request. */
  async function erase(address: string) {
    expect((await t.post(bodies.contact({ email: address }))).statusCode).toBe(200);
    await t.app.services.outbox.drain();
    const owner = asOwner(t.app, await signInOwner(t.app));
    expect((await owner('POST', '/api/owner/people/erase', { body: { email: address } })).statusCode).toBe(
      200,
    );
    smtp.mails.length = 0;
  }

  it('asks for the guide again: one confirmation e-mail, its link lifts the suppression, the guide arrives', async () => {
    const email = `Returning.${Date.now()}@Example.org`;
    await erase(email);
    expect(await statuses(email)).toEqual([]);

    const again = await t.post(
      bodies.guide({ email, firstName: 'Ada Returning', company: 'Visit evil.example' }),
    );
    expect(again.statusCode).toBe(200);
    await t.app.services.outbox.drain();
    expect(await statuses(email)).toEqual(['guide.visitor suppressed', 'address.confirm sent']);
    const [confirmation, ...more] = mailsTo(email);
    expect(more).toEqual([]);
    expect(confirmation!.header('subject')).toMatch(/e-mail from .* again/i);
    // Nothing they typed, and no guide in it.
    for (const typed of ['Ada', 'Returning', 'evil.example']) {
      expect(confirmation!.text).not.toContain(typed);
      expect(confirmation!.html).not.toContain(typed);
    }
    expect(confirmation!.text).not.toMatch(/\.pdf/);
    const token = linkIn(confirmation!.text);
    expect(token).toBeDefined();

    const followed = await follow(token);
    expect(followed.statusCode).toBe(200);
    const hashes = await t.query<{ n: number }>(`select count(*)::int as n from suppressions`);
    expect(hashes[0]!.n).toBe(0);
    const audit = await t.query<{ actor: string; detail: unknown }>(
      `select actor, detail from audit_log where action = 'suppression.lift'`,
    );
    expect(audit).toHaveLength(1);
    expect(audit[0]!.actor).toBe('visitor');
    const detail = audit[0]!.detail;
    expect(typeof detail === 'string' ? JSON.parse(detail) : detail).toEqual({
      by: 'link',
      reason: 'erased',
      released: 1,
    });

    await t.app.services.outbox.drain();
    await until(() => mailsTo(email).length === 2);
    const guide = mailsTo(email)[1]!;
    expect(guide.text).toMatch(/Download the guide/);
    expect(await statuses(email)).toEqual(['guide.visitor sent', 'address.confirm sent']);

    // The link works once.
    const twice = await follow(token);
    expect(twice.statusCode).toBe(410);
    expect(twice.json()).toEqual({ error: addressConfirmPage.used });
  });

  it('erased the day they had the guide, they confirm and get it again, once, however often it was asked for', async () => {
    const email = `same.day.${Date.now()}@example.org`;
    expect((await t.post(bodies.guide({ email }))).statusCode).toBe(200);
    await t.app.services.outbox.drain();
    await until(() => mailsTo(email).length === 1);
    await erase(email);

    for (let i = 0; i < 2; i += 1) {
      expect((await t.post(bodies.guide({ email, firstName: `Again ${i}` }))).statusCode).toBe(200);
    }
    await t.app.services.outbox.drain();
    const [confirmation] = mailsTo(email);
    expect(mailsTo(email)).toHaveLength(1);
    expect((await follow(linkIn(confirmation!.text))).statusCode).toBe(200);

    await t.app.services.outbox.drain();
    await until(() => mailsTo(email).length === 2);
    expect(mailsTo(email)[1]!.text).toMatch(/Download the guide/);
    // The guide the day before the erasure no longer stands in the way; the two asked for
    // since are one guide and one confirmation, the limits as ever.
    expect((await statuses(email)).sort()).toEqual([
      'address.confirm sent',
      'address.confirm skipped',
      'guide.visitor sent',
      'guide.visitor skipped',
    ]);
  });

  it('a stranger typing an erased address again and again gets it one e-mail, and nothing else', async () => {
    const email = `erased.stranger.${Date.now()}@example.org`;
    await erase(email);
    for (let i = 0; i < 4; i += 1) {
      expect((await t.post(bodies.guide({ email, firstName: `Try ${i}` }))).statusCode).toBe(200);
      expect((await t.post(bodies.newsletter({ email }))).statusCode).toBe(200);
    }
    await t.app.services.outbox.drain();
    await new Promise((r) => setTimeout(r, 300));
    await t.app.services.outbox.drain();
    expect(mailsTo(email)).toHaveLength(1);
    const rows = await statuses(email);
    expect(rows.filter((r) => r === 'address.confirm sent')).toHaveLength(1);
    expect(
      rows
        .filter((r) => r.startsWith('address.confirm') && r !== 'address.confirm sent')
        .every((r) => r.endsWith('skipped')),
    ).toBe(true);
    expect(rows.filter((r) => !r.startsWith('address.confirm')).every((r) => r.endsWith('suppressed'))).toBe(
      true,
    );
    // Still suppressed: nobody followed the link.
    const [n] = await t.query<{ n: number }>(`select count(*)::int as n from suppressions`);
    expect(n!.n).toBeGreaterThan(0);
  });

  it('refuses a link that is forged, of another purpose, expired, or whose held e-mail is gone', async () => {
    const email = `refused.${Date.now()}@example.org`;
    await erase(email);
    expect((await t.post(bodies.guide({ email }))).statusCode).toBe(200);
    await t.app.services.outbox.drain();
    const token = linkIn(mailsTo(email)[0]!.text)!;

    for (const bad of [undefined, '', 'x.y.z', `${token}x`, 42]) {
      const res = await follow(bad);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: addressConfirmPage.invalid });
    }
    const tokens = createSignedTokens(SECRET);
    const [held] = await t.query<{ id: string }>(
      `select id::text as id from outbox where kind = 'guide.visitor' and lower(to_address) = '${email}'`,
    );
    const otherPurpose = await tokens.sign('newsletter-confirm', held!.id, {
      expiresInSeconds: 60,
      singleUse: true,
    });
    expect((await follow(otherPurpose)).statusCode).toBe(400);
    const expired = await tokens.sign(ADDRESS_CONFIRM_PURPOSE, held!.id, {
      expiresInSeconds: 60,
      singleUse: true,
      now: new Date(Date.now() - 3600_000),
    });
    expect((await follow(expired)).statusCode).toBe(410);
    // Cross-site: refused before anything is read.
    const crossSite = await t.app.inject({
      method: 'POST',
      url: ADDRESS_CONFIRM_API,
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      payload: JSON.stringify({ token }),
    });
    expect(crossSite.statusCode).toBe(403);

    // Erased again before the link is followed: the held e-mail is gone, and so is the link.
    const owner = asOwner(t.app, await signInOwner(t.app));
    expect((await owner('POST', '/api/owner/people/erase', { body: { email } })).statusCode).toBe(200);
    const gone = await follow(token);
    expect(gone.statusCode).toBe(410);
    expect(gone.json()).toEqual({ error: addressConfirmPage.gone });
    const [n] = await t.query<{ n: number }>(
      `select count(*)::int as n from outbox where lower(to_address) = '${email}'`,
    );
    expect(n!.n).toBe(0);
  });

  it('the guide form’s answer is the same whether the address is suppressed or not', async () => {
    const email = `same.answer.${Date.now()}@example.org`;
    const before = await t.post(bodies.guide({ email, formToken: readyTokens.bitcoin_guide }));
    await erase(email);
    const after = await t.post(bodies.guide({ email }));
    expect(after.statusCode).toBe(before.statusCode);
    expect(Object.keys(after.json() as object)).toEqual(Object.keys(before.json() as object));
  });
});
