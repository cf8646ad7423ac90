/**
 * Personal data as the privacy notice promises, over a real PostgreSQL database
 * of its own: a person found in every table and .eml file; the subject-access JSON holds every
 * row that names them; erasure leaves nothing of them anywhere and every later e-mail to them is
 * suppressed (the visitor still gets the normal answer); retention deletes exactly what the
 * notice says on dated rows and nothing younger, with the periods the notice itself states; CSV
 * exports are RFC 4180 with a BOM and neutralised formulas, streamed; nothing personal is logged.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETENTION, retentionNotice } from '../../src/content/retention';
import { formTypeLabels } from '../../src/contract/console';
import type { PersonView, RetentionView } from '../../src/contract/people';
import { retentionCopy } from '../../src/content/console';
import { privacySections } from '../../src/content/privacy';
import { createRetentionRunner, runRetention } from '../../src/server/console/retention';
import { PERSONAL_DATA } from '../../src/server/root/personal-data';
import { asOwner, type OwnerCall, signInOwner } from './owner-session';
import {
  bodies,
  bookableDate,
  type FormsTestApp,
  logCapture,
  makeFormsApp,
  OWNER,
  readyTokens,
  SECRET,
  testDrivers,
} from './forms-support';

/** The form type a People screen line names (its label). */
const formTypeOf = (label: string) =>
  Object.entries(formTypeLabels).find(([, text]) => text === label)?.[0] ?? label;

/** The owner's calls as `call(method, url, body)`. */
const owner = (as: OwnerCall) => (method: 'GET' | 'POST', url: string, body?: unknown) =>
  as(method, url, { body });

const drivers = await testDrivers('personal');

