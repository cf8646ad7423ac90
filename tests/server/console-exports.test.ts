/**
 * The console's CSV exports under attack and under load (decision 033), on
 * PostgreSQL:
 *  - a contact message, a booking's notes, a subscriber's and an attendee's names holding line
 *    breaks and formulas: every export parses with a real CSV parser into the rows written, and
 *    no physical line of any file starts with a formula character;
 *  - an export whose database query fails after its header went: the response is cut (the client
 *    sees the connection end before the file does), the file's last row says it failed, and the
 *    log holds the error's code and no address, SQL or parameter;
 *  - one export at a time per owner: a second while the first streams is refused with 409 and
 *    the console's sentence; once the first is done or dropped, the next one runs;
 *  - an export gives way to visitors (decision 034) and still ends whole while one's request is
 *    held open: its own request is not one it waits for.
 */
import { request as httpGet, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloadCopy } from '../../src/content/console';
import { asOwner, type OwnerCall, signInOwner } from './owner-session';
import { type FormsTestApp, logCapture, makeFormsApp, testDrivers, until } from './forms-support';

/** The issue's own example: a message whose second line is a formula and third a fake row. */
const INJECTION = "Please call me back.\n=cmd|' /C calc'!A0\nfakeid;contact;2026-01-01";
/** The same in carriage returns (old Mac files, and programs that split on CR alone). */
const INJECTION_CR = 'Call me.\r+1+1\r\n@SUM(A1)\r-2\r\tTabbed\r\r=HYPERLINK("http://evil")';

/** A physical line of a file, as a program that knows nothing of quotes reads it. */
const physicalLines = (text: string) => text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
const FORMULA_START = /^[=+\-@\t\r]/;

const drivers = await testDrivers('exports');

