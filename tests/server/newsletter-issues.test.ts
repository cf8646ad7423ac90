/**
 * The newsletter's issues (issue #26 items 1-3, decision 046), on PostgreSQL with a real
 * SMTP peer: the owner writes an issue, previews it and sends a test to the console's own
 * addresses; sending reaches exactly the confirmed subscribers of that moment, once each (not the
 * pending, unsubscribed or suppressed ones), with the list headers and each reader's own
 * unsubscribe link; the RFC 8058 one-click POST from that header unsubscribes; a second start
 * writes nobody again; pausing holds the rest, resuming sends it, cancelling stops it; a scheduled
 * issue goes out when due, after a restart too; a lead's e-mail is not held up behind a campaign.
 */
import { randomUUID } from 'node:crypto';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ukDateOf } from '../../src/lib/uk-dates';
import { createSignedTokens } from '../../src/server/kit/http/signed-tokens';
import { suppressionHash } from '../../src/server/kit/mail/outbox';
import { SendRate } from '../../src/server/kit/mail/outbox-worker';
import type { IssueDetail } from '../../src/features/newsletter/issues-console-contract';
import { PREPARE_BATCH } from '../../src/features/newsletter/issue-sending.server';
import {
  bodies,
  makeFormsApp,
  OWNER,
  SECRET,
  startSmtpPeer,
  testDrivers,
  until,
  type FormsTestApp,
  type SmtpPeer,
} from './forms-support';
import { apiCall, asOwner, signInOwner, type OwnerCall } from './owner-session';

const drivers = await testDrivers('newsletter_issues');

const ISSUE = {
  subject: 'The Smart Money Newsletter: November',
  preheader: 'Three things worth knowing this month.',
  body: '## What changed\n\nThe **tax year** figures, and [our guide](https://www.sterling.test/resources).\n\n- one\n- two',
};

async function addSubscriber(
  t: FormsTestApp,
  email: string,
  status: 'pending' | 'confirmed' | 'unsubscribed',
) {
  const id = randomUUID();
  await t.query(
    `insert into newsletter_subscribers (id, email, first_name, last_name, status, confirmed_at)
     values ('${id}', '${email}', 'Reader', 'Test', '${status}', ${status === 'confirmed' ? 'now()' : 'null'})`,
  );
  return id;
}

async function suppress(t: FormsTestApp, email: string) {
  await t.query(
    `insert into suppressions (hash, reason) values ('${suppressionHash(SECRET, email)}', 'erased') on conflict do nothing`,
  );
}

async function write(owner: OwnerCall, input = ISSUE): Promise<IssueDetail> {
  const res = await owner('POST', '/api/owner/newsletter/issues', { body: input });
  expect(res.statusCode).toBe(200);
  return res.json<IssueDetail>();
}

async function detail(owner: OwnerCall, id: string): Promise<IssueDetail> {
  const res = await owner('GET', `/api/owner/newsletter/issues/${id}`);
  expect(res.statusCode).toBe(200);
  return res.json<IssueDetail>();
}

async function chores(t: FormsTestApp) {
  await t.app.services.issueChores.run();
}

describe('the newsletter rate', () => {
  it('spaces rounds so that no more than the rate leave, and gives no burst after idling', () => {
    let now = 0;
    const rate = new SendRate(10, () => now);
    expect(rate.after(4, 0)).toBe(400);
    now = 400;
    expect(rate.after(4, 400)).toBe(400);
    now = 10_000; // idle for a while: the account starts again from the round's start
    expect(rate.after(2, 10_000)).toBe(200);
    expect(new SendRate(0).after(100, 0)).toBe(0);
  });
});

