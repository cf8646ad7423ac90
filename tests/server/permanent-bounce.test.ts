/**
 * A recipient the relay refuses for good, through the real app and a real SMTP peer, on
 * PostgreSQL: a 550 at RCPT TO fails the e-mail after its one attempt (never due again, its
 * recipient mark freed, logged by id and code), and the overview raises no site-wide warning for
 * it; a 451 there is tried again later, and warned of; a relay that refuses connections is warned
 * of too. The warnings say the cause in words.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueEmails, type OutgoingEmail } from '../../src/server/kit/mail/outbox';
import {
  bodies,
  type FormsTestApp,
  logCapture,
  makeFormsApp,
  type SmtpPeer,
  startSmtpPeer,
  testDrivers,
  until,
} from './forms-support';
import { asOwner, signInOwner } from './owner-session';

const REFUSED = '@nowhere.test';
const LATER = '@busy.test';

type Row = {
  id: string;
  status: string;
  attempts: number;
  last_error: string | null;
  due_later: boolean;
};

const visitorEmail = (to: string): OutgoingEmail => ({
  kind: 'bounce.visitor',
  audience: 'visitor',
  to,
  subject: 'Your guide',
  content: { preheader: 'p', heading: 'H', blocks: [] },
});

const drivers = await testDrivers('bounce');

describe.each(drivers)('a recipient refused by the relay, on $name', (driver) => {
  let t: FormsTestApp;
  let smtp: SmtpPeer;
  let drop: () => Promise<void>;
  const log = logCapture();

  beforeAll(async () => {
    smtp = await startSmtpPeer();
    smtp.refuseRecipients((address) => address.endsWith(REFUSED), 550);
    const db = await driver.env();
    drop = db.drop;
    // The default retry schedule: a retried e-mail is due again 25 s later, after these tests.
    t = await makeFormsApp({ SMTP_URL: smtp.url, ...db.env }, { logger: log.logger });
  });
  afterAll(async () => {
    await t?.app.close();
    await smtp?.close();
    await drop?.();
  });

  const rowsTo = (address: string) =>
    t.query<Row>(
      `select id::text as id, status, attempts, last_error, next_attempt_at > now() as due_later
       from outbox where to_address = '${address}' order by id`,
    );

  const mailWarnings = async () => {
    const owner = asOwner(t.app, await signInOwner(t.app));
    return ((await owner('GET', '/api/owner/overview')).json() as { mailWarnings: string[] }).mailWarnings;
  };

  /** Queues one visitor e-mail to `to` and waits for its first attempt to be recorded. */
  async function sendOnce(to: string): Promise<Row> {
    await enqueueEmails(t.app.services.database.db, null, [visitorEmail(to)]);
    t.app.services.outbox.wake();
    return until(async () => {
      const [row] = await rowsTo(to);
      return row?.last_error ? row : undefined;
    });
  }

  it('fails a 550 at RCPT TO after one attempt, frees its recipient mark, and logs it by id', async () => {
    const email = `gone.${Date.now()}${REFUSED}`;
    const res = await t.post(bodies.guide({ email }));
    expect(res.statusCode).toBe(200);
    const [row] = await until(async () => {
      const rows = await rowsTo(email);
      return rows[0]?.status === 'failed' && rows;
    });
    expect(row).toMatchObject({ status: 'failed', attempts: 1, last_error: 'EENVELOPE 550' });
    // The owner's copy of the same submission went out.
    await until(async () => smtp.mails.some((m) => m.text.includes('Grace Hopper')));
    // Never due again: several polls later it has had its one attempt only.
    await new Promise((r) => setTimeout(r, 400));
    expect((await rowsTo(email))[0]).toMatchObject({ status: 'failed', attempts: 1 });
    // Nobody received it: the recipient's daily mark is given back.
    expect(await t.query(`select 1 from mail_throttle where holder = ${row!.id}`)).toEqual([]);
    const line = await until(() => log.lines.find((l) => l.includes(`"outboxId":${row!.id}`)));
    expect(line).toContain('failed for good');
    expect(line).toContain('EENVELOPE 550');
    expect(log.lines.join('\n')).not.toContain(email);
  });

  it('raises no site-wide warning when the newest failure is one refused recipient', async () => {
    const row = await sendOnce(`nobody.${Date.now()}${REFUSED}`);
    expect(row).toMatchObject({ status: 'failed', attempts: 1, last_error: 'EENVELOPE 550' });
    // It is the newest attempt.
    const [newest] = await t.query<{ id: string }>(
      `select id::text as id from outbox where last_attempt_at is not null order by last_attempt_at desc limit 1`,
    );
    expect(newest!.id).toBe(row.id);
    expect((await mailWarnings()).join(' ')).not.toMatch(/last send failed/i);
  });

  it('tries a 451 at RCPT TO again later, and warns of it in words', async () => {
    smtp.refuseRecipients((address) => address.endsWith(LATER), 451);
    try {
      const address = `later.${Date.now()}${LATER}`;
      const row = await sendOnce(address);
      expect(row).toMatchObject({
        status: 'pending',
        attempts: 1,
        last_error: 'EENVELOPE 451',
        due_later: true,
      });
      expect(await mailWarnings()).toContain(
        'The last send failed. The mail server was busy or refused for now (451); it will be tried again. See Deliveries.',
      );
      // Not tried again before its time.
      await new Promise((r) => setTimeout(r, 400));
      expect((await rowsTo(address))[0]).toMatchObject({ status: 'pending', attempts: 1 });
    } finally {
      smtp.refuseRecipients((address) => address.endsWith(REFUSED), 550);
    }
  });

  it('warns of a relay that refuses connections', async () => {
    const probe = await startSmtpPeer();
    const port = probe.port;
    await probe.close();
    const db = await driver.env();
    const away = await makeFormsApp({ SMTP_URL: `smtp://127.0.0.1:${port}`, ...db.env });
    try {
      await enqueueEmails(away.app.services.database.db, null, [
        visitorEmail(`someone.${Date.now()}@example.org`),
      ]);
      away.app.services.outbox.wake();
      const [row] = await until(async () => {
        const rows = await away.query<Row>(`select status, attempts, last_error from outbox`);
        return rows[0]?.last_error ? rows : undefined;
      });
      expect(row).toMatchObject({ status: 'pending', attempts: 1, last_error: 'ESOCKET' });
      const owner = asOwner(away.app, await signInOwner(away.app));
      const { mailWarnings: warnings } = (await owner('GET', '/api/owner/overview')).json() as {
        mailWarnings: string[];
      };
      expect(warnings).toContain(
        'The last send failed. The mail relay could not be reached (ESOCKET); it will be tried again. See Deliveries.',
      );
    } finally {
      await away.app.close();
      await db.drop();
    }
  });
});