describe.each(drivers)('the console exports on $name', (driver) => {
  let t: FormsTestApp;
  let drop: () => Promise<void>;
  let owner: OwnerCall;
  let cookie: string;
  let port: number;
  const log = logCapture();

  beforeAll(async () => {
    const db = await driver.env();
    drop = db.drop;
    t = await makeFormsApp(db.env, { logger: log.logger });
    cookie = await signInOwner(t.app);
    owner = asOwner(t.app, cookie);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    port = typeof address === 'object' && address ? address.port : 0;
  });
  afterAll(async () => {
    await t?.app.close();
    await drop?.();
  });

  const sql = (text: string) => t.query(text);
  const quoted = (text: string) => `'${text.replace(/'/g, "''")}'`;
  const json = (value: unknown) => `${quoted(JSON.stringify(value))}::jsonb`;

  /** GET `path` over a real socket with the owner's session: the status, what arrived, and whether it ended whole. */
  function download(path: string): Promise<{ status: number; body: string; whole: boolean }> {
    return new Promise((resolve, reject) => {
      const req = httpGet(
        {
          host: '127.0.0.1',
          port,
          path,
          headers: { cookie, origin: new URL(t.config.publicUrl).origin },
        },
        (res) => {
          const chunks: Buffer[] = [];
          let whole = false;
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            whole = res.complete;
          });
          res.on('error', () => {});
          res.on('close', () =>
            resolve({
              status: res.statusCode ?? 0,
              body: Buffer.concat(chunks).toString('utf8'),
              whole: whole && res.complete,
            }),
          );
        },
      );
      req.on('error', reject);
      req.end();
    });
  }

  /** A GET of `path` with the owner's session whose reader stops reading after the first piece. */
  function pausedDownload(path: string): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      const req = httpGet({ host: '127.0.0.1', port, path, headers: { cookie } }, (res) => {
        res.once('data', () => res.pause());
        resolve(res);
      });
      req.on('error', reject);
      req.end();
    });
  }

  /**
   * `rows` contact messages whose first name is `tag` and address `<prefix><n>@example.org`, each
   * message `words` repeated `times`, a second apart.
   */
  async function contactMessages(tag: string, rows: number, prefix: string, words: string, times: number) {
    await sql(`insert into submissions (id, form_type, fields, received_at)
      select gen_random_uuid(), 'contact', jsonb_build_object('firstName', '${tag}', 'lastName', 'Writer ' || n,
             'email', '${prefix}' || n || '@example.org', 'message', repeat('${words}', ${times})), now() - make_interval(secs => n)
      from generate_series(1, ${rows}) as n`);
  }

  it('quotes every line break and starts no line with a formula, in every CSV the console offers', async () => {
    const tag = `inj${Date.now().toString(36)}`;
    await sql(`insert into submissions (id, form_type, fields, received_at) values
      (gen_random_uuid(), 'contact', ${json({ firstName: 'Ada', lastName: tag, email: 'ada.inj@example.org', subject: 'other', message: INJECTION })}, now() - interval '3 minutes'),
      (gen_random_uuid(), 'booking', ${json({ firstName: '-Bo', lastName: tag, email: 'bo.inj@example.org', notes: INJECTION, sessionType: 'online' })}, now() - interval '2 minutes'),
      (gen_random_uuid(), 'contact', ${json({ firstName: 'Cy', lastName: tag, email: 'cy.inj@example.org', subject: 'other', message: INJECTION_CR })}, now() - interval '1 minute')`);
    await sql(`insert into newsletter_subscribers (id, email, first_name, last_name, status, confirmed_at) values
      (gen_random_uuid(), 'sub.inj@example.org', ${quoted(INJECTION)}, ${quoted(`${tag}\n=2+2`)}, 'confirmed', now())`);
    const [event] =
      await sql(`insert into events (id, slug, title, summary, starts_at, ends_at, mode, join_url, capacity, status, published_at)
      values (gen_random_uuid(), 'injection-night-' || left(gen_random_uuid()::text, 8), 'Injection night', 'A test event', now() + interval '10 days', now() + interval '10 days 2 hours',
              'online', 'https://meet.example.net/x', 5, 'published', now()) returning id`);
    const [reg] = await sql(`insert into submissions (id, form_type, fields) values
      (gen_random_uuid(), 'masterclass', ${json({ firstName: INJECTION, email: 'att.inj@example.org', company: `Acme\r=1+1` })}) returning id`);
    await sql(`insert into event_registrations (id, event_id, submission_id, person_key, status)
      values (gen_random_uuid(), '${String(event!.id)}', '${String(reg!.id)}', 'k-${tag}', 'registered')`);

    const files = {
      submissions: await owner('GET', `/api/owner/exports/submissions.csv?q=${tag}`),
      subscribers: await owner('GET', '/api/owner/exports/subscribers.csv'),
      attendees: await owner('GET', `/api/owner/exports/events/${String(event!.id)}/attendees.csv`),
    };
    for (const [name, res] of Object.entries(files)) {
      expect(res.statusCode, name).toBe(200);
      for (const line of physicalLines(res.body))
        expect(line, `${name}: ${JSON.stringify(line)}`).not.toMatch(FORMULA_START);
    }

    const submissions = parse(files.submissions.body, { bom: true, columns: true }) as Record<
      string,
      string
    >[];
    expect(submissions.map((r) => r['First name'])).toEqual(['Cy', "'-Bo", 'Ada']);
    const neutralised = "Please call me back.\n'=cmd|' /C calc'!A0\nfakeid;contact;2026-01-01";
    expect(submissions[2]!.Message).toBe(neutralised);
    expect(submissions[1]!.Notes).toBe(neutralised);
    expect(submissions[0]!.Message).toBe(
      "Call me.\r'+1+1\r\n'@SUM(A1)\r'-2\r'\tTabbed\r'\r'=HYPERLINK(\"http://evil\")",
    );
    // The fake row is text inside a cell, never a row of its own.
    expect(submissions.some((r) => r.Id?.startsWith('fakeid'))).toBe(false);

    const subscribers = parse(files.subscribers.body, { bom: true, columns: true }) as Record<
      string,
      string
    >[];
    const sub = subscribers.find((r) => r.Email === 'sub.inj@example.org')!;
    expect(sub['First name']).toBe(neutralised);
    expect(sub['Last name']).toBe(`${tag}\n'=2+2`);

    const attendees = parse(files.attendees.body, { bom: true, columns: true }) as Record<string, string>[];
    expect(attendees).toHaveLength(1);
    expect(attendees[0]!.Name).toBe(neutralised);
    expect(attendees[0]!['Role or company']).toBe("Acme\r'=1+1");
  });

  it('cuts an export whose database fails after its header, ends it with the failure row, and logs only the code', async () => {
    const searched = 'searched.person@example.org';
    const before = log.lines.length;
    await sql('alter table submissions rename column fields to fields_moved');
    let answer: Awaited<ReturnType<typeof download>>;
    try {
      answer = await download(`/api/owner/exports/submissions.csv?q=${encodeURIComponent(searched)}`);
    } finally {
      await sql('alter table submissions rename column fields_moved to fields');
    }
    // The headers had gone (200), but the response was cut, not ended: no client takes it for whole.
    expect(answer.status).toBe(200);
    expect(answer.whole).toBe(false);
    const rows = parse(answer.body, { bom: true, relax_column_count: true }) as string[][];
    expect(rows[0]![0]).toBe('Id');
    expect(rows.at(-1)).toEqual([downloadCopy.cutRow]);

    const logged = log.lines.slice(before).join('');
    expect(logged).toContain('download cut short');
    expect(logged).toContain('"code":"42703"');
    expect(logged).not.toContain('example.org');
    expect(logged).not.toMatch(/searched|select|fields_moved|params|Failed query/i);

    // The owner's next export runs: the failed one let go of its turn.
    expect((await download('/api/owner/exports/submissions.csv?q=nobody')).whole).toBe(true);
  });

  it('runs one export at a time per owner: a second while one streams is refused with 409', async () => {
    const tag = `big${Date.now().toString(36)}`;
    const ROWS = 5000;
    // Enough rows that the file cannot sit whole in the sockets' buffers while nobody reads it.
    await contactMessages(tag, ROWS, 'w', 'A long message. ', 160);
    const path = `/api/owner/exports/submissions.csv?q=${tag}`;
    // The first export starts, and its reader stops reading after the first piece.
    const first = await pausedDownload(path);
    expect(first.statusCode).toBe(200);

    const second = await owner('GET', path);
    expect(second.statusCode).toBe(409);
    expect(second.json()).toEqual({ error: downloadCopy.busy });
    // The person's data is a download too, and waits its turn the same way.
    expect((await owner('GET', '/api/owner/people/export.json?email=w1%40example.org')).statusCode).toBe(409);

    // Read to the end, the first is whole; then the next one runs.
    const rest: Buffer[] = [];
    first.on('data', (chunk: Buffer) => rest.push(chunk));
    await new Promise((resolve) => {
      first.on('end', resolve);
      first.resume();
    });
    expect(first.complete).toBe(true);
    const third = await until(async () => {
      const res = await owner('GET', path);
      return res.statusCode === 200 ? res : undefined;
    });
    expect(physicalLines(third.body).filter((l) => l !== '')).toHaveLength(ROWS + 1);

    // A reader that goes away lets go of the owner's turn too.
    const dropped = await pausedDownload(path);
    expect((await owner('GET', path)).statusCode).toBe(409);
    dropped.destroy();
    await until(async () =>
      (await owner('GET', '/api/owner/exports/subscribers.csv')).statusCode === 200 ? true : undefined,
    );
  });

  it("gives way to a visitor's request in flight, never to its own, and ends whole", async () => {
    const tag = `way${Date.now().toString(36)}`;
    const ROWS = 2000;
    await contactMessages(tag, ROWS, 'v', 'Some words. ', 40);
    const before = t.app.giveWay.inFlight;
    // A download under way is not counted: it would wait for itself.
    const reading = await pausedDownload(`/api/owner/exports/submissions.csv?q=${tag}`);
    expect(reading.statusCode).toBe(200);
    expect(t.app.giveWay.inFlight).toBe(before);
    reading.resume();
    await new Promise((resolve) => reading.on('end', resolve));

    // A visitor whose form is still on its way: the headers have arrived, the body has not.
    const visitor = connect(port, '127.0.0.1');
    visitor.on('error', () => {});
    visitor.write(
      'POST /api/send-contact-email HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
    );
    await until(async () => (t.app.giveWay.inFlight === before + 1 ? true : undefined));

    const file = await download(`/api/owner/exports/submissions.csv?q=${tag}`);
    expect(file.status).toBe(200);
    expect(file.whole).toBe(true);
    expect(physicalLines(file.body).filter((l) => l !== '')).toHaveLength(ROWS + 1);
    // The visitor is still counted, the download is not.
    expect(t.app.giveWay.inFlight).toBe(before + 1);

    visitor.destroy();
    await until(async () => (t.app.giveWay.inFlight === before ? true : undefined));
  });
});