describe.each(drivers)('personal data on $name', (driver) => {
  let t: FormsTestApp;
  let drop: () => Promise<void>;
  let call: ReturnType<typeof owner>;
  let mailDir: string;
  const log = logCapture();

  beforeAll(async () => {
    const db = await driver.env();
    drop = db.drop;
    // No SMTP_URL: e-mails are .eml files, which the person's data includes.
    t = await makeFormsApp(db.env, { logger: log.logger });
    mailDir = join(t.dataDir, 'mail');
    call = owner(asOwner(t.app, await signInOwner(t.app)));
  });
  afterAll(async () => {
    await t?.app.close();
    await drop?.();
  });

  const emlMentioning = (text: string) =>
    existsSync(mailDir)
      ? readdirSync(mailDir).filter((f) =>
          readFileSync(join(mailDir, f), 'utf8').toLowerCase().includes(text.toLowerCase()),
        )
      : [];

  /** Rows of every table of the public schema whose text mentions `text`, by table. */
  async function tablesMentioning(text: string): Promise<Record<string, number>> {
    const tables = await t.query<{ table_name: string }>(
      `select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
    );
    const found: Record<string, number> = {};
    for (const { table_name } of tables) {
      const [row] = await t.query<{ n: number }>(
        `select count(*)::int as n from "${table_name}" x where x::text ilike '%${text}%'`,
      );
      if (row!.n > 0) found[table_name] = row!.n;
    }
    return found;
  }

  let booked = 0;
  async function sendEverything(email: string, lastName: string) {
    expect(
      (await t.post(bodies.contact({ email, lastName, message: `Please call ${lastName}` }))).statusCode,
    ).toBe(200);
    expect((await t.post(bodies.guide({ email, firstName: `Ada ${lastName}` }))).statusCode).toBe(200);
    expect((await t.post(bodies.newsletter({ email, lastName }))).statusCode).toBe(200);
    booked += 1;
    const day = bookableDate(booked);
    const booking = await t.post({
      formType: 'booking',
      sessionType: 'zoom',
      firstChoiceDate: day,
      firstChoiceTime: 'morning',
      secondChoiceDate: '',
      secondChoiceTime: '',
      firstName: 'Ada',
      lastName,
      email,
      phone: '+44 7700 900123',
      company: 'Engines Ltd',
      role: 'Partner',
      notes: '',
      website: '',
      formToken: readyTokens.booking,
    });
    expect(booking.statusCode).toBe(200);
    await t.app.services.outbox.drain();
  }

  it('finds a person everywhere, gives every row in one JSON file, and erases them for good', async () => {
    const email = `Erase.Me.${Date.now()}@Example.org`;
    const lower = email.toLowerCase();
    const surname = `Zyx${Date.now().toString(36)}`;
    await sendEverything(email, surname);
    expect(emlMentioning(lower).length).toBeGreaterThan(0);

    const found = (
      await call('GET', `/api/owner/people?email=${encodeURIComponent(email)}`)
    ).json() as PersonView;
    const section = (key: string) => found.sections.find((s) => s.key === key)?.items ?? [];
    const view = {
      submissions: section('submissions').map((s) => ({ formType: formTypeOf(s.text) })),
      consents: section('consents'),
      bookings: section('bookings'),
      subscriptions: section('subscriptions'),
      emails: section('emails'),
      emlFiles: section('emlFiles'),
      suppressed: found.suppressed,
    };
    expect(view.submissions.map((s) => s.formType).sort()).toEqual([
      'bitcoin_guide',
      'booking',
      'contact',
      'newsletter',
    ]);
    expect(view.consents.length).toBeGreaterThanOrEqual(2);
    expect(view.bookings).toHaveLength(1);
    expect(view.subscriptions).toHaveLength(1);
    expect(view.emails.length).toBeGreaterThanOrEqual(6);
    expect(view.emlFiles.length).toBe(view.emails.length);
    expect(view.suppressed).toBe(false);

    const file = await call('GET', `/api/owner/people/export.json?email=${encodeURIComponent(email)}`);
    expect(file.headers['content-disposition']).toMatch(
      /^attachment; filename="subject-access-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    const access = file.json() as Record<string, unknown[]> & { about: string };
    expect(access.about).toBe(lower);
    // Every row of every table that names them is in the file.
    const named = await tablesMentioning(lower);
    expect(Object.keys(named).sort()).toEqual(['newsletter_subscribers', 'outbox', 'submissions']);
    expect(access.submissions).toHaveLength(named.submissions!);
    expect(access.emails).toHaveLength(named.outbox!);
    expect(access.newsletter).toHaveLength(named.newsletter_subscribers!);
    expect(
      (access.emlFiles as { content: string }[]).every(
        (f) => f.content.toLowerCase().includes(lower) || f.content.includes(surname),
      ),
    ).toBe(true);
    expect(access.bookings).toHaveLength(1);
    expect(access.consents).toHaveLength(view.consents.length);

    const erased = await call('POST', '/api/owner/people/erase', { email });
    expect(erased.statusCode).toBe(200);
    expect((erased.json() as { counts: Record<string, number> }).counts).toMatchObject({
      submissions: 4,
      bookings: 1,
      subscriptions: 1,
      emails: view.emails.length,
      emlFiles: view.emlFiles.length,
    });
    expect(await tablesMentioning(lower)).toEqual({});
    expect(await tablesMentioning(surname)).toEqual({});
    expect(emlMentioning(lower)).toEqual([]);
    expect(emlMentioning(surname)).toEqual([]);
    const after = (
      await call('GET', `/api/owner/people?email=${encodeURIComponent(lower)}`)
    ).json() as PersonView;
    expect(after.sections.find((s) => s.key === 'submissions')!.items).toEqual([]);
    expect(after.suppressed).toBe(true);
    const suppressions = (await call('GET', '/api/owner/suppressions')).json() as {
      items: { hash: string; reason: string }[];
    };
    expect(suppressions.items.some((s) => s.reason === 'erased' && !s.hash.includes('@'))).toBe(true);

    // Suppressed: the guide form still answers as always, and the guide is not written to them;
    // the one e-mail they get asks them to confirm the address (decision 030).
    const again = await t.post(bodies.guide({ email, firstName: 'Ada' }));
    expect(again.statusCode).toBe(200);
    expect(again.json()).toHaveProperty('id');
    await t.app.services.outbox.drain();
    const rows = await t.query<{ kind: string; status: string }>(
      `select kind, status from outbox where lower(to_address) = '${lower}' order by id`,
    );
    expect(rows.map((r) => `${r.kind} ${r.status}`)).toEqual([
      'guide.visitor suppressed',
      'address.confirm sent',
    ]);
    const toThem = readdirSync(mailDir).filter((f) =>
      /^To: .*$/m
        .exec(readFileSync(join(mailDir, f), 'utf8'))?.[0]
        ?.toLowerCase()
        .includes(lower),
    );
    expect(toThem).toEqual([expect.stringMatching(/-address\.confirm\.eml$/)]);

    const audit = (await call('GET', '/api/owner/audit')).json() as {
      items: { action: string; target: string | null }[];
    };
    expect(audit.items.map((i) => i.action)).toEqual(
      expect.arrayContaining(['person.erase', 'person.export']),
    );
    expect(JSON.stringify(audit.items)).not.toContain(lower);
  });

  it('deletes exactly what the notice says on dated rows, and nothing younger', async () => {
    const tag = `ret${Date.now().toString(36)}`;
    const now = new Date();
    const seed = (formType: string, age: string, extra: Record<string, unknown> = {}, spam = false) =>
      t.query<{ id: string }>(`insert into submissions (id, form_type, fields, received_at, spam)
        values (gen_random_uuid(), '${formType}', '${JSON.stringify({ firstName: tag, email: `${tag}@example.org`, ...extra })}'::jsonb,
                now() - interval '${age}', ${spam}) returning id`);
    const [oldContact] = await seed('contact', '24 months 2 days');
    const [youngContact] = await seed('contact', '23 months');
    const [oldSpam] = await seed('bitcoin_guide', '31 days', {}, true);
    const [youngSpam] = await seed('bitcoin_guide', '29 days', {}, true);
    const [oldGuide] = await seed('bitcoin_guide', '3 years');
    const booking = async (age: string, sessionAgo: string | null, firstChoiceAgo: string) => {
      const [s] = await seed('booking', age);
      await t.query(`insert into bookings (id, submission_id, reference, status, session_type, first_choice_date, first_choice_time, session_date, session_start, session_end)
        values (gen_random_uuid(), '${s!.id}', 'BK-${Math.random().toString(36).slice(2, 8).toUpperCase()}',
                '${sessionAgo ? 'confirmed' : 'requested'}', 'zoom', (now() - interval '${firstChoiceAgo}')::date, 'morning',
                ${sessionAgo ? `(now() - interval '${sessionAgo}')::date, '09:00', '09:45'` : 'null, null, null'})`);
      return s!;
    };
    const oldSession = await booking('26 months', '24 months 3 days', '24 months 3 days');
    // Its history and a used link go with it, in the same statement as the booking and submission.
    await t.query(`insert into booking_status_events (booking_id, status, actor)
      select id, 'confirmed', 'owner' from bookings where submission_id = '${oldSession.id}'`);
    await t.query(`insert into booking_link_uses (token_id, booking_id, action)
      select 'tok-${tag}', id, 'confirm' from bookings where submission_id = '${oldSession.id}'`);
    const youngSession = await booking('26 months', '23 months', '26 months');
    const oldRequest = await booking('26 months', null, '24 months 3 days');
    await t.query(`insert into newsletter_subscribers (id, email, first_name, last_name, status, unsubscribed_at)
      values (gen_random_uuid(), 'gone.${tag}@example.org', 'Gone', '${tag}', 'unsubscribed', now()),
             (gen_random_uuid(), 'here.${tag}@example.org', 'Here', '${tag}', 'confirmed', null)`);
    const [oldMail] = await t.query<{
      id: number;
    }>(`insert into outbox (submission_id, kind, to_address, message, status, sent_at, created_at)
      values ('${youngContact!.id}', 'contact.owner', '${OWNER}', '{"subject":"About ${tag}","content":{"preheader":"","heading":"${tag}","blocks":[]}}', 'sent', now() - interval '31 days', now() - interval '31 days') returning id`);
    const [youngMail] = await t.query<{
      id: number;
    }>(`insert into outbox (submission_id, kind, to_address, message, status, sent_at, created_at)
      values ('${youngContact!.id}', 'contact.owner', '${OWNER}', '{"subject":"About ${tag}","content":{"preheader":"","heading":"${tag}","blocks":[]}}', 'sent', now() - interval '29 days', now() - interval '29 days') returning id`);
    const emlOf = (id: number) => join(mailDir, `${String(id).padStart(8, '0')}-contact.owner.eml`);
    writeFileSync(emlOf(Number(oldMail!.id)), `Subject: About ${tag}\r\n\r\n${tag}`);
    writeFileSync(emlOf(Number(youngMail!.id)), `Subject: About ${tag}\r\n\r\n${tag}`);

    const counts = await runRetention(
      {
        db: t.app.services.database.db,
        registry: PERSONAL_DATA,
        secret: SECRET,
        mailDir,
        consoleAddresses: [],
      },
      now,
      {
        batchSize: 2,
        pauseMs: 0,
      },
    );
    const left = new Set(
      (await t.query<{ id: string }>(`select id from submissions where fields->>'firstName' = '${tag}'`)).map(
        (r) => r.id,
      ),
    );
    expect(
      await t.query(`select 1 from bookings where submission_id = '${oldSession.id}'
        union all select 1 from booking_link_uses where token_id = 'tok-${tag}'`),
    ).toEqual([]);
    expect(left.has(oldContact!.id)).toBe(false);
    expect(left.has(oldSpam!.id)).toBe(false);
    expect(left.has(oldSession.id)).toBe(false);
    expect(left.has(oldRequest.id)).toBe(false);
    for (const kept of [youngContact!, youngSpam!, oldGuide!, youngSession])
      expect(left.has(kept.id)).toBe(true);
    expect(counts).toMatchObject({ contact: 1, spam: 1, bookings: 2, unsubscribed: 1 });
    expect(counts.emailBodies).toBeGreaterThanOrEqual(1);

    const subscribers = await t.query<{ email: string }>(
      `select email from newsletter_subscribers where last_name = '${tag}'`,
    );
    expect(subscribers.map((s) => s.email)).toEqual([`here.${tag}@example.org`]);
    const mails = await t.query<{ id: number; subject: string; removed: boolean }>(
      `select id, message->>'subject' as subject, body_removed_at is not null as removed from outbox where id in (${oldMail!.id}, ${youngMail!.id}) order by id`,
    );
    expect(mails).toEqual([
      { id: oldMail!.id, subject: '', removed: true },
      { id: youngMail!.id, subject: `About ${tag}`, removed: false },
    ]);
    expect(existsSync(emlOf(Number(oldMail!.id)))).toBe(false);
    expect(existsSync(emlOf(Number(youngMail!.id)))).toBe(true);

    // A second run finds nothing more; the console lists both runs with their counts.
    const second = await runRetention(
      {
        db: t.app.services.database.db,
        registry: PERSONAL_DATA,
        secret: SECRET,
        mailDir,
        consoleAddresses: [],
      },
      now,
    );
    expect(second).toMatchObject({ contact: 0, spam: 0, bookings: 0, unsubscribed: 0 });
    const view = (await call('GET', '/api/owner/retention')).json() as RetentionView;
    expect(view.periods).toContain(retentionCopy.contact(RETENTION.contactMonths));
    expect(view.runs[1]!.counts).toMatchObject({ contact: 1, spam: 1 });
  });

  it('"Run now" answers at once; a second press joins the run; the page follows it to its counts', async () => {
    const tag = `run${Date.now().toString(36)}`;
    // 2,000 rows due: 40 batches of 50 with a pause after each, long enough to be seen running.
    await t.query(`insert into submissions (id, form_type, fields, received_at, spam)
      select gen_random_uuid(), 'contact', jsonb_build_object('firstName', '${tag}', 'email', '${tag}' || n || '@example.org'),
             now() - interval '40 days', true from generate_series(1, 2000) n`);
    const first = await call('POST', '/api/owner/retention/run');
    expect(first.statusCode).toBe(202);
    const { runId, started } = first.json() as { runId: number; started: boolean };
    expect(started).toBe(true);
    const again = await call('POST', '/api/owner/retention/run');
    expect(again.statusCode).toBe(202);
    expect(again.json()).toEqual({ ok: true, runId, started: false });

    type View = {
      running: number | null;
      runs: {
        id: number;
        finishedAt: string | null;
        interrupted: boolean;
        counts: Record<string, number> | null;
      }[];
    };
    const during = (await call('GET', '/api/owner/retention')).json() as View;
    expect(during.running).toBe(runId);
    expect(during.runs[0]).toMatchObject({ id: runId, finishedAt: null, counts: null });

    await expect
      .poll(async () => ((await call('GET', '/api/owner/retention')).json() as View).running, {
        timeout: 60_000,
      })
      .toBeNull();
    const after = (await call('GET', '/api/owner/retention')).json() as View;
    expect(after.runs[0]).toMatchObject({ id: runId, interrupted: false });
    expect(after.runs[0]!.finishedAt).not.toBeNull();
    expect(after.runs[0]!.counts!.spam).toBeGreaterThanOrEqual(2000);
    const [left] = await t.query<{ n: number }>(
      `select count(*)::int as n from submissions where fields->>'firstName' = '${tag}'`,
    );
    expect(left!.n).toBe(0);
    // One audit entry for the one run, naming the run, not what it removed.
    const audit = (await call('GET', '/api/owner/audit')).json() as {
      items: { action: string; target: string | null }[];
    };
    expect(
      audit.items.filter((i) => i.action === 'retention.run' && i.target === String(runId)),
    ).toHaveLength(1);
  });

  it('a run under way in another instance is shown as running and joined; one that went silent is not', async () => {
    type View = { running: number | null; runs: { id: number; counts: unknown }[] };
    // Another instance's run: started, unfinished, alive 10 seconds ago.
    const [other] = await t.query<{ id: number }>(
      `insert into retention_runs (started_at, alive_at) values (now() - interval '3 minutes', now() - interval '10 seconds') returning id::int as id`,
    );
    const view = (await call('GET', '/api/owner/retention')).json() as View;
    expect(view.running).toBe(other!.id);
    const pressed = await call('POST', '/api/owner/retention/run');
    expect(pressed.statusCode).toBe(202);
    expect(pressed.json()).toEqual({ ok: true, runId: other!.id, started: false });
    expect(
      (await t.query(`select id from retention_runs where id > ${other!.id}`)).length,
      'no second run started',
    ).toBe(0);

    // Silent for two minutes: its instance died. Not running; "Run now" starts a run here.
    await t.query(
      `update retention_runs set alive_at = now() - interval '2 minutes' where id = ${other!.id}`,
    );
    const after = (await call('GET', '/api/owner/retention')).json() as View;
    expect(after.running).toBeNull();
    expect(after.runs.find((r) => r.id === other!.id)).toMatchObject({ counts: null });
    const started = (await call('POST', '/api/owner/retention/run')).json() as {
      runId: number;
      started: boolean;
    };
    expect(started.started).toBe(true);
    expect(started.runId).toBeGreaterThan(other!.id);
    await expect
      .poll(async () => ((await call('GET', '/api/owner/retention')).json() as View).running, {
        timeout: 60_000,
      })
      .toBeNull();
  });

  it('a run says it is alive between batches while it goes on', async () => {
    const tag = `alive${Date.now().toString(36)}`;
    await t.query(`insert into submissions (id, form_type, fields, received_at, spam)
      select gen_random_uuid(), 'contact', jsonb_build_object('firstName', '${tag}'),
             now() - interval '40 days', true from generate_series(1, 100) n`);
    let runId = 0;
    const seen: string[] = [];
    const run = runRetention(
      {
        db: t.app.services.database.db,
        registry: PERSONAL_DATA,
        secret: SECRET,
        mailDir,
        consoleAddresses: [],
      },
      new Date(),
      {
        batchSize: 10,
        pauseMs: 30,
        aliveEveryMs: 0,
        onStarted: (id) => (runId = id),
      },
    );
    // Read while it runs: each sign of life is later than the one before.
    for (let i = 0; i < 4; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 60));
      const [row] = await t.query<{ alive: string | null; finished: boolean }>(
        `select alive_at::text as alive, finished_at is not null as finished from retention_runs where id = ${runId}`,
      );
      if (row && !row.finished && row.alive) seen.push(row.alive);
    }
    await run;
    expect(new Set(seen).size, `alive_at while running: ${seen.join(', ')}`).toBeGreaterThan(1);
  });

  it('a run stopped by the server shutting down ends between batches, marked as stopped early', async () => {
    const tag = `stop${Date.now().toString(36)}`;
    await t.query(`insert into submissions (id, form_type, fields, received_at, spam)
      select gen_random_uuid(), 'contact', jsonb_build_object('firstName', '${tag}'),
             now() - interval '40 days', true from generate_series(1, 200) n`);
    const runner = createRetentionRunner(
      {
        db: t.app.services.database.db,
        registry: PERSONAL_DATA,
        secret: SECRET,
        mailDir,
        consoleAddresses: [],
        log: t.app.log,
      },
      { batchSize: 10, pauseMs: 50 },
    );
    const { runId, done } = await runner.start();
    expect(runner.current()).toBe(runId);
    await new Promise((resolve) => setTimeout(resolve, 120));
    await runner.stop();
    expect(await done).toBeNull();
    expect(runner.current()).toBeNull();
    await expect(runner.start()).rejects.toThrow('shutting down');
    const [run] = await t.query<{ finished: boolean; interrupted: boolean; spam: number }>(
      `select finished_at is not null as finished, interrupted, (counts->>'spam')::int as spam from retention_runs where id = ${runId}`,
    );
    expect(run).toMatchObject({ finished: true, interrupted: true });
    const [left] = await t.query<{ n: number }>(
      `select count(*)::int as n from submissions where fields->>'firstName' = '${tag}'`,
    );
    // Some batches went, not all; the count recorded is what went.
    expect(left!.n).toBeGreaterThan(0);
    expect(left!.n).toBeLessThan(200);
    expect(run!.spam).toBe(200 - left!.n);
  });

  it('exports an inbox view as RFC 4180 CSV with a BOM, formulas neutralised, filtered as the screen', async () => {
    const tag = `csv${Date.now().toString(36)}`;
    const risky = ['=HYPERLINK("http://evil")', '+44 7700', '-2+3', '@SUM(A1)', '\tTabbed', '\rReturn'];
    for (const [i, value] of risky.entries()) {
      await t.query(`insert into submissions (id, form_type, fields, received_at) values
        (gen_random_uuid(), 'contact', '${JSON.stringify({ firstName: value, lastName: `${tag}${i}`, email: `c${i}@example.org`, company: 'A, "B" & C', message: 'two\nlines' }).replace(/'/g, "''")}'::jsonb, now() - interval '${i} minutes')`);
    }
    await t.query(
      `insert into submissions (id, form_type, fields) values (gen_random_uuid(), 'newsletter', '{"firstName":"${tag}","lastName":"Other","email":"n@example.org"}')`,
    );
    const res = await call('GET', `/api/owner/exports/submissions.csv?form=contact&q=${tag}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="submissions-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(res.body).toContain('\r\n');
    const rows = parse(res.body, { bom: true, columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(risky.length);
    expect(rows.map((r) => r['First name'])).toEqual(risky.map((v) => `'${v}`));
    expect(rows[0]!.Company).toBe('A, "B" & C');
    expect(rows[0]!.Message).toBe('two\nlines');
    expect(rows.every((r) => r.Form === 'contact' && r.Status === 'received')).toBe(true);
    expect(rows.map((r) => r['Received at (UTC)'])).toEqual(
      rows.map((r) => new Date(r['Received at (UTC)']!).toISOString()),
    );
    expect(rows.every((r) => /^[0-9a-f-]{36}$/.test(r.Id!))).toBe(true);

    const subs = await call('GET', '/api/owner/exports/subscribers.csv');
    expect(subs.statusCode).toBe(200);
    const header = subs.body.replace(/^\uFEFF/, '').split('\r\n')[0];
    expect(header).toBe('Email,First name,Last name,Confirmed at (UTC)');
  });

  it('exports a large view whole, read in keyset batches (its memory is measured by npm run bench)', async () => {
    const tag = `big${Date.now().toString(36)}`;
    const count = 40_000;
    await t.query(`insert into submissions (id, form_type, fields, received_at)
      select gen_random_uuid(), 'newsletter', jsonb_build_object('firstName', '${tag}', 'lastName', 'Reader ' || n, 'email', 'r' || n || '@example.org'),
             now() - make_interval(secs => n)
      from generate_series(1, ${count}) as n`);
    const res = await call('GET', `/api/owner/exports/submissions.csv?form=newsletter&q=${tag}`);
    const lines = res.body.split('\r\n').filter((l) => l !== '');
    expect(lines).toHaveLength(count + 1);
    expect(new Set(lines.slice(1).map((l) => l.split(',')[0])).size).toBe(count);
  });

  it('logs no address, name or message', () => {
    const all = log.lines.join('\n');
    expect(all).not.toMatch(/@example\.org/i);
    expect(all).not.toContain(OWNER);
    expect(all).not.toMatch(/Zyx|Please call/);
    expect(all).toContain('person erased');
  });
});

