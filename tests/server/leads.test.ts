/**
 * Leads to work on (issue #27 item 6, decision 040), on PostgreSQL with a real SMTP
 * peer: a lead is new until answered; the owner (or a helper) keeps notes about it and replies by
 * e-mail from the business's address with the lead's message quoted; the reply arrives once at
 * the lead's address and the lead shows as replied; the inbox filters by where leads stand; the
 * fields read as words in reading order; notes and replies are the lead's personal data (found,
 * exported, erased with them); a lead in spam cannot be answered; every action is audited without
 * the lead's address or words; bad input is a 400 that stores nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TREND_WEEKS,
  type Overview,
  type SubmissionDetail,
  type SubmissionPage,
} from '../../src/contract/console';
import { ukLocalInput } from '../../src/features/events/event-times';
import { NOT_A_LEAD } from '../../src/contract/leads';
import type { PersonView } from '../../src/contract/people';
import {
  bodies,
  OWNER,
  bookableDate,
  makeFormsApp,
  startSmtpPeer,
  testDrivers,
  until,
  type FormsTestApp,
  type SmtpPeer,
} from './forms-support';
import { asOwner, signInOwner, type OwnerCall } from './owner-session';

const drivers = await testDrivers('leads');
const HELPER = 'grace@sterling.test';

describe.each(drivers)('leads on $name', (driver) => {
  let t: FormsTestApp;
  let smtp: SmtpPeer;
  let drop: () => Promise<void>;
  let owner: OwnerCall;
  let helper: OwnerCall;
  let n = 0;

  beforeAll(async () => {
    smtp = await startSmtpPeer();
    const db = await driver.env();
    drop = db.drop;
    t = await makeFormsApp({ SMTP_URL: smtp.url, HELPER_EMAILS: `Grace <${HELPER}>`, ...db.env });
    owner = asOwner(t.app, await signInOwner(t.app));
    helper = asOwner(t.app, await signInOwner(t.app, HELPER));
  });
  afterAll(async () => {
    await t?.app.close();
    await smtp?.close();
    await drop?.();
  });

  /** A contact message from a new address: its id and the address. */
  async function lead(over: Record<string, unknown> = {}) {
    n += 1;
    const email = `lead${n}@example.org`;
    const res = await t.post(bodies.contact({ email, ...over }));
    expect(res.statusCode).toBe(200);
    return { id: (res.json() as { id: string }).id, email };
  }
  const detail = async (id: string) => {
    const res = await owner('GET', `/api/owner/submissions/${id}`);
    expect(res.statusCode).toBe(200);
    return res.json() as SubmissionDetail;
  };
  const audited = (action: string, target: string) =>
    t.query<{ actor: string; detail: unknown }>(
      `select actor, detail from audit_log where action = '${action}' and target = '${target}'`,
    );

  it('a new lead is new; the owner marks it handled and back, each change audited', async () => {
    const { id } = await lead();
    expect((await detail(id)).state).toBe('new');

    const handled = await owner('POST', `/api/owner/submissions/${id}/state`, { body: { state: 'handled' } });
    expect(handled.statusCode).toBe(200);
    expect(handled.json()).toEqual({ ok: true, state: 'handled' });
    expect((await detail(id)).state).toBe('handled');

    await owner('POST', `/api/owner/submissions/${id}/state`, { body: { state: 'new' } });
    expect((await detail(id)).state).toBe('new');
    const rows = await audited('submission.state', id);
    expect(rows.map((r) => r.detail)).toEqual([{ state: 'handled' }, { state: 'new' }]);
  });

  it('the inbox lists each lead with where it stands and filters by it', async () => {
    const a = await lead();
    const b = await lead();
    await owner('POST', `/api/owner/submissions/${b.id}/state`, { body: { state: 'handled' } });

    const page = async (query: string) =>
      ((await owner('GET', `/api/owner/submissions?${query}`)).json() as SubmissionPage).items;
    const newOnes = await page('state=new');
    expect(newOnes.map((i) => i.id)).toContain(a.id);
    expect(newOnes.map((i) => i.id)).not.toContain(b.id);
    expect(newOnes.every((i) => i.state === 'new')).toBe(true);
    const handled = await page('state=handled');
    expect(handled.map((i) => i.id)).toContain(b.id);
    expect(handled.every((i) => i.state === 'handled')).toBe(true);

    const bad = await owner('GET', '/api/owner/submissions?state=done');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ error: 'The state filter is not valid.' });
  });

  it('only a message and a session request are leads; a reply makes any other submission one', async () => {
    n += 1;
    const sent = async (body: Record<string, unknown>) => {
      const res = await t.post(body);
      expect(res.statusCode).toBe(200);
      return (res.json() as { id: string }).id;
    };
    const overview = async () => (await owner('GET', '/api/owner/overview')).json() as Overview;
    const thisWeek = async () => (await overview()).weeks.at(-1)!.count;
    const before = await thisWeek();
    const contact = await sent(bodies.contact({ email: `only${n}c@example.org` }));
    const booking = await sent(bodies.booking(bookableDate(4), { email: `only${n}b@example.org` }));
    const guide = await sent(bodies.guide({ email: `only${n}g@example.org` }));
    const signUp = await sent(bodies.newsletter({ email: `only${n}n@example.org` }));

    expect((await detail(contact)).state).toBe('new');
    expect((await detail(booking)).state).toBe('new');
    expect((await detail(guide)).state).toBeNull();
    expect((await detail(signUp)).state).toBeNull();

    const page = async (query: string) =>
      ((await owner('GET', `/api/owner/submissions?${query}`)).json() as SubmissionPage).items.map((i) => i.id);
    const newOnes = await page('state=new');
    expect(newOnes).toEqual(expect.arrayContaining([contact, booking]));
    expect(newOnes).not.toContain(guide);
    expect(newOnes).not.toContain(signUp);
    // Still in the inbox, and in its form's list.
    expect(await page('form=newsletter')).toContain(signUp);
    const latest = (await overview()).latestLeads.map((l) => l.id);
    // Leads a week counts the two leads alone.
    expect(await thisWeek()).toBe(before + 2);
    expect(latest).toContain(contact);
    expect(latest).not.toContain(guide);
    expect(latest).not.toContain(signUp);

    const reply = await owner('POST', `/api/owner/submissions/${guide}/reply`, {
      body: { subject: 'Your guide', text: 'Did the guide answer your questions?', quote: false },
    });
    expect(reply.statusCode).toBe(200);
    expect((await detail(guide)).state).toBe('replied');
  });

  it('a note is kept with the lead, by name, and audited without its words', async () => {
    const { id } = await lead();
    const res = await helper('POST', `/api/owner/submissions/${id}/notes`, {
      body: { text: '  Called back on Tuesday; wants dates in March.  ' },
    });
    expect(res.statusCode).toBe(200);
    const { note } = res.json() as { note: SubmissionDetail['notes'][number] };
    expect(note).toMatchObject({
      kind: 'note',
      who: 'Grace',
      text: 'Called back on Tuesday; wants dates in March.',
    });

    const item = await detail(id);
    expect(item.notes).toEqual([note]);
    expect(item.state).toBe('new');
    const rows = await audited('submission.note', id);
    expect(rows).toEqual([{ actor: HELPER, detail: null }]);
  });

  it('a reply is e-mailed once to the lead from the business, their message quoted, and the lead is replied', async () => {
    const { id, email } = await lead({ firstName: 'Ada', lastName: 'Lovelace' });
    const res = await owner('POST', `/api/owner/submissions/${id}/reply`, {
      body: {
        subject: 'Re: your message to Sterling Sats',
        text: 'Dear Ada,\n\nThank you: a workshop on a Thursday suits us.\n\nBest wishes',
        quote: true,
      },
    });
    expect(res.statusCode).toBe(200);

    const mail = await until(() =>
      smtp.mails.find(
        (m) => m.envelopeTo.includes(email) && m.header('subject') === 'Re: your message to Sterling Sats',
      ),
    );
    expect(mail.envelopeFrom).toBe('hello@sterling.test');
    expect(mail.header('from')).toContain('hello@sterling.test');
    // No contact e-mail in Business details yet: the answer comes to whoever replied.
    expect(mail.header('reply-to')).toBe(OWNER);
    expect(mail.text).toContain('Thank you: a workshop on a Thursday suits us.');
    expect(mail.text).toContain('Ada Lovelace wrote:');
    expect(mail.text?.replace(/\r\n/g, '\n')).toContain(
      '> We would like a workshop for 8 advisers.\n> Thursdays suit us.',
    );
    expect(mail.html).toContain('Thank you: a workshop on a Thursday suits us.');

    const item = await detail(id);
    expect(item.state).toBe('replied');
    expect(item.notes).toHaveLength(1);
    expect(item.notes[0]).toMatchObject({
      kind: 'reply',
      subject: 'Re: your message to Sterling Sats',
    });
    expect(item.notes[0]!.who).not.toContain('@');
    // Its delivery is one of the lead's e-mails, sent.
    const sent = await until(async () => {
      const emails = (await detail(id)).emails;
      const reply = emails.find((e) => e.id === item.notes[0]!.emailId);
      return reply?.status === 'sent' ? reply : undefined;
    });
    expect(sent.to).toBe(email);
    expect(smtp.mails.filter((m) => m.envelopeTo.includes(email))).toHaveLength(1);
    expect(await audited('submission.reply', id)).toHaveLength(1);
  });

  it('without a quote the lead’s words are not in the reply; the answer goes to the business’s contact e-mail', async () => {
    await t.query(
      `insert into business_details (id, name, email, address, testimonials, updated_by)
       values (1, 'Sterling Sats Ltd', 'office@sterling-sats.test', '["1 Bank Street", "London"]', '[]', 'test')`,
    );
    try {
      const { id, email } = await lead({ message: 'Please do not quote me back.' });
      await owner('POST', `/api/owner/submissions/${id}/reply`, {
        body: { subject: 'Thank you', text: 'We will be in touch.', quote: false },
      });
      const mail = await until(() => smtp.mails.find((m) => m.envelopeTo.includes(email)));
      expect(mail.text).toContain('We will be in touch.');
      expect(mail.text).not.toContain('Please do not quote me back.');
      // Sent from the site's address, answered to the business's mailbox.
      expect(mail.envelopeFrom).toBe('hello@sterling.test');
      expect(mail.header('reply-to')).toBe('office@sterling-sats.test');
    } finally {
      await t.query(`delete from business_details`);
    }
  });

  it('refuses bad input with a sentence per field, and stores and sends nothing', async () => {
    const { id, email } = await lead();
    const cases: [unknown, string][] = [
      [{ subject: '', text: 'Hello' }, 'subject'],
      [{ subject: 'Hi\r\nBcc: victim@example.net', text: 'Hello' }, 'subject'],
      [{ subject: 'Hi', text: '   ' }, 'text'],
      [{ subject: 'Hi', text: 'x'.repeat(10_001) }, 'text'],
      [{ subject: 'Hi', text: 'Hello', quote: 'yes' }, 'quote'],
      [{ subject: 'Hi', text: 'Hello\u0000there' }, 'text'],
    ];
    for (const [body, field] of cases) {
      const res = await owner('POST', `/api/owner/submissions/${id}/reply`, { body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      const answer = res.json() as { error: string; fieldErrors: Record<string, string> };
      expect(answer.fieldErrors[field]).toMatch(/[.!?]$/);
    }
    const note = await owner('POST', `/api/owner/submissions/${id}/notes`, { body: { text: '' } });
    expect(note.statusCode).toBe(400);
    expect(note.json()).toMatchObject({ fieldErrors: { text: 'Please write the note.' } });
    const state = await owner('POST', `/api/owner/submissions/${id}/state`, { body: { state: 'done' } });
    expect(state.statusCode).toBe(400);

    const item = await detail(id);
    expect(item.notes).toEqual([]);
    expect(item.state).toBe('new');
    expect(item.emails.filter((e) => e.to === email)).toEqual([]);
    // A right-to-left override cannot turn the subject around (decision 031): it is taken out.
    const turned = await owner('POST', `/api/owner/submissions/${id}/reply`, {
      body: { subject: 'Invoice \u202Efdp.exe', text: 'Hello' },
    });
    expect(turned.statusCode).toBe(200);
    expect((turned.json() as { note: { subject: string } }).note.subject).toBe('Invoice fdp.exe');
    const gone = await owner('POST', '/api/owner/submissions/00000000-0000-4000-8000-000000000000/notes', {
      body: { text: 'Hello' },
    });
    expect(gone.statusCode).toBe(404);
  });

  it('a submission in spam is not a lead to answer', async () => {
    const { id } = await lead();
    await owner('POST', `/api/owner/submissions/${id}/mark-spam`);
    for (const [path, body] of [
      ['reply', { subject: 'Hi', text: 'Hello' }],
      ['notes', { text: 'A note' }],
      ['state', { state: 'handled' }],
    ] as const) {
      const res = await owner('POST', `/api/owner/submissions/${id}/${path}`, { body });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ error: NOT_A_LEAD });
    }
    expect((await detail(id)).notes).toEqual([]);
  });

  it('fields read as words, first name first', async () => {
    const { id } = await lead({ subject: 'consulting' });
    const fields = (await detail(id)).fields;
    expect(fields.find((f) => f.name === 'Subject')?.value).toBe('Consulting');
    const names = fields.map((f) => f.name);
    expect(names.indexOf('First name')).toBeLessThan(names.indexOf('Last name'));
    expect(names.indexOf('Last name')).toBeLessThan(names.indexOf('Email'));

    n += 1;
    const booking = await t.post(
      bodies.booking(bookableDate(3), { email: `booker${n}@example.org`, sessionType: 'zoom' }),
    );
    expect(booking.statusCode).toBe(200);
    const bookingFields = (await detail((booking.json() as { id: string }).id)).fields;
    const value = (name: string) => bookingFields.find((f) => f.name === name)?.value;
    expect(value('Session format')).toBe('Live Zoom Workshop');
    expect(value('First choice time')).toMatch(/^(Morning \(9am-12pm\)|Afternoon \(1pm-5pm\))$/);
    expect(value('First choice date')).toMatch(/^[A-Z][a-z]+day \d{1,2} [A-Z][a-z]+ \d{4}$/);
  });

  it('notes and replies are the lead’s personal data: listed, exported and erased with them', async () => {
    const { id, email } = await lead();
    await owner('POST', `/api/owner/submissions/${id}/notes`, { body: { text: 'Prefers mornings.' } });
    await owner('POST', `/api/owner/submissions/${id}/reply`, {
      body: { subject: 'Thanks', text: 'Noted.' },
    });
    await until(() => smtp.mails.find((m) => m.envelopeTo.includes(email)));

    const person = await owner('GET', `/api/owner/people?email=${encodeURIComponent(email)}`);
    expect(person.statusCode).toBe(200);
    const found = person.json() as PersonView;
    expect(found.sections.find((s) => s.key === 'leadNotes')?.items).toHaveLength(2);

    const file = await owner('GET', `/api/owner/people/export.json?email=${encodeURIComponent(email)}`);
    expect(file.statusCode).toBe(200);
    const access = file.json() as Record<string, { body: string }[]>;
    expect(access['notes and replies']?.map((note) => note.body).sort()).toEqual([
      'Noted.',
      'Prefers mornings.',
    ]);

    const erased = await owner('POST', '/api/owner/people/erase', { body: { email } });
    expect(erased.statusCode).toBe(200);
    expect(await t.query(`select id from lead_notes where submission_id = '${id}'`)).toEqual([]);
  });
});

