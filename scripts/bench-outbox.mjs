/**
 * The bench's outbox part: 10,000 queued e-mails (outbox rows inserted directly, owner e-mails
 * with a submission's fields) drained by real server processes into an SMTP sink in this
 * process (127.0.0.1 only). One instance on the embedded PostgreSQL (no DATABASE_URL: the
 * cluster of its own DATA_DIR), one on the external Postgres, then two instances sharing it. Reports e-mails a second (first to last e-mail at the sink), duplicates
 * (a Message-ID seen twice) and the rows recorded sent afterwards. Beside each run, its anchor
 * (decision 027): as many processes, each a bare pooled nodemailer transport
 * (scripts/bench-mail-anchor.mjs) with the worker's connections, send the same number of the
 * same message to a sink of the same kind; the run's ratio is its rate over theirs. And its
 * second anchor (decision 029, addendum): as many bare outboxes (scripts/bench-outbox-anchor.mjs)
 * drain the same rows queued again on the same database, with the worker's claim and one mark
 * statement a round; `outboxRatio` is the run's rate over theirs, the figure the target judges.
 */
import { fork, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { SMTPServer } from 'smtp-server';
import { site } from '../src/content/site.ts';
import { renderEmail } from '../src/server/kit/mail/layout.ts';
import { SMTP_CONNECTIONS } from '../src/server/kit/mail/transport.ts';
import { withBenchClient } from './bench-database.mjs';

const OWNER = 'owner@example.com';
const MAIL_FROM = 'hello@example.com';

/** A submission's owner notification, as the contact form queues it (decision 014: content, not HTML). */
function ownerMessage() {
  return {
    subject: 'New contact message',
    replyTo: 'ada@example.org',
    content: {
      preheader: 'Ada Lovelace (Analytical Engines Ltd) sent a message about training',
      heading: 'New contact message',
      blocks: [
        {
          type: 'fields',
          rows: [
            ['Name', 'Ada Lovelace'],
            ['E-mail', 'ada@example.org'],
            ['Company', 'Analytical Engines Ltd'],
            ['Subject', 'Team training'],
          ],
        },
        {
          type: 'quote',
          text: 'We would like a workshop on Bitcoin for 8 advisers.\nThursdays suit us best; could you send dates for next month?',
        },
        { type: 'small', text: 'Reply to this e-mail to answer Ada directly.' },
      ],
      footer: [{ type: 'small', text: 'Submission 00000000-0000-4000-8000-000000000000 · contact form' }],
    },
  };
}

const SEED = `
  insert into outbox (kind, to_address, audience, message)
  select 'contact.owner', $2, 'owner', jsonb_set($1::jsonb, '{subject}', to_jsonb('New contact message ' || i))
  from generate_series(1, $3::int) as i`;
const SENT = `select count(*)::int as n from outbox where status = 'sent'`;

/** The SMTP sink: counts each Message-ID and when the first and last e-mails arrived. */
async function startSink() {
  const seen = new Map();
  let total = 0;
  let first = 0;
  let last = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      let head = '';
      stream.on('data', (chunk) => {
        if (head.length < 4096) head += chunk.toString('latin1');
      });
      stream.on('end', () => {
        const id = /^message-id:\s*(\S+)/im.exec(head)?.[1] ?? '?';
        seen.set(id, (seen.get(id) ?? 0) + 1);
        total += 1;
        const now = performance.now();
        if (!first) first = now;
        last = now;
        callback();
      });
    },
  });
  server.on('error', () => {});
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${server.server.address().port}`,
    figures: () => ({ total, unique: seen.size, seconds: (last - first) / 1000 }),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

function startServer(args, env) {
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      OWNER_EMAIL: OWNER,
      MAIL_FROM,
      ...env,
    },
  });
  return child;
}

async function waitReady(port, timeoutMs = 60_000) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) return;
    } catch {
      /* not listening yet */
    }
    await sleep(20);
  }
  throw new Error(`the server on port ${port} did not become ready`);
}

async function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(20_000).then(() => child.kill('SIGKILL'))]);
}

/**
 * Runs statements on the bench's database, the embedded cluster of its DATA_DIR (started for the
 * while, no server running on it) or Postgres.
 */
function withDb(store, fn) {
  return withBenchClient(store, (client) => fn((text, params) => client.query(text, params)));
}

/**
 * The message the worker sends for a seeded row (the outbox's `toMail`), rendered once: the
 * anchor's nodemailer composes it for every send, as the worker's does.
 */
function anchorMail() {
  const { subject, replyTo, content } = ownerMessage();
  return {
    from: { name: site.brand, address: MAIL_FROM },
    to: OWNER,
    replyTo,
    subject,
    ...renderEmail(content),
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}

/**
 * `instances` processes of an anchor `script` (plain node unless `execArgv` says otherwise)
 * sending `count` e-mails between them to a sink of their own; answers their e-mails a second.
 * The newsletter part (scripts/bench-newsletter.mjs) measures its anchor with it too.
 */
export async function runAnchor({ script, instances, count, message, execArgv = [] }) {
  const sink = await startSink();
  try {
    await Promise.all(
      Array.from({ length: instances }, (_, i) => {
        const child = fork(new URL(script, import.meta.url), {
          execArgv,
          stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
        });
        const share = Math.floor(count / instances) + (i < count % instances ? 1 : 0);
        child.send({ smtpUrl: sink.url, count: share, connections: SMTP_CONNECTIONS, ...message });
        return new Promise((resolve, reject) => {
          child.once('message', resolve);
          child.once('exit', (code) => (code ? reject(new Error(`${script} exited (${code})`)) : resolve()));
        });
      }),
    );
    const { total, unique, seconds } = sink.figures();
    if (unique < count || total > unique) {
      throw new Error(`${script} delivered ${unique} of ${count} (${total - unique} twice)`);
    }
    return Math.round((unique - 1) / seconds);
  } finally {
    await sink.close();
  }
}

/** The first anchor of a run: `instances` bare pooled transports sending `count` e-mails between them. */
function bareSend({ instances, count }) {
  return runAnchor({ script: './bench-mail-anchor.mjs', instances, count, message: { mail: anchorMail() } });
}

/**
 * The second anchor (decision 029, addendum): `instances` bare outboxes draining the same
 * `count` rows, queued again on the run's database, with the worker's claim and one mark a round.
 */
async function bareOutbox({ instances, count, db }) {
  await withDb(db, async (q) => {
    await q('delete from outbox');
    await q(SEED, [JSON.stringify(ownerMessage()), OWNER, count]);
  });
  const rate = await runAnchor({
    script: './bench-outbox-anchor.mjs',
    // It starts the embedded cluster with the server's TypeScript (scripts/bench-database.mjs).
    execArgv: ['--import', 'tsx'],
    instances,
    count,
    message: { mail: anchorMail(), databaseUrl: db.databaseUrl, dataDir: db.dataDir },
  });
  const sent = await withDb(db, async (q) => (await q(SENT)).rows[0].n);
  if (sent !== count) throw new Error(`the bare outbox recorded ${sent} of ${count} sent`);
  return rate;
}

/**
 * One run: a server started and stopped once (it creates the schema), the e-mails queued, then
 * `instances` servers started together to drain them.
 */
async function drain({ label, db, instances, count, serverArgs, basePort }) {
  const sink = await startSink();
  const dataDirs = Array.from({ length: instances }, () => mkdtempSync(join(tmpdir(), 'bench-outbox-')));
  const env = (i) => ({
    DATA_DIR: dataDirs[i],
    PORT: String(basePort + i),
    SMTP_URL: sink.url,
    // Empty: the embedded cluster of DATA_DIR, whatever the bench's own environment says.
    DATABASE_URL: db.databaseUrl ?? '',
  });
  const dbOf = { dataDir: dataDirs[0], databaseUrl: db.databaseUrl };
  try {
    const setup = startServer(serverArgs, env(0));
    await waitReady(basePort);
    await stop(setup);
    await withDb(dbOf, (q) => q(SEED, [JSON.stringify(ownerMessage()), OWNER, count]));
    const children = [];
    for (let i = 0; i < instances; i += 1) children.push(startServer(serverArgs, env(i)));
    const end = Date.now() + 180_000;
    while (sink.figures().unique < count && Date.now() < end) await sleep(50);
    // Anything sent twice arrives after the lease of a row that was not recorded.
    await sleep(1000);
    await Promise.all(children.map(stop));
    const { total, unique, seconds } = sink.figures();
    const sent = await withDb(dbOf, async (q) => (await q(SENT)).rows[0].n);
    const emailsPerS = Math.round((unique - 1) / seconds);
    const bareEmailsPerS = await bareSend({ instances, count });
    const bareOutboxEmailsPerS = await bareOutbox({ instances, count, db: dbOf });
    return {
      run: label,
      instances,
      queued: count,
      delivered: unique,
      emailsPerS,
      bareEmailsPerS,
      ratio: Math.round((emailsPerS / bareEmailsPerS) * 100) / 100,
      bareOutboxEmailsPerS,
      outboxRatio: Math.round((emailsPerS / bareOutboxEmailsPerS) * 100) / 100,
      seconds: Math.round(seconds * 10) / 10,
      duplicates: total - unique,
      recordedSent: sent,
    };
  } finally {
    await sink.close();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The outbox part. `serverArgs`: how to start a server (the build's start command, or the
 * sources through tsx); `withPostgres(fn)`: a throwaway Postgres database for `fn(url)`.
 */
export async function runOutbox({ serverArgs, withPostgres, basePort, count = 10_000 }) {
  const rows = [];
  console.log(`Outbox: ${count} e-mails, one instance on the embedded PostgreSQL`);
  rows.push(await drain({ label: 'embedded', db: {}, instances: 1, count, serverArgs, basePort }));
  console.log(`Outbox: ${count} e-mails, one instance on Postgres`);
  rows.push(
    await withPostgres((databaseUrl) =>
      drain({ label: 'postgres', db: { databaseUrl }, instances: 1, count, serverArgs, basePort }),
    ),
  );
  console.log(`Outbox: ${count} e-mails, two instances on Postgres`);
  rows.push(
    await withPostgres((databaseUrl) =>
      drain({ label: 'postgres x2', db: { databaseUrl }, instances: 2, count, serverArgs, basePort }),
    ),
  );
  return rows;
}
