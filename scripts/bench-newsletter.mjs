/**
 * The bench's newsletter part (issue #26, decision 046): 20,000 confirmed subscribers (and 200
 * pending or unsubscribed ones, who must receive nothing) seeded straight into the database, one
 * issue written and sent through the owner's console API, at no rate limit
 * (NEWSLETTER_SEND_RATE=0), by a real server process to an SMTP sink in this process (127.0.0.1
 * only); on the embedded PostgreSQL (the cluster of the server's own DATA_DIR), then on a
 * throwaway database of the external Postgres. At the sink every message is counted
 * by its recipient: each confirmed subscriber must receive the issue exactly once (no duplicate,
 * none missing, nobody else). E-mails a second run from the first newsletter e-mail at the sink to
 * the last; the send request itself (which fixes the recipients) is timed apart.
 *
 * From the send click until the campaign has arrived whole, contact forms are submitted one every
 * 150 ms (200 at most): each one's owner e-mail, known at the sink by its recipient and its subject,
 * must arrive within 2 s (p99) of the form's 200 answer; how long the forms took to be answered
 * (while the recipients were written too) is reported beside it.
 *
 * Beside each run, its anchor (decision 027): a bare pooled nodemailer transport
 * (scripts/bench-mail-anchor.mjs) with the bulk worker's connections sends as many copies of the
 * same e-mail (the issue as the console previews it, with the list headers) to a sink of the same
 * kind; the ratio is the campaign's rate over its rate. The target is absolute (>= 500 e-mails a
 * second): the ratio is shown beside it.
 *
 * Memory: the server's peak RSS during the campaign and, on the embedded PostgreSQL, its
 * database's peak PSS (scripts/bench-process.mjs) and their sum.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { SMTPServer } from 'smtp-server';
import { site } from '../src/content/site.ts';
import { signInLink } from '../src/server/console/sign-in.ts';
import { loadConfig } from '../src/server/kit/config.ts';
import { createLinks } from '../src/server/kit/http/links.ts';
import { withBenchClient } from './bench-database.mjs';
import { runAnchor } from './bench-outbox.mjs';
import { peakRssMb, sampleDatabasePss, stop, sumMb, waitReady } from './bench-process.mjs';

const OWNER = 'owner@example.com';
const MAIL_FROM = 'hello@example.com';

/** The issue's targets. */
export const NEWSLETTER_TARGETS = {
  /** Newsletter e-mails a second at no rate limit, over loopback to the SMTP sink. */
  emailsPerS: 500,
  /** A contact form's owner e-mail at the SMTP sink, from the form's 200 answer, p99 (ms). */
  ownerMailP99Ms: 2000,
};

export const NEWSLETTER_COLUMNS = [
  'db',
  'subscribers',
  'mailKb',
  'delivered',
  'emailsPerS',
  'bareEmailsPerS',
  'ratio',
  'sendRequestS',
  'campaignS',
  'duplicates',
  'missing',
  'strays',
  'consoleSent',
  'forms',
  'ownerMails',
  'ownerP50Ms',
  'ownerP99Ms',
  'ownerMaxMs',
  'formAnswerP99Ms',
  'peakRssMb',
  'dbPeakPssMb',
  'peakSumMb',
];

/** One issue of the kind the owner sends: some 300 words of Markdown, headings, lists, a quote and links. */
const ISSUE = {
  subject: 'The Smart Money Newsletter: what the new tax year means for your bitcoin',
  preheader: 'Allowances, pension wrappers and custody: three things to check before April.',
  body: [
    'Good morning,',
    '',
    'The new tax year starts on 6 April, and with it a few changes that matter to anyone holding bitcoin as part of a professional income. Here is what we are telling our clients this month.',
    '',
    '## 1. The capital gains allowance is now £3,000',
    '',
    'The annual exempt amount has fallen again. If you sold or swapped any bitcoin this year, **every disposal counts**, including paying for something directly with it. Keep a record of:',
    '',
    '- the date and the sterling value of each purchase;',
    '- the date and the sterling value of each disposal;',
    '- the fees you paid on both sides.',
    '',
    'HMRC expects the *section 104 pool* method for most holdings. Our [guide to bitcoin and UK tax](https://www.sterlingsats.co.uk/resources) walks through an example with real figures.',
    '',
    '## 2. Pensions and ISAs still cannot hold bitcoin directly',
    '',
    'A SIPP or an ISA cannot hold spot bitcoin. Exchange-traded notes are a different product with different risks: the counterparty, the fees, and the fact that you do not hold the keys. Ask us before you move money between wrappers.',
    '',
    '## 3. Custody: test your recovery before you need it',
    '',
    'Most losses we see are not hacks. They are people who cannot find, or cannot read, their own recovery words. Once a year:',
    '',
    '1. Check that your backup is where you think it is.',
    '2. Restore it on a spare device with no funds on it.',
    '3. Confirm that the first receiving address matches.',
    '',
    '> A backup you have never restored is a hope, not a plan.',
    '',
    '## Coming up',
    '',
    'Our next live masterclass, *Bitcoin for High Earners*, covers allocation sizing, UK tax and secure custody, followed by an open Q&A. Places are limited; [book yours here](https://www.sterlingsats.co.uk/resources).',
    '',
    'If you would like to talk through your own position, reply to this e-mail or [book a consultation](https://www.sterlingsats.co.uk/book).',
    '',
    'Until next month,',
    '',
    'The Sterling Sats team',
  ].join('\n'),
};