describe.each(drivers)('the overview on $name', (driver) => {
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

  it('shows the latest leads, what comes next, and leads a week', async () => {
    const sent: string[] = [];
    for (const i of [1, 2, 3]) {
      const res = await t.post(bodies.contact({ email: `week${i}@example.org`, lastName: `Week${i}` }));
      sent.push((res.json() as { id: string }).id);
    }
    const held = await t.post(bodies.contact({ email: 'held@example.org', website: 'http://spam.example' }));
    // Last week's lead, and one from ten weeks ago that falls outside the trend.
    await t.query(`update submissions set received_at = now() - interval '7 days' where id = '${sent[0]}'`);
    await t.query(`update submissions set received_at = now() - interval '70 days' where id = '${sent[1]}'`);

    const start = new Date(Date.now() + 3 * 86_400_000);
    const event = await owner('POST', '/api/owner/events', {
      body: {
        title: 'Custody for Advisers',
        summary: 'A live session on keeping Bitcoin safe for clients, with time for questions at the end.',
        startsAt: ukLocalInput(start),
        endsAt: ukLocalInput(new Date(start.getTime() + 90 * 60_000)),
        mode: 'online',
        place: '',
        joinUrl: 'https://meet.example.net/j/overview',
        capacity: 20,
        registrationOpensAt: '',
        registrationClosesAt: '',
      },
    });
    expect(event.statusCode).toBe(200);
    const eventId = (event.json() as { id: string }).id;
    expect((await owner('POST', `/api/owner/events/${eventId}/publish`)).statusCode).toBe(200);

    const res = await owner('GET', '/api/owner/overview');
    expect(res.statusCode).toBe(200);
    const view = res.json() as Overview;

    // Newest first, spam left out, each with where it stands.
    expect(view.latestLeads.map((l) => l.id)).toEqual([sent[2], sent[0], sent[1]]);
    expect(view.latestLeads[0]).toMatchObject({ name: 'Ada Week3', state: 'new' });
    expect(view.latestLeads.map((l) => l.id)).not.toContain((held.json() as { id: string }).id);

    expect(view.nextUp).toEqual([
      expect.objectContaining({
        summary: 'Masterclass: Custody for Advisers',
        consolePath: `events/${eventId}`,
      }),
    ]);

    expect(view.weeks).toHaveLength(TREND_WEEKS);
    expect(view.weeks.at(-1)?.count).toBe(1);
    expect(view.weeks.at(-2)?.count).toBe(1);
    expect(view.weeks.reduce((n, w) => n + w.count, 0)).toBe(2);
    // Mondays, a week apart, the last this week's.
    const mondays = view.weeks.map((w) => new Date(`${w.start}T12:00:00Z`).getUTCDay());
    expect(new Set(mondays)).toEqual(new Set([1]));
  });
});
