/**
 * The outbox worker's steps, each on its own over Postgres: claim (a lease, an attempt), release,
 * the batched sent marks, a row held past its hold handed back unsent, a failure's retry and its
 * final failure, a recipient refused for good failed at once, and the per-recipient limit.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/server/kit/db/client';
import { enqueueEmails, suppressionHash, type OutgoingEmail } from '../../src/server/kit/mail/outbox';
import { visitorVerdict } from '../../src/server/kit/mail/outbox-limits';
import {
  claimDue,
  dropInDoubt,
  dropSuppressed,
  errorCode,
  markFailure,
  releaseRows,
  sendOne,
  stampInFlight,
} from '../../src/server/kit/mail/outbox-steps';
import { SentMarks } from '../../src/server/kit/mail/outbox-marks';
import { enqueueMailing, storeSharedBody } from '../../src/server/kit/mail/mailing';
import { databaseFor } from './databases';
import { SECRET } from './forms-support';

const log = pino({ level: 'silent' });
const email = (over: Partial<OutgoingEmail> = {}): OutgoingEmail => ({
  kind: 'step.test',
  to: 'someone@example.org',
  subject: 'S',
  content: { preheader: 'p', heading: 'H', blocks: [] },
  ...over,
});

describe('outbox steps on PostgreSQL', () => {
  let database: Database;
  const query = async <T = Record<string, unknown>>(text: string) =>
    ((await database.db.execute(sql.raw(text))) as unknown as { rows: T[] }).rows;

  beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'outbox-steps-'));
    database = await openDatabase({ dataDir, databaseUrl: await databaseFor(dataDir) });
  });
  afterAll(async () => {
    await database?.close();
  });
  beforeEach(async () => {
    await database.db.execute(sql`delete from outbox`);
    await database.db.execute(sql`delete from mail_throttle`);
    await database.db.execute(sql`delete from suppressions`);
  });

  it('claims due rows up to its limit, counting an attempt and leasing each; release hands them back', async () => {
    await enqueueEmails(database.db, null, [email(), email(), email()]);
    const claimed = await claimDue(database.db, 2, 60_000);
    expect(claimed).toHaveLength(2);
    expect(claimed.every((r) => r.attempts === 1)).toBe(true);
    // Leased: a second claim finds only the third row.
    expect(await claimDue(database.db, 5, 60_000)).toHaveLength(1);
    expect(await claimDue(database.db, 5, 60_000)).toHaveLength(0);

    await releaseRows(
      database.db,
      claimed.map((r) => Number(r.id)),
    );
    const again = await claimDue(database.db, 5, 60_000);
    expect(again.map((r) => r.id).sort()).toEqual(claimed.map((r) => r.id).sort());
    expect(again.every((r) => r.attempts === 1)).toBe(true);
  });

  it('marks rows sent, those arriving during a write together', async () => {
    await enqueueEmails(database.db, null, [email(), email(), email(), email()]);
    const rows = await claimDue(database.db, 4, 60_000);
    const marks = new SentMarks(database.db);
    await Promise.all(rows.map((r) => marks.mark(Number(r.id))));
    const statuses = await query<{ status: string; sent: boolean }>(
      `select status, sent_at is not null as sent from outbox`,
    );
    expect(statuses).toEqual(rows.map(() => ({ status: 'sent', sent: true })));
  });

  it("writes a round's marks in one statement when flushed, or once their delay has passed", async () => {
    await enqueueEmails(database.db, null, [email(), email(), email()]);
    const rows = await claimDue(database.db, 3, 60_000);
    const sent = () => query<{ n: number }>(`select count(*)::int as n from outbox where status = 'sent'`);
    const marks = new SentMarks(database.db, 60_000);
    void marks.mark(Number(rows[0]!.id));
    void marks.mark(Number(rows[1]!.id));
    await new Promise((r) => setTimeout(r, 50));
    expect(await sent()).toEqual([{ n: 0 }]);
    await marks.flush();
    expect(await sent()).toEqual([{ n: 2 }]);
    const soon = new SentMarks(database.db, 20);
    await soon.mark(Number(rows[2]!.id));
    expect(await sent()).toEqual([{ n: 3 }]);
  });

  it('hands back a row that waited past its hold instead of sending it', async () => {
    await enqueueEmails(database.db, null, [email()]);
    const [row] = await claimDue(database.db, 1, 60_000);
    let sends = 0;
    const outcome = await sendOne(
      { row: row!, claimedAt: performance.now() - 6_000 },
      {
        db: database.db,
        transport: { send: async () => ((sends += 1), {}), close: () => {} },
        log,
        settings: {
          retry: { maxAttempts: 3, retryDelayMs: () => 0 },
          limits: { secret: SECRET, hourlyCap: 10 },
          identity: { from: { name: 'S', address: 's@example.org' }, domain: 'example.org', secret: SECRET },
          suppression: {},
          leaseMs: 60_000,
          holdMs: 5_000,
        },
        marks: new SentMarks(database.db),
        stopping: () => false,
      },
    );
    expect(outcome).toBe('released');
    expect(sends).toBe(0);
    // Due again now, the claim not counted as an attempt.
    expect(await query(`select status, attempts, next_attempt_at <= now() as due from outbox`)).toEqual([
      { status: 'pending', attempts: 0, due: true },
    ]);
  });

  it('a mailing row: stamped before the relay has it, in doubt when claimed again stamped or past its deadline, never sent twice', async () => {
    const bodyId = await storeSharedBody(database.db, { html: '<p>Hi %%u%%</p>', text: 'Hi %%u%%' });
    const mailing = { id: randomUUID(), kind: 'newsletter.issue', subject: 'Issue', bodyId };
    await enqueueMailing(database.db, mailing, [
      { to: 'one@example.org', fill: { '%%u%%': 'a' } },
      { to: 'two@example.org', fill: { '%%u%%': 'b' } },
      { to: 'three@example.org', fill: { '%%u%%': 'c' } },
    ]);
    const claimed = await claimDue(database.db, 3, 60_000, undefined, 'bulk');
    expect(claimed).toHaveLength(3);
    // None of them is a `mail` lane row.
    expect(await claimDue(database.db, 3, 60_000)).toHaveLength(0);
    // A row held after its claim is not stamped (and so not sent).
    await query(`update outbox set status = 'held' where to_address = 'three@example.org'`);
    const stamped = await stampInFlight(
      database.db,
      claimed.map((r) => Number(r.id)),
    );
    expect(stamped.size).toBe(2);
    // The process dies with the rows stamped; their lease ends; a new claim finds them in doubt.
    await query(`update outbox set next_attempt_at = now() where status = 'pending'`);
    const again = await claimDue(database.db, 3, 60_000, undefined, 'bulk');
    expect(again.every((r) => r.handed)).toBe(true);
    expect(await dropInDoubt(database.db, log, again)).toHaveLength(0);
    expect(await query(`select status, last_error from outbox where status <> 'held' order by id`)).toEqual([
      { status: 'failed', last_error: 'EINDOUBT' },
      { status: 'failed', last_error: 'EINDOUBT' },
    ]);

    // Past our own deadline at the relay: in doubt too, not retried.
    await query(
      `update outbox set status = 'pending', handed_at = null, next_attempt_at = now() where status = 'held'`,
    );
    const [late] = await claimDue(database.db, 1, 60_000, undefined, 'bulk');
    // The worker reads the shared body when it claims (./mailing.ts, SharedBodies).
    late!.body = { html: '<p>Hi %%u%%</p>', text: 'Hi %%u%%' };
    const outcome = await sendOne(
      { row: late!, claimedAt: performance.now() },
      {
        db: database.db,
        transport: {
          send: async () => {
            throw Object.assign(new Error('deadline'), { code: 'ESENDDEADLINE' });
          },
          close: () => {},
        },
        log,
        settings: {
          retry: { maxAttempts: 3, retryDelayMs: () => 0 },
          limits: { secret: SECRET, hourlyCap: 10 },
          identity: { from: { name: 'S', address: 's@example.org' }, domain: 'example.org', secret: SECRET },
          suppression: {},
          leaseMs: 60_000,
          holdMs: 5_000,
        },
        marks: new SentMarks(database.db),
        stopping: () => false,
      },
    );
    expect(outcome).toBe('failed');
    expect(
      await query(`select status, last_error from outbox where to_address = 'three@example.org'`),
    ).toEqual([{ status: 'failed', last_error: 'EINDOUBT' }]);
  });

  it('retries a failure after the policy delay, then fails it for good and frees its recipient mark', async () => {
    await enqueueEmails(database.db, null, [email({ audience: 'visitor' })]);
    const retry = { maxAttempts: 2, retryDelayMs: () => 0 };
    const [first] = await claimDue(database.db, 1, 60_000);
    expect((await visitorVerdict(database.db, first!, { secret: SECRET, hourlyCap: 10 })).send).toBe(true);
    expect(await markFailure(database.db, log, first!, 'ECONNREFUSED', retry)).toBe('retry');
    expect(await query(`select status, last_error, attempts from outbox`)).toEqual([
      { status: 'pending', last_error: 'ECONNREFUSED', attempts: 1 },
    ]);
    const [second] = await claimDue(database.db, 1, 60_000);
    expect(await markFailure(database.db, log, second!, 'ECONNREFUSED', retry)).toBe('failed');
    expect(await query(`select status from outbox`)).toEqual([{ status: 'failed' }]);
    expect(await query(`select key from mail_throttle`)).toEqual([]);
  });

  it('fails a recipient refused for good (5xx at RCPT TO) at its first attempt, freeing its recipient mark', async () => {
    await enqueueEmails(database.db, null, [email({ audience: 'visitor' })]);
    const retry = { maxAttempts: 9, retryDelayMs: () => 60_000 };
    const [row] = await claimDue(database.db, 1, 60_000);
    expect((await visitorVerdict(database.db, row!, { secret: SECRET, hourlyCap: 10 })).send).toBe(true);
    const refusal = Object.assign(new Error('all recipients were rejected'), {
      code: 'EENVELOPE',
      responseCode: 550,
      command: 'RCPT TO',
    });
    expect(await markFailure(database.db, log, row!, errorCode(refusal), retry)).toBe('failed');
    expect(await query(`select status, last_error, attempts from outbox`)).toEqual([
      { status: 'failed', last_error: 'EENVELOPE 550', attempts: 1 },
    ]);
    expect(await query(`select key from mail_throttle`)).toEqual([]);
    expect(await claimDue(database.db, 1, 60_000)).toEqual([]);
  });

  it("puts an address whose mailbox is gone (5.1.1) on the suppression list, never a console address nor on a refusal that may be the relay's", async () => {
    const refusal = (responseCode: number, response = '') =>
      errorCode(
        Object.assign(new Error('rejected'), {
          code: 'EENVELOPE',
          responseCode,
          command: 'RCPT TO',
          response,
        }),
      );
    const retry = { maxAttempts: 9, retryDelayMs: () => 60_000 };
    const consoleAddress = 'owner@example.org';
    const bounce = { secret: SECRET, exempt: new Set([suppressionHash(SECRET, consoleAddress)]) };
    await enqueueEmails(database.db, null, [
      email({ to: 'Gone@Example.org' }),
      email({ to: consoleAddress }),
      email({ to: 'busy@example.org' }),
      email({ to: 'policy@example.org' }),
    ]);
    const [gone, owner, busy, policy] = (await claimDue(database.db, 4, 60_000)).sort(
      (x, y) => Number(x.id) - Number(y.id),
    );
    expect(
      await markFailure(database.db, log, gone!, refusal(550, '550 5.1.1 no such user'), retry, bounce),
    ).toBe('failed');
    expect(
      await markFailure(database.db, log, owner!, refusal(550, '550 5.1.1 no such user'), retry, bounce),
    ).toBe('failed');
    expect(await markFailure(database.db, log, busy!, refusal(450), retry, bounce)).toBe('retry');
    // A relay's own policy (5.7.1) says nothing of the mailbox: retried, nothing suppressed.
    expect(
      await markFailure(database.db, log, policy!, refusal(550, '550 5.7.1 relaying denied'), retry, bounce),
    ).toBe('retry');
    expect(await query(`select hash, reason from suppressions`)).toEqual([
      { hash: suppressionHash(SECRET, 'gone@example.org'), reason: 'bounced' },
    ]);
    // Refusals that may be the relay's or about our sender suppress nothing: a 4xx even at the last
    // attempt, a 550 without an enhanced status, 5.1.8 (our sending domain), 4.7.1.
    await enqueueEmails(database.db, null, [
      email({ to: 'full@example.org' }),
      email({ to: 'plain@example.org' }),
      email({ to: 'sender@example.org' }),
      email({ to: 'greylist@example.org' }),
    ]);
    const last = { ...retry, maxAttempts: 1 };
    const [full, plain, sender, greylist] = (await claimDue(database.db, 4, 60_000)).sort(
      (x, y) => Number(x.id) - Number(y.id),
    );
    expect(
      await markFailure(database.db, log, full!, refusal(452, '452 4.2.2 mailbox full'), last, bounce),
    ).toBe('failed');
    expect(await markFailure(database.db, log, plain!, refusal(550), retry, bounce)).toBe('failed');
    expect(
      await markFailure(
        database.db,
        log,
        sender!,
        refusal(550, '550 5.1.8 Sender address rejected'),
        retry,
        bounce,
      ),
    ).toBe('retry');
    expect(
      await markFailure(database.db, log, greylist!, refusal(451, '451 4.7.1 try again later'), last, bounce),
    ).toBe('failed');
    expect((await query(`select reason from suppressions`)).length).toBe(1);
    // A later e-mail to the refused address is never sent.
    await enqueueEmails(database.db, null, [email({ to: 'gone@example.org' })]);
    const [later] = await claimDue(database.db, 1, 60_000);
    expect(await dropSuppressed(database.db, SECRET, [later!], {})).toEqual([]);
    expect(await query(`select status from outbox where id = ${later!.id}`)).toEqual([
      { status: 'suppressed' },
    ]);
  });

  it('retries a 4xx refusal of the recipient, and a refused sender, as any other failure', async () => {
    await enqueueEmails(database.db, null, [email(), email()]);
    const retry = { maxAttempts: 9, retryDelayMs: () => 60_000 };
    const [a, b] = (await claimDue(database.db, 2, 60_000)).sort((x, y) => Number(x.id) - Number(y.id));
    const later = { code: 'EENVELOPE', responseCode: 451, command: 'RCPT TO' };
    const sender = { code: 'EENVELOPE', responseCode: 553, command: 'MAIL FROM' };
    expect(errorCode(sender)).toBe('ESENDER 553');
    // The enhanced status is kept, the relay's text is not (it can quote the address).
    const relayPolicy = Object.assign(new Error('x'), {
      code: 'EENVELOPE',
      command: 'RCPT TO',
      responseCode: 554,
      response: '554 5.7.1 <someone@example.org>: Relay access denied',
    });
    expect(errorCode(relayPolicy)).toBe('EENVELOPE 554 5.7.1');
    expect(await markFailure(database.db, log, a!, errorCode(later), retry)).toBe('retry');
    expect(await markFailure(database.db, log, b!, errorCode(sender), retry)).toBe('retry');
    expect(
      await query(
        `select status, last_error, attempts, next_attempt_at > now() as later from outbox order by id`,
      ),
    ).toEqual([
      { status: 'pending', last_error: 'EENVELOPE 451', attempts: 1, later: true },
      { status: 'pending', last_error: 'ESENDER 553', attempts: 1, later: true },
    ]);
  });

  it("skips a visitor e-mail whose recipient had one of its kind today, whatever the address's case", async () => {
    await enqueueEmails(database.db, null, [
      email({ audience: 'visitor', to: 'ada@example.org' }),
      email({ audience: 'visitor', to: 'ADA@example.org' }),
    ]);
    const [a, b] = (await claimDue(database.db, 2, 60_000)).sort((x, y) => Number(x.id) - Number(y.id));
    const limits = { secret: SECRET, hourlyCap: 10 };
    expect(await visitorVerdict(database.db, a!, limits)).toEqual({ send: true });
    expect(await visitorVerdict(database.db, b!, limits)).toEqual({ send: false, outcome: 'skipped' });
    expect(await query(`select status from outbox where id = ${b!.id}`)).toEqual([{ status: 'skipped' }]);
  });
});
