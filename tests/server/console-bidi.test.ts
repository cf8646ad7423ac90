/**
 * Right-to-left overrides and the other bidirectional controls (decision 031), on
 * PostgreSQL: a name typed with them is stored and mailed without them, and a row stored with them
 * before (or written by any other way) reaches the console without them: the owner's screen and
 * the e-mails' subjects show a name as it reads, never turned around.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIDI_CONTROLS as ANY_CONTROL } from '../../src/lib/bidi';
import {
  bodies,
  type FormsTestApp,
  makeFormsApp,
  type SmtpPeer,
  startSmtpPeer,
  testDrivers,
  until,
} from './forms-support';
import { asOwner, type OwnerCall, signInOwner } from './owner-session';

const drivers = await testDrivers('console_bidi');
const RLO = '\u202E';
const CONTROL = new RegExp(ANY_CONTROL.source);

describe.each(drivers)('bidirectional controls in names and subjects, on $name', (driver) => {
  let t: FormsTestApp;
  let smtp: SmtpPeer;
  let drop: () => Promise<void>;
  let owner: OwnerCall;

  beforeAll(async () => {
    const db = await driver.env();
    drop = db.drop;
    smtp = await startSmtpPeer();
    t = await makeFormsApp({ ...db.env, SMTP_URL: smtp.url });
    owner = asOwner(t.app, await signInOwner(t.app));
  });
  afterAll(async () => {
    await t?.app.close();
    await smtp?.close();
    await drop?.();
  });

  it('are taken out of a name as it arrives, and out of the subject it is mailed in', async () => {
    const res = await t.post(
      bodies.contact({
        firstName: `Ada${RLO}gnp.exe`,
        lastName: `Love\u2066lace\u2069`,
        company: `Engines\u200F Ltd\u061C`,
        email: 'bidi@example.org',
      }),
    );
    expect(res.statusCode).toBe(200);
    const { id } = res.json() as { id: string };
    const [stored] = await t.query<{ fields: Record<string, string> }>(
      `select fields from submissions where id = '${id}'`,
    );
    const fields = typeof stored!.fields === 'string' ? JSON.parse(stored!.fields) : stored!.fields;
    expect(fields).toMatchObject({ firstName: 'Adagnp.exe', lastName: 'Lovelace', company: 'Engines Ltd' });
    const mails = await until(async () =>
      smtp.mails.filter((m) => (m.header('subject') ?? '').includes('Adagnp.exe')),
    );
    for (const mail of mails) expect(mail.header('subject')).not.toMatch(CONTROL);
  });

  it('never reach the console, from a row stored with them', async () => {
    const res = await t.post(bodies.contact({ firstName: 'Grace', email: 'old-row@example.org' }));
    const { id } = res.json() as { id: string };
    await t.query(
      `update submissions set fields = jsonb_set(fields::jsonb, '{firstName}', to_jsonb('Grace${RLO}fdp.exe'::text)) where id = '${id}'`,
    );
    const list = await owner('GET', '/api/owner/submissions?q=old-row');
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain('Gracefdp.exe');
    expect(list.body).not.toMatch(/\\u202e/i);
    expect(list.body).not.toMatch(CONTROL);
    const detail = await owner('GET', `/api/owner/submissions/${id}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.body).toContain('Gracefdp.exe');
    expect(detail.body).not.toMatch(CONTROL);
    const people = await owner('GET', '/api/owner/people?email=old-row@example.org');
    expect(people.body).not.toMatch(CONTROL);
  });
});