/** Confirmed subscribers first, then `others` pending or unsubscribed ones, who must receive nothing. */
const SEED = `
  insert into newsletter_subscribers (id, email, first_name, last_name, status, confirmed_at, unsubscribed_at)
  select gen_random_uuid(), 'reader' || i || '@example.org', 'Reader', 'No. ' || i,
         case when i <= $1::int then 'confirmed' when i % 2 = 0 then 'pending' else 'unsubscribed' end,
         case when i <= $1::int then now() end,
         case when i > $1::int and i % 2 = 1 then now() end
  from generate_series(1, $1::int + $2::int) as i`;

/** The contact form, as a visitor sends it; `n` names the submission in its owner e-mail's subject. */
function contactBody(n) {
  return JSON.stringify({
    formType: 'contact',
    firstName: 'Bench',
    lastName: `Form${n}`,
    email: `visitor${n}@example.net`,
    company: 'Benchmark Ltd',
    subject: 'training',
    message: 'A message sent while the newsletter goes out: when could you run a session for our team?',
    consent: true,
  });
}

/**
 * The SMTP sink: each message counted by its envelope recipient; the newsletter's first and last
 * arrivals; each owner e-mail's arrival by the form number in its subject.
 */
async function startSink() {
  const byRecipient = new Map();
  const ownerArrivals = new Map();
  let newsletterMails = 0;
  let newsletterBytes = 0;
  let first = 0;
  let last = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
      const owner = to.includes(OWNER);
      let head = '';
      stream.on('error', () => {});
      stream.on('data', (chunk) => {
        if (!owner) newsletterBytes += chunk.length;
        else if (head.length < 8192) head += chunk.toString('latin1');
      });
      stream.on('end', () => {
        const now = performance.now();
        if (owner) {
          const n = /^subject:.*enquiry from Bench Form(\d+)/im.exec(head)?.[1];
          if (n && !ownerArrivals.has(Number(n))) ownerArrivals.set(Number(n), now);
        } else {
          for (const address of to) byRecipient.set(address, (byRecipient.get(address) ?? 0) + 1);
          newsletterMails += 1;
          if (!first) first = now;
          last = now;
        }
        callback();
      });
    },
  });
  server.on('error', () => {});
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${server.server.address().port}`,
    byRecipient,
    ownerArrivals,
    figures: () => ({
      mails: newsletterMails,
      bytes: newsletterBytes,
      recipients: byRecipient.size,
      first,
      last,
    }),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

function startServer(args, env) {
  return spawn(process.execPath, args, {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
  });
}

/**
 * Runs the seed on the bench's database, the embedded cluster of its DATA_DIR (started for the
 * while, no server running on it) or Postgres.
 */
async function seed(store, subscribers, others) {
  await withBenchClient(store, (client) => client.query(SEED, [subscribers, others]));
}

/** The console's API as the owner: a sign-in link made with the server's settings, its token posted. */
export async function ownerApi(base, env) {
  const config = loadConfig({ ...process.env, NODE_ENV: 'production', ...env });
  const origin = new URL(config.publicUrl).origin;
  const link = await signInLink(config, createLinks(config.publicUrl, config.appSecret), config.ownerEmail);
  const signedIn = await fetch(`${base}/api/owner/sign-in/link`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ token: new URL(link).searchParams.get('token') }),
  });
  const cookie = signedIn.headers.getSetCookie()[0]?.split(';')[0];
  if (signedIn.status !== 200 || !cookie) throw new Error(`bench sign-in answered ${signedIn.status}`);
  return async (method, path, body) => {
    const res = await fetch(`${base}/api/owner${path}`, {
      method,
      headers: { origin, cookie, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!res.ok) throw new Error(`bench ${method} ${path} answered ${res.status}: ${await res.text()}`);
    return res.json();
  };
}

/**
 * Contact forms, one every `everyMs` until `max` or until `done()`: each one's number, status and
 * when its answer came.
 */
async function submitForms(base, origin, { everyMs, max, done }) {
  const forms = [];
  for (let n = 1; n <= max && !done(); n += 1) {
    const started = performance.now();
    let status = 0;
    try {
      const res = await fetch(`${base}/api/send-contact-email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin },
        body: contactBody(n),
      });
      await res.arrayBuffer();
      status = res.status;
    } catch {
      /* counted as not answered */
    }
    const answeredAt = performance.now();
    forms.push({ n, status, answeredAt, answerMs: answeredAt - started });
    const wait = everyMs - (performance.now() - started);
    if (wait > 0) await sleep(wait);
  }
  return forms;
}

