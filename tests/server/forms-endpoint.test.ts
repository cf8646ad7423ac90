/**
 * The form endpoint end to end, on a real Postgres, with a real SMTP peer:
 * each form type is stored with its consent and its e-mails arrive with the right recipients,
 * headers and escaped content; the server picks every recipient.
 */
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consents } from '../../src/content/consents';
import {
  OWNER,
  bodies,
  startFormsTestbed,
  formToken,
  postgresUnavailableReason,
  type FormsTestApp,
  type SmtpPeer,
} from './forms-support';

const pgUnavailable = await postgresUnavailableReason();
if (pgUnavailable) console.warn(`Skipping forms-endpoint: ${pgUnavailable}`);

describe.skipIf(Boolean(pgUnavailable))('the form endpoint on Postgres', () => {
  let smtp: SmtpPeer;
  let t: FormsTestApp;
  let close: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    ({ smtp, t, close } = await startFormsTestbed('endpoint'));
  });
  afterAll(async () => {
    await close?.();
  });

  async function mailsFor(submissionId: string, count: number) {
    await t.app.services.outbox.drain();
    const until = Date.now() + 10_000;
    for (;;) {
      const found = smtp.mails.filter((m) => m.text.includes(submissionId) || m.html.includes(submissionId));
      const rows = await t.query<{ kind: string }>(
        `select kind from outbox where submission_id = '${submissionId}'`,
      );
      const sent = await t.query(
        `select 1 from outbox where submission_id = '${submissionId}' and status = 'sent'`,
      );
      if (sent.length === rows.length && smtp.mails.length > 0) {
        return { found, kinds: rows.map((r) => r.kind).sort() };
      }
      if (Date.now() > until) throw new Error(`mail for ${submissionId} not sent (${count})`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  /** The e-mails of one submission, by Message-ID from its outbox rows. */
  async function mailsOf(submissionId: string) {
    await mailsFor(submissionId, 0);
    const rows = await t.query<{ id: string; kind: string }>(
      `select id::text as id, kind from outbox where submission_id = '${submissionId}' order by id`,
    );
    return rows.map((row) => {
      const mail = smtp.mails.find((m) => m.header('message-id')?.startsWith(`<outbox.${row.id}.`));
      if (!mail) throw new Error(`no mail for outbox row ${row.id}`);
      return { kind: row.kind, mail };
    });
  }

  it('stores a contact message with its consent and mails the owner, Reply-To the visitor', async () => {
    const res = await t.post(bodies.contact({ message: 'Hello <b>team</b> & "friends"\nSecond line' }));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const { id } = res.json() as { id: string };
    expect(id).toMatch(/^[0-9a-f-]{36}$/);

    const [row] = await t.query<{
      form_type: string;
      fields: Record<string, unknown>;
      spam: boolean;
      ip_hash: string;
      user_agent: string;
    }>(`select form_type, fields, spam, ip_hash, user_agent from submissions where id = '${id}'`);
    expect(row?.form_type).toBe('contact');
    expect(row?.spam).toBe(false);
    expect(row?.fields).toMatchObject({ firstName: 'Ada', email: 'ada@example.org', subject: 'training' });
    expect(row?.fields).not.toHaveProperty('website');
    expect(row?.ip_hash).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(row?.ip_hash).not.toContain('127.0.0.1');
    const consentRows = await t.query<{ consent_id: string; wording: string; given_at: unknown }>(
      `select consent_id, wording, given_at from consent_records where submission_id = '${id}'`,
    );
    expect(consentRows).toHaveLength(1);
    expect(consentRows[0]).toMatchObject({
      consent_id: consents.contact.id,
      wording: consents.contact.text,
    });

    const mails = await mailsOf(id);
    expect(mails.map((m) => m.kind)).toEqual(['contact.owner']);
    const mail = mails[0]!.mail;
    expect(mail.envelopeTo).toEqual([OWNER]);
    expect(mail.header('to')).toBe(OWNER);
    expect(mail.header('reply-to')).toBe('ada@example.org');
    expect(mail.header('from')).toContain('hello@sterling.test');
    expect(mail.header('subject')).toContain('Team Training enquiry from Ada Lovelace');
    expect(mail.text).toContain('Hello <b>team</b> & "friends"');
    expect(mail.html).toContain('Hello &lt;b&gt;team&lt;/b&gt; &amp; &quot;friends&quot;<br>Second line');
    expect(mail.html).not.toContain('<b>team</b>');
    expect(mail.html).toContain('#b9470b');
    expect(mail.html).toContain('#0b1f3a');
  });

  it('cleans the contact message on the server too', async () => {
    const res = await t.post(
      bodies.contact({
        firstName: 'Eve<script>alert(1)</script>',
        message:
          'Look <img src=x onerror="alert(1)"> at javascript:alert(2) <iframe src="//evil"></iframe>done',
      }),
    );
    expect(res.statusCode).toBe(200);
    const { id } = res.json() as { id: string };
    const [row] = await t.query<{ fields: { firstName: string; message: string } }>(
      `select fields from submissions where id = '${id}'`,
    );
    expect(row?.fields.firstName).toBe('Eve');
    expect(row?.fields.message).toBe('Look <img src=x> at alert(2) done');
  });

  it('ignores bcc, to and any recipient-like field in the body', async () => {
    const before = smtp.mails.length;
    const res = await t.post(
      bodies.contact({
        bcc: 'victim@evil.test',
        to: 'victim@evil.test',
        cc: 'victim@evil.test',
        recipient: 'victim@evil.test',
        ownerEmail: 'victim@evil.test',
      }),
    );
    expect(res.statusCode).toBe(200);
    const mails = await mailsOf((res.json() as { id: string }).id);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.mail.envelopeTo).toEqual([OWNER]);
    expect(smtp.mails.slice(before).flatMap((m) => m.envelopeTo)).not.toContain('victim@evil.test');
    expect(mails[0]!.mail.raw).not.toMatch(/^bcc:/im);
  });

  it('sends the guide link to the visitor and the lead to the owner', async () => {
    const res = await t.post(bodies.guide({ firstName: 'Grace <Hopper>' }));
    expect(res.statusCode).toBe(200);
    const { id } = res.json() as { id: string };
    const consentRows = await t.query<{ consent_id: string; wording: string }>(
      `select consent_id, wording from consent_records where submission_id = '${id}'`,
    );
    expect(consentRows[0]).toMatchObject({ consent_id: consents.guide.id, wording: consents.guide.text });
    const mails = await mailsOf(id);
    expect(mails.map((m) => m.kind)).toEqual(['guide.visitor', 'guide.owner']);
    const [visitor, owner] = [mails[0]!.mail, mails[1]!.mail];
    expect(visitor.envelopeTo).toEqual(['grace@example.org']);
    expect(visitor.text).toContain('https://www.sterling.test/guides/wealth-building-guide.pdf');
    expect(visitor.html).toContain('href="https://www.sterling.test/guides/wealth-building-guide.pdf"');
    // A "name" that is not plainly a name is not quoted to the address typed in; the owner sees it, escaped.
    expect(visitor.html).toContain('Hello,');
    expect(visitor.html).not.toContain('Hopper');
    expect(owner.html).toContain('Grace &lt;Hopper&gt;');
    expect(owner.envelopeTo).toEqual([OWNER]);
    expect(owner.header('reply-to')).toBe('grace@example.org');
    expect(owner.text).toContain('Financial Planner');
  });

  it('signs up to the newsletter pending confirmation, with one-click unsubscribe headers', async () => {
    const res = await t.post(bodies.newsletter({ email: 'Alan@Example.org' }));
    expect(res.statusCode).toBe(200);
    const { id } = res.json() as { id: string };
    const [sub] = await t.query<{ status: string; email: string }>(
      `select status, email from newsletter_subscribers where email = 'alan@example.org'`,
    );
    expect(sub).toMatchObject({ status: 'pending' });
    const mails = await mailsOf(id);
    expect(mails.map((m) => m.kind)).toEqual(['newsletter.owner', 'newsletter.confirm']);
    const [owner, confirm] = [mails[0]!.mail, mails[1]!.mail];
    expect(owner.envelopeTo).toEqual([OWNER]);
    expect(owner.text).toContain('Alan');
    expect(confirm.envelopeTo.map((a) => a.toLowerCase())).toEqual(['alan@example.org']);
    expect(confirm.header('list-unsubscribe')).toMatch(
      /^<https:\/\/www\.sterling\.test\/api\/newsletter\/unsubscribe\?token=[^>]+>$/,
    );
    expect(confirm.header('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(confirm.text).toMatch(/https:\/\/www\.sterling\.test\/newsletter\/confirm\?token=\S+/);
    expect(confirm.text).toMatch(/https:\/\/www\.sterling\.test\/newsletter\/unsubscribe\?token=\S+/);
  });

  it('answers every wrong request with a 4xx JSON error and stores nothing', async () => {
    const [{ n: before }] = (await t.query<{ n: number }>('select count(*)::int as n from submissions')) as [
      { n: number },
    ];
    const cases: { name: string; res: Awaited<ReturnType<typeof t.post>>; status: number }[] = [];
    const inject = (o: InjectOptions) => t.app.inject(o);
    cases.push({
      name: 'unknown formType',
      res: await t.post(bodies.contact({ formType: 'booking_confirmation' })),
      status: 400,
    });
    cases.push({
      name: 'prototype formType',
      res: await t.post(bodies.contact({ formType: '__proto__' })),
      status: 400,
    });
    cases.push({ name: 'missing formType', res: await t.post({ email: 'a@b.co' }), status: 400 });
    cases.push({ name: 'array body', res: await t.post('[1,2]'), status: 400 });
    cases.push({ name: 'null body', res: await t.post('null'), status: 400 });
    cases.push({ name: 'broken JSON', res: await t.post('{"formType":'), status: 400 });
    cases.push({
      name: 'proto poisoning',
      res: await t.post('{"__proto__":{"x":1},"formType":"contact"}'),
      status: 400,
    });
    cases.push({
      name: 'invalid email',
      res: await t.post(bodies.contact({ email: 'not an email' })),
      status: 400,
    });
    cases.push({
      name: 'too long',
      res: await t.post(bodies.contact({ message: 'x'.repeat(5001) })),
      status: 400,
    });
    cases.push({ name: 'no consent', res: await t.post(bodies.contact({ consent: false })), status: 400 });
    cases.push({
      name: 'header injection in name',
      res: await t.post(bodies.contact({ firstName: 'Ada\r\nBcc: victim@evil.test' })),
      status: 400,
    });
    cases.push({
      name: 'header injection in email',
      res: await t.post(bodies.guide({ email: 'a@b.co\r\nBcc: victim@evil.test' })),
      status: 400,
    });
    cases.push({
      name: 'lone surrogate',
      res: await t.post(bodies.contact({ message: 'a\ud800b' })),
      status: 400,
    });
    cases.push({
      name: 'lone surrogate in an extra field',
      res: await t.post(bodies.newsletter({ note: { deep: ['\udc00'] } })),
      status: 400,
    });
    cases.push({
      name: 'NUL in an extra field',
      res: await t.post(bodies.guide({ extra: 'a\u0000b' })),
      status: 400,
    });
    cases.push({
      name: 'over 32 KB',
      res: await t.post(bodies.contact({ message: 'x'.repeat(40_000) })),
      status: 413,
    });
    cases.push({
      name: 'text/plain',
      res: await inject({
        method: 'POST',
        url: '/api/send-contact-email',
        headers: { 'content-type': 'text/plain' },
        payload: JSON.stringify(bodies.contact()),
      }),
      status: 415,
    });
    cases.push({
      name: 'form-encoded',
      res: await inject({
        method: 'POST',
        url: '/api/send-contact-email',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'formType=contact',
      }),
      status: 415,
    });
    cases.push({
      name: 'no content type',
      res: await inject({ method: 'POST', url: '/api/send-contact-email', payload: '' }),
      status: 415,
    });
    cases.push({
      name: 'foreign origin',
      res: await t.post(bodies.contact(), { origin: 'https://evil.test' }),
      status: 403,
    });
    cases.push({
      name: 'null origin',
      res: await t.post(bodies.contact(), { origin: 'null' }),
      status: 403,
    });
    cases.push({
      name: 'cross-site fetch',
      res: await t.post(bodies.contact(), { 'sec-fetch-site': 'cross-site' }),
      status: 403,
    });
    cases.push({
      name: 'GET',
      res: await inject({ method: 'GET', url: '/api/send-contact-email' }),
      status: 404,
    });
    for (const c of cases) {
      expect(c.res.statusCode, c.name).toBe(c.status);
      expect(c.res.headers['content-type'], c.name).toMatch(/^application\/json/);
      const json = c.res.json() as { error: unknown };
      expect(typeof json.error, c.name).toBe('string');
      expect(String(json.error), c.name).not.toMatch(/FST_|stack|at .*\.ts|Error:/);
    }
    const invalid = cases.find((c) => c.name === 'invalid email')!.res.json() as {
      fieldErrors: Record<string, string>;
    };
    expect(invalid.fieldErrors.email).toBe('Please enter a valid email address.');
    const long = cases.find((c) => c.name === 'too long')!.res.json() as {
      fieldErrors: Record<string, string>;
    };
    expect(long.fieldErrors.message).toBe('Message is too long. Please keep it under 5000 characters.');
    const [{ n: after }] = (await t.query<{ n: number }>('select count(*)::int as n from submissions')) as [
      { n: number },
    ];
    expect(after).toBe(before);
  });

  it('accepts its own origin, and refuses another origin even on the Host it names', async () => {
    expect(
      (await t.post(bodies.guide({ email: 'o1@example.org' }), { origin: 'https://www.sterling.test' }))
        .statusCode,
    ).toBe(200);
    expect(
      (
        await t.post(bodies.guide({ email: 'o2@example.org' }), {
          origin: 'http://localhost:4173',
          host: 'localhost:4173',
          'sec-fetch-site': 'same-origin',
        })
      ).statusCode,
    ).toBe(403);
  });

  it('stores honeypot and too-fast submissions as spam, mails nothing, answers like a success', async () => {
    for (const [body, reason] of [
      [bodies.newsletter({ email: 'bot1@example.org', website: 'http://spam.test' }), 'honeypot'],
      [
        bodies.newsletter({ email: 'bot2@example.org', formToken: await formToken('newsletter', 300) }),
        'too-fast',
      ],
      [
        bodies.newsletter({ email: 'bot3@example.org', formToken: await formToken('newsletter', 0) }),
        'too-fast',
      ],
    ] as const) {
      const res = await t.post(body);
      expect(res.statusCode).toBe(200);
      const { id } = res.json() as { id: string };
      const [row] = await t.query<{ spam: boolean; spam_reason: string }>(
        `select spam, spam_reason from submissions where id = '${id}'`,
      );
      expect(row).toEqual({ spam: true, spam_reason: reason });
      expect(await t.query(`select 1 from outbox where submission_id = '${id}'`)).toHaveLength(0);
    }
    expect(await t.query(`select 1 from newsletter_subscribers where email like 'bot%'`)).toHaveLength(0);
  });

  it('answers /readyz with 200 while the database answers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ready', database: 'postgres' });
  });
});