describe.each(drivers)('newsletter issues on $name', (driver) => {
  let smtp: SmtpPeer;
  let t: FormsTestApp;
  let owner: OwnerCall;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    smtp = await startSmtpPeer();
    const database = await driver.env();
    drop = database.drop;
    t = await makeFormsApp({ ...database.env, SMTP_URL: smtp.url, NEWSLETTER_SEND_RATE: '0' });
    owner = asOwner(t.app, await signInOwner(t.app));
  });

  afterAll(async () => {
    await t?.app.close();
    await smtp?.close();
    await drop?.();
  });

  it('saves a draft, refuses what the owner must correct, and previews the e-mail as sent', async () => {
    const bad = await owner('POST', '/api/owner/newsletter/issues', {
      body: { subject: '', preheader: 'x'.repeat(201), body: 'Hello' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors).toMatchObject({
      subject: 'Please enter a subject.',
      preheader: 'The preview line can be at most 200 characters.',
    });
    const issue = await write(owner);
    expect(issue.status).toBe('draft');
    expect(issue.progress).toBeNull();
    const preview = await owner('GET', `/api/owner/newsletter/issues/${issue.id}/preview`);
    expect(preview.statusCode).toBe(200);
    const { html, text } = preview.json<{ html: string; text: string }>();
    expect(html).toContain('The Smart Money Newsletter: November');
    expect(html).toContain('<strong>tax year</strong>');
    expect(html).toContain('https://www.sterling.test/newsletter/unsubscribe?token=example');
    expect(text).not.toMatch(/<[a-z]/i);
    expect(text).toContain('Unsubscribe');
    const changed = await owner('POST', `/api/owner/newsletter/issues/${issue.id}`, {
      body: { ...ISSUE, subject: 'Changed subject' },
    });
    expect(changed.json<IssueDetail>().subject).toBe('Changed subject');
    const missing = await owner('GET', `/api/owner/newsletter/issues/${randomUUID()}`);
    expect(missing.statusCode).toBe(404);
    // As long as the form allows, in any script: 50,000 characters of two bytes each is over the
    // forms' 32 KB request limit, not over an issue's.
    const long = await owner('POST', `/api/owner/newsletter/issues/${issue.id}`, {
      body: { ...ISSUE, body: 'é'.repeat(50_000) },
    });
    expect(long.statusCode).toBe(200);
    const tooLong = await owner('POST', `/api/owner/newsletter/issues/${issue.id}`, {
      body: { ...ISSUE, body: 'é'.repeat(50_001) },
    });
    expect(tooLong.statusCode).toBe(400);
  });

  it('starts a draft from an article of the site, with its link; an unknown article is refused', async () => {
    const list = await owner('GET', '/api/owner/newsletter/articles');
    const { items } = list.json<{ items: { slug: string; title: string }[] }>();
    expect(items.length).toBeGreaterThan(0);
    const article = items[0]!;
    const made = await owner('POST', '/api/owner/newsletter/from-article', { body: { slug: article.slug } });
    expect(made.statusCode).toBe(200);
    const draft = made.json<IssueDetail>();
    expect(draft).toMatchObject({ status: 'draft', articleSlug: article.slug, subject: article.title });
    expect(draft.body).toContain(`https://www.sterling.test/resources/articles/${article.slug}`);
    for (const slug of ['no-such-article', '../../etc/passwd']) {
      const refused = await owner('POST', '/api/owner/newsletter/from-article', { body: { slug } });
      expect(refused.statusCode, slug).toBe(slug.includes('/') ? 400 : 404);
      expect(refused.json().error).toBe('There is no such article.');
    }
    // The published articles of the moment (decision 047): one taken off the site is not offered.
    const last = items.at(-1)!;
    await t.query(`update articles set status = 'unpublished' where slug = '${last.slug}'`);
    try {
      const now = (await owner('GET', '/api/owner/newsletter/articles')).json<{ items: { slug: string }[] }>();
      expect(now.items.map((i) => i.slug)).not.toContain(last.slug);
      const refused = await owner('POST', '/api/owner/newsletter/from-article', { body: { slug: last.slug } });
      expect(refused.statusCode).toBe(404);
    } finally {
      await t.query(`update articles set status = 'published' where slug = '${last.slug}'`);
    }
  });

  it('sends a test to the owner alone, with the list headers and an example unsubscribe link', async () => {
    const issue = await write(owner);
    const before = smtp.mails.length;
    const res = await owner('POST', `/api/owner/newsletter/issues/${issue.id}/test`);
    expect(res.json()).toEqual({ sentTo: 1 });
    const [mail] = (await smtp.waitFor(before + 1)).slice(before);
    expect(mail!.envelopeTo).toEqual([OWNER]);
    expect(mail!.header('subject')).toBe(`[Test] ${ISSUE.subject}`);
    expect(mail!.header('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(mail!.html).toContain('token=example');
    // A test sends nothing to subscribers and leaves the issue a draft.
    expect((await detail(owner, issue.id)).status).toBe('draft');
  });

  it('reaches exactly the confirmed subscribers, once each, with their own links; a second start writes nobody', async () => {
    const tag = randomUUID().slice(0, 8);
    const confirmed = [1, 2, 3].map((n) => `reader${n}-${tag}@example.org`);
    for (const email of confirmed) await addSubscriber(t, email, 'confirmed');
    await addSubscriber(t, `pending-${tag}@example.org`, 'pending');
    await addSubscriber(t, `gone-${tag}@example.org`, 'unsubscribed');
    const erased = `erased-${tag}@example.org`;
    await addSubscriber(t, erased, 'confirmed');
    await suppress(t, erased);

    const issue = await write(owner);
    const before = smtp.mails.length;
    const sent = await owner('POST', `/api/owner/newsletter/issues/${issue.id}/send`, { body: { at: '' } });
    expect(sent.statusCode).toBe(200);
    expect(sent.json<IssueDetail>().status).toBe('sending');
    await t.app.services.bulkOutbox.drain();
    await chores(t);
    const done = await detail(owner, issue.id);
    expect(done.status).toBe('sent');
    const subscribers = await t.query<{ n: string }>(
      `select count(*) as n from newsletter_subscribers where status = 'confirmed'`,
    );
    expect(done.progress).toMatchObject({ sent: Number(subscribers[0]!.n) - 1, suppressed: 1, waiting: 0 });

    const mine = smtp.mails.slice(before).filter((m) => m.envelopeTo.some((to) => to.includes(tag)));
    expect(mine.map((m) => m.envelopeTo[0]).sort()).toEqual([...confirmed].sort());
    const links = new Set<string>();
    for (const mail of mine) {
      expect(mail.header('subject')).toBe(ISSUE.subject);
      expect(mail.header('list-id')).toBe('The Smart Money Newsletter <newsletter.www.sterling.test>');
      expect(mail.header('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
      const oneClick = /<(https:[^>]+)>/.exec(String(mail.header('list-unsubscribe')))?.[1];
      expect(oneClick).toMatch(/^https:\/\/www\.sterling\.test\/api\/newsletter\/unsubscribe\?token=/);
      const visible = /href="(https:\/\/www\.sterling\.test\/newsletter\/unsubscribe\?token=[^"]+)"/.exec(
        mail.html,
      )?.[1];
      expect(visible).toBeDefined();
      expect(mail.text).toContain(visible!.replace(/&amp;/g, '&'));
      expect(mail.html).not.toContain('%%unsubscribe-url%%');
      links.add(oneClick!);
    }
    expect(links.size).toBe(3);

    // Sent again, or started again by the chores: nobody is written twice.
    const again = await owner('POST', `/api/owner/newsletter/issues/${issue.id}/send`, { body: { at: '' } });
    expect(again.statusCode).toBe(409);
    const rows = await t.query<{ n: string }>(
      `select count(*) as n from outbox where mailing_id = '${issue.id}'`,
    );
    expect(Number(rows[0]!.n)).toBe(done.progress!.recipients);

    // The Deliveries page keeps to the leads' lane: the issue's rows are followed on its own page.
    const deliveries = await owner('GET', '/api/owner/deliveries?status=sent');
    expect(deliveries.json<{ items: { kind: string }[] }>().items.map((i) => i.kind)).not.toContain(
      'newsletter.issue',
    );
    const [row] = await t.query<{ id: number }>(
      `select id from outbox where mailing_id = '${issue.id}' limit 1`,
    );
    await t.query(`update outbox set status = 'failed', last_error = 'ESOCKET' where id = ${row!.id}`);
    const retry = await owner('POST', `/api/owner/deliveries/${row!.id}/retry`);
    expect(retry.statusCode).toBe(409);
    await t.query(`update outbox set status = 'sent', last_error = null where id = ${row!.id}`);

    // RFC 8058: the mailbox provider's POST, form-encoded, with no Origin, unsubscribes at once.
    const oneClick = new URL([...links][0]!);
    const res = await t.app.inject({
      method: 'POST',
      url: `${oneClick.pathname}${oneClick.search}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(res.statusCode).toBe(200);
    const left = await t.query<{ status: string }>(
      `select status from newsletter_subscribers where email in (${confirmed.map((e) => `'${e}'`).join(', ')})`,
    );
    expect(left.filter((r) => r.status === 'unsubscribed')).toHaveLength(1);
    expect((await detail(owner, issue.id)).progress!.unsubscribed).toBe(1);
    const audit = await t.query<{ action: string }>(
      `select action from audit_log where target = '${issue.id}' order by id`,
    );
    expect(audit.map((a) => a.action)).toEqual(['newsletter.create', 'newsletter.send']);
  });

  it('erasing a reader removes their sends at once; retention removes the address of old sends and keeps the counts', async () => {
    const tag = randomUUID().slice(0, 8);
    const kept = `kept-${tag}@example.org`;
    const erased = `erase-${tag}@example.org`;
    for (const email of [kept, erased]) await addSubscriber(t, email, 'confirmed');
    const issue = await write(owner);
    await owner('POST', `/api/owner/newsletter/issues/${issue.id}/send`, { body: { at: '' } });
    await t.app.services.bulkOutbox.drain();
    const rowsTo = async (email: string) =>
      Number(
        (
          await t.query<{ n: string }>(
            `select count(*) as n from outbox where mailing_id = '${issue.id}' and lower(to_address) = '${email}'`,
          )
        )[0]!.n,
      );
    expect(await rowsTo(erased)).toBe(1);
    const erasure = await owner('POST', '/api/owner/people/erase', { body: { email: erased } });
    expect(erasure.statusCode).toBe(200);
    expect(await rowsTo(erased)).toBe(0);

    const sentBefore = (await detail(owner, issue.id)).progress!.sent;
    await t.query(
      `update outbox set created_at = now() - interval '25 months' where mailing_id = '${issue.id}'`,
    );
    const started = await owner('POST', '/api/owner/retention/run');
    expect(started.statusCode).toBe(202);
    await until(
      async () =>
        ((await owner('GET', '/api/owner/retention')).json() as { running: number | null }).running === null,
    );
    expect(await rowsTo(kept)).toBe(0);
    const left = await t.query<{ to_address: string; message: Record<string, unknown> }>(
      `select to_address, message from outbox where mailing_id = '${issue.id}'`,
    );
    expect(left.length).toBeGreaterThan(0);
    for (const row of left) {
      expect(row.to_address).toMatch(/^removed-\d+$/);
      expect(JSON.stringify(row.message)).not.toContain('token=');
    }
    expect((await detail(owner, issue.id)).progress!.sent).toBe(sentBefore);
  });

  it('writes a large list in batches, each reader once, and refuses a time that does not exist', async () => {
    const tag = randomUUID().slice(0, 8);
    await t.query(`
      insert into newsletter_subscribers (id, email, first_name, last_name, status, confirmed_at)
      select gen_random_uuid(), 'bulk' || n || '-${tag}@example.org', 'Reader', 'Bulk', 'confirmed', now()
      from generate_series(1, ${PREPARE_BATCH * 2 + 100}) as n`);
    const issue = await write(owner);
    const sent = await owner('POST', `/api/owner/newsletter/issues/${issue.id}/send`, { body: { at: '' } });
    expect(sent.statusCode).toBe(200);
    const [{ n: confirmed } = { n: '0' }] = await t.query<{ n: string }>(
      `select count(*) as n from newsletter_subscribers where status = 'confirmed'`,
    );
    const [{ n: rows, distinct } = { n: '0', distinct: '0' }] = await t.query<{
      n: string;
      distinct: string;
    }>(
      `select count(*) as n, count(distinct lower(to_address)) as distinct from outbox where mailing_id = '${issue.id}'`,
    );
    expect(Number(rows)).toBe(Number(confirmed));
    expect(Number(distinct)).toBe(Number(confirmed));
    const started = await detail(owner, issue.id);
    expect(started.progress!.recipients).toBe(Number(confirmed));
    await owner('POST', `/api/owner/newsletter/issues/${issue.id}/cancel`);

    const other = await write(owner);
    for (const at of ['2031-02-31T09:00', '2031-06-01T25:75', '2031-03-30T01:30']) {
      const refused = await owner('POST', `/api/owner/newsletter/issues/${other.id}/send`, { body: { at } });
      expect(refused.statusCode, at).toBe(400);
      expect(refused.json().error).toBe('That date and time do not exist.');
    }
  });

  it('refuses a time in the past, and sends a scheduled issue when its time comes', async () => {
    const issue = await write(owner);
    const past = await owner('POST', `/api/owner/newsletter/issues/${issue.id}/send`, {
      body: { at: '2020-01-01T09:00' },
    });
    expect(past.statusCode).toBe(400);
    expect(past.json().error).toBe('Please choose a time in the future, or send the issue now.');
    const tomorrow = ukDateOf(new Date(Date.now() + 36 * 3600_000));
    const scheduled = await owner('POST', `/api/owner/newsletter/issues/${issue.id}/send`, {
      body: { at: `${tomorrow}T07:30` },
    });
    expect(scheduled.json<IssueDetail>()).toMatchObject({
      status: 'scheduled',
      scheduledForLocal: `${tomorrow}T07:30`,
    });
    await chores(t);
    expect((await detail(owner, issue.id)).status).toBe('scheduled');
    // Its time comes (moved back, as the clock moving forward would).
    await t.query(
      `update newsletter_issues set scheduled_for = now() - interval '1 second' where id = '${issue.id}'`,
    );
    await chores(t);
    expect(['sending', 'sent']).toContain((await detail(owner, issue.id)).status);
    const audit = await t.query<{ actor: string; action: string }>(
      `select actor, action from audit_log where target = '${issue.id}' order by id`,
    );
    expect(audit.at(-1)).toEqual({ actor: 'system', action: 'newsletter.send' });
  });
});

describe.each(drivers)('sending at the newsletter rate on $name', (driver) => {
  let smtp: SmtpPeer;
  let t: FormsTestApp;
  let owner: OwnerCall;
  let drop: () => Promise<void>;
  const tag = randomUUID().slice(0, 8);

  beforeAll(async () => {
    smtp = await startSmtpPeer();
    const database = await driver.env();
    drop = database.drop;
    // Two e-mails a second: a campaign of 12 takes some 6 seconds.
    t = await makeFormsApp({ ...database.env, SMTP_URL: smtp.url, NEWSLETTER_SEND_RATE: '2' });
    owner = asOwner(t.app, await signInOwner(t.app));
    for (let n = 0; n < 12; n += 1) await addSubscriber(t, `slow${n}-${tag}@example.org`, 'confirmed');
  });

  afterAll(async () => {
    await t?.app.close();
    await smtp?.close();
    await drop?.();
  });

  const campaignMails = () => smtp.mails.filter((m) => m.envelopeTo.some((to) => to.includes(tag)));
  /** Resolves once no e-mail of the issue is with the relay (stamped as handed over, not yet marked). */
  const handedOver = (id: string) =>
    until(
      async () =>
        (
          await t.query(
            `select 1 from outbox where mailing_id = '${id}' and handed_at is not null and status in ('pending', 'held')`,
          )
        ).length === 0,
    );

  it('never holds a lead behind a campaign, and pauses, resumes and cancels between messages', async () => {
    const issue = await write(owner);
    await owner('POST', `/api/owner/newsletter/issues/${issue.id}/send`, { body: { at: '' } });
    await until(() => campaignMails().length >= 1);

    // A contact message now: its owner e-mail arrives while the campaign still has most to send.
    const before = smtp.mails.length;
    const contact = await t.post(bodies.contact());
    expect(contact.statusCode).toBe(200);
    const lead = await until(() => smtp.mails.slice(before).find((m) => m.envelopeTo.includes(OWNER)), 5000);
    expect(lead.header('subject')).toContain('enquiry');
    expect(campaignMails().length).toBeLessThan(12);

    const paused = await owner('POST', `/api/owner/newsletter/issues/${issue.id}/pause`);
    expect(paused.json<IssueDetail>().status).toBe('paused');
    // What was handed to the relay ends; then nothing more goes out while paused.
    await handedOver(issue.id);
    const atPause = campaignMails().length;
    await new Promise((r) => setTimeout(r, 1500));
    expect(campaignMails().length).toBe(atPause);
    const held = (await detail(owner, issue.id)).progress!;
    expect(held.waiting).toBe(12 - atPause);

    const resumed = await owner('POST', `/api/owner/newsletter/issues/${issue.id}/resume`);
    expect(resumed.json<IssueDetail>().status).toBe('sending');
    await until(() => campaignMails().length > atPause);

    const cancelled = await owner('POST', `/api/owner/newsletter/issues/${issue.id}/cancel`);
    expect(cancelled.json<IssueDetail>().status).toBe('cancelled');
    await handedOver(issue.id);
    const atCancel = campaignMails().length;
    await new Promise((r) => setTimeout(r, 1500));
    expect(campaignMails().length).toBe(atCancel);
    const end = (await detail(owner, issue.id)).progress!;
    expect(end.sent).toBe(atCancel);
    expect(end.cancelled).toBe(12 - atCancel);
    expect(end.cancelled).toBeGreaterThan(0);
    // Each reader received it once at most.
    const to = campaignMails().map((m) => m.envelopeTo[0]);
    expect(new Set(to).size).toBe(to.length);
    // A cancelled issue cannot be resumed.
    const resume = await owner('POST', `/api/owner/newsletter/issues/${issue.id}/resume`);
    expect(resume.statusCode).toBe(409);
  });

  it('a reader who unsubscribes while the issue goes out is not sent it', async () => {
    const tag2 = randomUUID().slice(0, 8);
    const ids = new Map<string, string>();
    for (let n = 0; n < 6; n += 1) {
      const email = `late${n}-${tag2}@example.org`;
      ids.set(email, await addSubscriber(t, email, 'confirmed'));
    }
    const issue = await write(owner);
    await owner('POST', `/api/owner/newsletter/issues/${issue.id}/send`, { body: { at: '' } });
    await owner('POST', `/api/owner/newsletter/issues/${issue.id}/pause`);
    const [held] = await t.query<{ to_address: string }>(
      `select to_address from outbox where mailing_id = '${issue.id}' and status = 'held' and to_address like '%${tag2}%' limit 1`,
    );
    expect(held).toBeDefined();
    const token = await createSignedTokens(SECRET).sign('newsletter-unsubscribe', ids.get(held!.to_address)!);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/newsletter/unsubscribe?token=${token}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(res.statusCode).toBe(200);
    await owner('POST', `/api/owner/newsletter/issues/${issue.id}/resume`);
    await until(async () => (await detail(owner, issue.id)).progress!.waiting === 0, 30_000);
    const got = smtp.mails.filter((m) => m.envelopeTo.some((to) => to.includes(tag2)));
    expect(got.map((m) => m.envelopeTo[0])).not.toContain(held!.to_address);
    expect((await detail(owner, issue.id)).progress!.suppressed).toBeGreaterThanOrEqual(1);
  });

  it('is the owner’s alone', async () => {
    const res = await apiCall(t.app, 'GET', '/api/owner/newsletter/issues');
    expect(res.statusCode).toBe(401);
  });
});

describe('the List-Unsubscribe mailto, with a bounce domain', () => {
  it('carries a signed mailto at the bounce domain; a message to it unsubscribes that reader, a forged one is refused', async () => {
    const smtp = await startSmtpPeer();
    const t = await makeFormsApp({
      SMTP_URL: smtp.url,
      NEWSLETTER_SEND_RATE: '0',
      BOUNCE_DOMAIN: 'bounce.sterling.test',
      BOUNCE_SMTP_PORT: '0',
      BOUNCE_SMTP_HOST: '127.0.0.1',
    });
    try {
      const owner = asOwner(t.app, await signInOwner(t.app));
      const reader = `mailto-reader@example.org`;
      const id = await addSubscriber(t, reader, 'confirmed');
      const issue = await write(owner);
      await owner('POST', `/api/owner/newsletter/issues/${issue.id}/send`, { body: { at: '' } });
      const mail = await until(() => smtp.mails.find((m) => m.envelopeTo.includes(reader)));
      // Newsletter e-mails leave with a VERP envelope sender too, so their bounces suppress.
      expect(mail.envelopeFrom).toMatch(/^bounce\+\d+-[a-z2-7]{16}@bounce\.sterling\.test$/);
      const mailto = /<mailto:([^?>]+)\?subject=unsubscribe>/.exec(
        String(mail.header('list-unsubscribe')),
      )?.[1];
      expect(mailto).toBe(
        `unsubscribe+${id.replace(/-/g, '')}-${mailto!.split('-').at(-1)!.split('@')[0]}@bounce.sterling.test`,
      );
      const port = t.app.services.bounces!.port;
      const relay = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true });
      try {
        // A forged tag is refused in the dialogue and changes nothing.
        const forged = mailto!.replace(/-([a-z2-7]{16})@/, '-aaaaaaaaaaaaaaaa@');
        await expect(
          relay.sendMail({ from: 'someone@example.net', to: forged, subject: 'unsubscribe', text: '' }),
        ).rejects.toMatchObject({ responseCode: 550 });
        const still = await t.query<{ status: string }>(
          `select status from newsletter_subscribers where id = '${id}'`,
        );
        expect(still[0]!.status).toBe('confirmed');
        await relay.sendMail({ from: reader, to: mailto!, subject: 'unsubscribe', text: '' });
      } finally {
        relay.close();
      }
      const after = await t.query<{ status: string }>(
        `select status from newsletter_subscribers where id = '${id}'`,
      );
      expect(after[0]!.status).toBe('unsubscribed');
    } finally {
      await t.app.close();
      await smtp.close();
    }
  });
});

const postgres = drivers.find((d) => d.name === 'PostgreSQL');

describe.skipIf(!postgres)('two instances on one PostgreSQL', () => {
  it('start a due issue once and send it to each reader once', async () => {
    const smtp = await startSmtpPeer();
    const database = await postgres!.env();
    const env = { ...database.env, SMTP_URL: smtp.url, NEWSLETTER_SEND_RATE: '0' };
    const a = await makeFormsApp(env);
    const b = await makeFormsApp(env);
    try {
      const tag = randomUUID().slice(0, 8);
      const readers = Array.from({ length: 40 }, (_, n) => `pair${n}-${tag}@example.org`);
      for (const email of readers) await addSubscriber(a, email, 'confirmed');
      const owner = asOwner(a.app, await signInOwner(a.app));
      const issue = await write(owner);
      await a.query(
        `update newsletter_issues set status = 'scheduled', scheduled_for = now() - interval '1 second' where id = '${issue.id}'`,
      );
      // Both instances' chores at once, twice each.
      await Promise.all([chores(a), chores(b), chores(a), chores(b)]);
      b.app.services.bulkOutbox.wake();
      await until(() => smtp.mails.length >= readers.length);
      await Promise.all([a.app.services.bulkOutbox.drain(), b.app.services.bulkOutbox.drain()]);
      await new Promise((r) => setTimeout(r, 500));
      const to = smtp.mails.map((m) => m.envelopeTo[0]).filter((address) => address?.includes(tag));
      expect(to.sort()).toEqual([...readers].sort());
      const sends = await a.query<{ action: string }>(
        `select action from audit_log where target = '${issue.id}' and action = 'newsletter.send'`,
      );
      expect(sends).toHaveLength(1);
    } finally {
      await a.app.close();
      await b.app.close();
      await smtp.close();
      await database.drop();
    }
  });
});