const percentile = (sorted, p) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];

/** One kind of database: the seed, the campaign with forms meanwhile, then the anchor. */
async function runOn(label, db, o) {
  const base = `http://127.0.0.1:${o.port}`;
  const sink = await startSink();
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-newsletter-'));
  const env = {
    DATA_DIR: dataDir,
    // Empty: the embedded cluster of DATA_DIR, whatever the bench's own environment says.
    DATABASE_URL: db.databaseUrl ?? '',
    PORT: String(o.port),
    PUBLIC_URL: `http://localhost:${o.port}`,
    APP_SECRET: randomBytes(32).toString('base64url'),
    OWNER_EMAIL: OWNER,
    MAIL_FROM,
    SMTP_URL: sink.url,
    NEWSLETTER_SEND_RATE: '0',
    // The forms are machine-made: no fill-time token, one client.
    BENCH_DISABLE_FILL_TIME: 'true',
    BENCH_DISABLE_RATE_LIMIT: 'true',
  };
  const origin = new URL(env.PUBLIC_URL).origin;
  let server;
  let database;
  try {
    // The first start makes the tables; the subscribers are written with no server running.
    server = startServer(o.serverArgs, env);
    await waitReady(base, server, 60_000);
    await stop(server);
    o.log(`Newsletter ${label}: ${o.subscribers.toLocaleString('en-GB')} confirmed subscribers seeded`);
    await seed({ dataDir, databaseUrl: db.databaseUrl }, o.subscribers, o.others);
    server = startServer(o.serverArgs, env);
    await waitReady(base, server, 60_000);
    // The embedded database's memory, from its start with the server to the campaign's end.
    database = db.databaseUrl ? undefined : sampleDatabasePss(dataDir);

    const api = await ownerApi(base, env);
    const issue = await api('POST', '/newsletter/issues', ISSUE);
    const preview = await api('GET', `/newsletter/issues/${issue.id}/preview`);

    o.log(`Newsletter ${label}: the issue sent now, contact forms meanwhile`);
    const arrivedWhole = () => sink.figures().recipients >= o.subscribers;
    // The forms begin with the send click, so that they meet the writing of the recipients too.
    const formsDone = submitForms(base, origin, { everyMs: 150, max: o.forms, done: arrivedWhole });
    const clicked = performance.now();
    const sending = await api('POST', `/newsletter/issues/${issue.id}/send`, { at: '' });
    const sendRequestMs = performance.now() - clicked;
    if (sending.progress?.recipients !== o.subscribers) {
      throw new Error(`the issue has ${sending.progress?.recipients} recipients, not ${o.subscribers}`);
    }
    const end = Date.now() + o.timeoutMs;
    while (!arrivedWhole() && Date.now() < end) await sleep(50);
    const forms = await formsDone;
    // Anything sent twice arrives after the rest; the last owner e-mails are let arrive.
    await sleep(1000);
    const answered = forms.filter((f) => f.status === 200);
    const ownerEnd = Date.now() + 5000;
    while (answered.some((f) => !sink.ownerArrivals.has(f.n)) && Date.now() < ownerEnd) await sleep(50);

    // The console's own count, once the chore has marked the issue sent.
    let detail = await api('GET', `/newsletter/issues/${issue.id}`);
    const statusEnd = Date.now() + 15_000;
    while (detail.status !== 'sent' && Date.now() < statusEnd) {
      await sleep(500);
      detail = await api('GET', `/newsletter/issues/${issue.id}`);
    }
    const peak = peakRssMb(server.pid);
    const dbPeak = await database?.stop();
    await stop(server);

    const { mails, bytes, first, last } = sink.figures();
    let delivered = 0;
    let duplicates = 0;
    let strays = 0;
    for (const [address, times] of sink.byRecipient) {
      const i = Number(/^reader(\d+)@example\.org$/.exec(address)?.[1] ?? 0);
      if (i >= 1 && i <= o.subscribers) delivered += 1;
      else strays += 1;
      duplicates += times - 1;
    }
    const seconds = (last - first) / 1000;
    const emailsPerS = Math.round((mails - 1) / seconds);
    const latencies = answered
      .filter((f) => sink.ownerArrivals.has(f.n))
      .map((f) => Math.max(0, sink.ownerArrivals.get(f.n) - f.answeredAt))
      .sort((a, b) => a - b);

    o.log(`Newsletter ${label}: the bare pooled transport sends as many`);
    const bareEmailsPerS = await runAnchor({
      script: './bench-mail-anchor.mjs',
      instances: 1,
      count: o.subscribers,
      message: {
        mail: {
          from: { name: site.brand, address: MAIL_FROM },
          to: 'reader@example.org',
          subject: preview.subject,
          html: preview.html,
          text: preview.text,
          headers: {
            'List-Id': `The Smart Money Newsletter <newsletter.localhost>`,
            'List-Unsubscribe': `<${env.PUBLIC_URL}/api/newsletter/unsubscribe?token=example>`,
            'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
          },
          disableFileAccess: true,
          disableUrlAccess: true,
        },
      },
    });
    return {
      db: label,
      subscribers: o.subscribers,
      mailKb: Math.round(bytes / mails / 102.4) / 10,
      delivered,
      emailsPerS,
      bareEmailsPerS,
      ratio: Math.round((emailsPerS / bareEmailsPerS) * 100) / 100,
      sendRequestS: Math.round(sendRequestMs / 100) / 10,
      campaignS: Math.round((last - clicked) / 100) / 10,
      seconds: Math.round(seconds * 10) / 10,
      duplicates,
      missing: o.subscribers - delivered,
      strays,
      status: detail.status,
      consoleSent: detail.progress?.sent ?? 0,
      consoleFailed: detail.progress?.failed ?? 0,
      forms: forms.length,
      formsAnswered: answered.length,
      ownerMails: latencies.length,
      ownerP50Ms: Math.round(percentile(latencies, 0.5)),
      ownerP99Ms: Math.round(percentile(latencies, 0.99)),
      ownerMaxMs: Math.round(latencies.at(-1) ?? NaN),
      formAnswerP99Ms: Math.round(
        percentile(
          answered.map((f) => f.answerMs).sort((a, b) => a - b),
          0.99,
        ),
      ),
      peakRssMb: peak,
      ...(database ? { dbPeakPssMb: dbPeak, peakSumMb: sumMb(peak, dbPeak) } : {}),
    };
  } finally {
    await database?.stop();
    if (server) await stop(server);
    await sink.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The newsletter part. `serverArgs`: how to start a server (the build's start command, or the
 * sources through tsx); `withPostgres(fn)`: a throwaway Postgres database for `fn(url)`.
 */
export async function runNewsletter({
  serverArgs,
  withPostgres,
  port,
  subscribers = 20_000,
  others = 200,
  forms = 200,
  timeoutMs = 150_000,
  log = console.log,
}) {
  const o = { serverArgs, port, subscribers, others, forms, timeoutMs, log };
  const rows = [await runOn('embedded', {}, o)];
  rows.push(await withPostgres((databaseUrl) => runOn('postgres', { databaseUrl }, o)));
  return rows;
}

/** The issue's targets, as rows of { target, figure, met }. */
export function newsletterTargets(rows) {
  const t = [];
  const add = (target, figure, met) => t.push({ target, figure, met: met ? 'yes' : 'NO' });
  const { emailsPerS, ownerMailP99Ms } = NEWSLETTER_TARGETS;
  for (const r of rows ?? []) {
    add(
      `newsletter ${r.db}: ${r.subscribers.toLocaleString('en-GB')} subscribers unthrottled, >= ${emailsPerS} e-mails/s, each exactly once`,
      `${r.emailsPerS}/s (${r.ratio} x bare pool ${r.bareEmailsPerS}/s), ${r.duplicates} duplicates, ${r.missing} missing, ${r.strays} to others; console: ${r.status}, ${r.consoleSent} sent, ${r.consoleFailed} failed`,
      r.emailsPerS >= emailsPerS &&
        r.duplicates === 0 &&
        r.missing === 0 &&
        r.strays === 0 &&
        r.consoleSent === r.subscribers,
    );
    add(
      `newsletter ${r.db}: a contact form's owner e-mail at the SMTP peer <= ${ownerMailP99Ms} ms p99 during the campaign`,
      `p99 ${r.ownerP99Ms} ms (median ${r.ownerP50Ms}, slowest ${r.ownerMaxMs}; ${r.ownerMails} arrived of ${r.formsAnswered} answered, ${r.forms} sent; the forms answered in ${r.formAnswerP99Ms} ms p99)`,
      r.ownerP99Ms <= ownerMailP99Ms &&
        r.forms > 0 &&
        r.formsAnswered === r.forms &&
        r.ownerMails === r.formsAnswered,
    );
  }
  return t;
}