describe('the retention periods: one place, read by the privacy notice and the job', () => {
  it('the notice states the periods the job uses', () => {
    const section = privacySections.find((s) => s.id === 'retention')!;
    const items = section.blocks.flatMap((b) => ('items' in b ? [...b.items] : []));
    expect(items).toEqual(expect.arrayContaining(retentionNotice(RETENTION)));
    expect(items.join(' ')).toContain(`${RETENTION.contactMonths} months`);
  });

  it('a changed period changes both what the notice says and what the job deletes', async () => {
    const changed = { ...RETENTION, spamDays: 45, contactMonths: 36 };
    const notice = retentionNotice(changed).join(' ');
    expect(notice).toContain('45 days');
    expect(notice).toContain('36 months');
    expect(notice).not.toContain(`${RETENTION.spamDays} days after they reach us`);

    const t = await makeFormsApp();
    try {
      const db = t.app.services.database.db;
      await t.query(`insert into submissions (id, form_type, fields, received_at, spam) values
        (gen_random_uuid(), 'contact', '{"firstName":"s40"}', now() - interval '40 days', true),
        (gen_random_uuid(), 'contact', '{"firstName":"c30"}', now() - interval '30 months', false)`);
      const mailDir = join(t.dataDir, 'mail');
      expect(
        await runRetention(
          { db: db, registry: PERSONAL_DATA, secret: SECRET, mailDir, consoleAddresses: [] },
          new Date(),
          {
            periods: changed,
          },
        ),
      ).toMatchObject({
        spam: 0,
        contact: 0,
      });
      expect(
        await runRetention(
          { db: db, registry: PERSONAL_DATA, secret: SECRET, mailDir, consoleAddresses: [] },
          new Date(),
        ),
      ).toMatchObject({ spam: 1, contact: 1 });
    } finally {
      await t.app.close();
    }
  });
});
