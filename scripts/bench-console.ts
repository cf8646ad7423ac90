/**
 * The bench's console part: a million submissions seeded (scripts/console-seed.ts) on PGlite
 * and on a throwaway Postgres database, then the real server started on each and the owner's
 * console API timed over HTTP, one request at a time as one owner browsing makes them:
 *  - first: the inbox's first page (GET /api/owner/submissions);
 *  - filtered: one form over about a month (?form=&from=&to=), months spread over the two years;
 *  - search: a surname or an e-mail fragment (?q=), from common (smith) to rare;
 *  - detail: one submission (GET /api/owner/submissions/:id), ids taken from the pages above.
 * The session comes the way an owner's first one does: `scripts/owner-link.ts` run with the
 * server's settings prints a sign-in link, and its token is posted to /api/owner/sign-in/link.
 * Reports each request's p50, p95 and slowest time, and the server's peak RSS while measuring
 * (the kernel's high-water mark, reset once the server is up and signed in).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { SEARCH_TERMS, SPAN_DAYS } from './console-seed';

export const CONSOLE_REQUESTS = ['first', 'filtered', 'search', 'detail'] as const;
type RequestName = (typeof CONSOLE_REQUESTS)[number];

export type ConsoleRequestRow = {
  db: string;
  request: RequestName;
  samples: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  errors: number;
};
export type ConsoleServerRow = {
  db: string;
  submissions: number;
  seedS: number;
  readyMs: number;
  peakRssMb: number;
};
/** Personal data on the same database (issue: exports, subject access, erasure, retention). */
export type PersonalDataRow = {
  db: string;
  exportRows: number;
  exportRowsPerS: number;
  exportPeakRssMb: number;
  lookupP95Ms: number;
  eraseMaxMs: number;
  erased: number;
  retentionS: number;
  retentionRemoved: number;
  /** The run ended by itself, not stopped early, within the bench's 15 minutes. */
  retentionEnded: boolean;
  submitDuringRetentionP99Ms: number;
  submitsDuringRetention: number;
  /** Submissions refused, failed or not answered 200 while the run went on. */
  submitErrorsDuringRetention: number;
};
export type ConsoleResults = {
  requests: ConsoleRequestRow[];
  servers: ConsoleServerRow[];
  personal: PersonalDataRow[];
};

export type ConsoleOptions = {
  /** How to start a server: node's arguments (the build's start command). */
  serverArgs: string[];
  /** A throwaway Postgres database for `fn(url)`, dropped afterwards. */
  withPostgres: <T>(fn: (url: string) => Promise<T>) => Promise<T>;
  port: number;
  count?: number;
  /** Timed requests of each kind (after a few untimed ones), at most `measureSeconds` in all. */
  samples?: number;
  measureSeconds?: number;
  log?: (line: string) => void;
};

const OWNER = 'owner@example.com';

function startServer(args: string[], env: Record<string, string>): ChildProcess {
  // Its warnings and errors (LOG_LEVEL=warn, on stdout) go into the bench's output.
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
  });
  child.once('exit', (code, signal) => {
    if (code !== 0 && signal !== 'SIGTERM') console.error(`bench: the server exited (${code ?? signal})`);
  });
  return child;
}

async function waitReady(port: number, child: ChildProcess, timeoutMs = 120_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `the server on port ${port} exited (${child.exitCode ?? child.signalCode}) before it was ready`,
      );
    }
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) return;
    } catch {
      /* not listening yet */
    }
    await sleep(20);
  }
  throw new Error(`the server on port ${port} did not become ready`);
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(20_000).then(() => child.kill('SIGKILL'))]);
}

/** Resident set size now and its high-water mark, in MB. */
function rssMb(pid: number): { now: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const mb = (field: string) =>
    Math.round((Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024) * 10) / 10;
  return { now: mb('VmRSS'), peak: mb('VmHWM') };
}

/** Starts the kernel's high-water mark again from the present RSS (Linux: clear_refs 5). */
function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/**
 * Seeds one database in a process of its own (scripts/console-seed.ts), so PGlite's seed, which
 * holds its thread for minutes, runs beside Postgres' instead of before it.
 */
async function seed(side: Side, count: number, now: Date, log: (line: string) => void): Promise<number> {
  const target = side.databaseUrl
    ? ['--database-url', side.databaseUrl]
    : ['--pglite', join(side.dataDir, 'pglite')];
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'scripts/console-seed.ts',
      ...target,
      '--count',
      String(count),
      '--now',
      now.toISOString(),
      '--owner',
      OWNER,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    out += chunk;
    for (;;) {
      const end = out.indexOf('\n');
      if (end < 0) break;
      const line = out.slice(0, end);
      out = out.slice(end + 1);
      if (line.startsWith('{')) side.seedS = Math.round((JSON.parse(line) as { seconds: number }).seconds);
      else log(`Console ${side.label}:${line}`);
    }
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`seeding ${side.label} failed (exit ${code})`);
  return side.seedS;
}

/** A session cookie, got the way the owner's first sign-in goes: owner-link, then the link's token. */
async function signIn(base: string, env: Record<string, string>): Promise<string> {
  const link = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/owner-link.ts'], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  if (link.status !== 0) throw new Error(`owner-link failed: ${link.stderr}`);
  const token = new URL(link.stdout.trim()).searchParams.get('token');
  if (!token) throw new Error('owner-link printed no sign-in token');
  const res = await fetch(`${base}/api/owner/sign-in/link`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: new URL(env.PUBLIC_URL!).origin },
    body: JSON.stringify({ token }),
  });
  const cookie = res.headers.getSetCookie()[0]?.split(';')[0];
  if (res.status !== 200 || !cookie) throw new Error(`sign-in answered ${res.status}`);
  return cookie;
}

type Page = { items: { id: string; email?: string }[]; next: string | null };

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

const round = (ms: number) => Math.round(ms * 10) / 10;

/** The filtered pages: each form over about a month, the months spread over the seeded span. */
function filters(now: Date): string[] {
  const forms = ['contact', 'booking', 'bitcoin_guide', 'newsletter'];
  const out: string[] = [];
  const day = (d: Date) => d.toISOString().slice(0, 10);
  for (let k = 0; k < 8; k += 1) {
    const to = new Date(now.getTime() - Math.floor((k * (SPAN_DAYS - 40)) / 7) * 86_400_000);
    const from = new Date(to.getTime() - 30 * 86_400_000);
    out.push(`form=${forms[k % forms.length]}&from=${day(from)}&to=${day(to)}`);
  }
  return out;
}

/**
 * The timed requests, interleaved (first, filtered, search, detail, first, ...) as one owner
 * browsing makes them. Each answer is checked: 200, and a page with rows (a search finds some).
 */
async function measure(
  base: string,
  cookie: string,
  now: Date,
  samples: number,
  measureSeconds: number,
): Promise<{
  timed: Record<RequestName, { times: number[]; errors: number }>;
  terms: Map<string, number[]>;
  emails: string[];
}> {
  const api = `${base}/api/owner/submissions`;
  const emails: string[] = [];
  const get = async (url: string): Promise<{ ms: number; ok: boolean; body: unknown }> => {
    const start = performance.now();
    try {
      const res = await fetch(url, { headers: { cookie } });
      const body: unknown = await res.json();
      return { ms: performance.now() - start, ok: res.status === 200, body };
    } catch {
      return { ms: performance.now() - start, ok: false, body: null };
    }
  };
  const hasRows = (body: unknown) =>
    Array.isArray((body as Page | null)?.items) && (body as Page).items.length > 0;
  const filtered = filters(now);
  const searches = SEARCH_TERMS.map((q) => `q=${encodeURIComponent(q)}`);
  const ids: string[] = [];
  const collect = (body: unknown) => {
    const items = (body as Page | null)?.items ?? [];
    for (const item of items) if (item.email && !emails.includes(item.email)) emails.push(item.email);
    // A few from each page: new, old and found rows alike.
    for (const item of [items[0], items[Math.floor(items.length / 2)], items[items.length - 1]]) {
      if (item && !ids.includes(item.id)) ids.push(item.id);
    }
  };
  const requests: Record<RequestName, (n: number) => string> = {
    first: () => api,
    filtered: (n) => `${api}?${filtered[n % filtered.length]}`,
    search: (n) => `${api}?${searches[n % searches.length]}`,
    detail: (n) => `${api}/${ids[(n * 7) % ids.length]}`,
  };
  const out = Object.fromEntries(
    CONSOLE_REQUESTS.map((r) => [r, { times: [] as number[], errors: 0 }]),
  ) as Record<RequestName, { times: number[]; errors: number }>;
  // Untimed: every filter and search once (which also gathers the ids to open), then a few details.
  for (const n of filtered.keys()) collect((await get(requests.filtered(n))).body);
  for (const n of searches.keys()) collect((await get(requests.search(n))).body);
  collect((await get(requests.first(0))).body);
  if (ids.length === 0) throw new Error('the inbox answered no rows to open');
  for (let n = 0; n < 3; n += 1) await get(requests.detail(n));

  const terms = new Map(SEARCH_TERMS.map((term) => [term, [] as number[]]));
  const end = performance.now() + measureSeconds * 1000;
  for (let n = 0; n < samples && performance.now() < end; n += 1) {
    for (const name of CONSOLE_REQUESTS) {
      const { ms, ok, body } = await get(requests[name](n));
      const good =
        ok && (name === 'detail' ? (body as { id?: string } | null)?.id !== undefined : hasRows(body));
      out[name].times.push(ms);
      if (name === 'search') terms.get(SEARCH_TERMS[n % SEARCH_TERMS.length]!)?.push(ms);
      if (!good) out[name].errors += 1;
    }
  }
  return { timed: out, terms, emails };
}

/**
 * Personal data on the seeded database, after the inbox timings: the whole inbox exported as
 * CSV (rows a second, and the server's peak RSS meanwhile), people looked up and erased by
 * address, and a retention run with contact submissions arriving meanwhile (their p99).
 */
async function measurePersonal(
  base: string,
  cookie: string,
  pid: number,
  emails: string[],
  origin: string,
): Promise<Omit<PersonalDataRow, 'db'>> {
  const headers = { cookie, origin, 'content-type': 'application/json' };
  // The whole inbox (every form, spam included) as CSV, read as it streams.
  resetPeak(pid);
  const started = performance.now();
  const res = await fetch(`${base}/api/owner/exports/submissions.csv?status=all`, { headers: { cookie } });
  // Records, not lines: a message's line breaks sit inside quotes (RFC 4180), so a line feed ends
  // a record only outside them; a doubled quote toggles twice.
  // Counted with the native indexOf, jumping from one quote or line feed to the next: a loop over
  // every byte took a second of the machine's two cores per million rows away from the server.
  let records = 0;
  let quoted = false;
  for await (const body of res.body as unknown as AsyncIterable<Uint8Array>) {
    const chunk = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
    let at = 0;
    let quote = chunk.indexOf(34, at);
    let feed = chunk.indexOf(10, at);
    while (quote >= 0 || feed >= 0) {
      if (quote >= 0 && (feed < 0 || quote < feed)) {
        quoted = !quoted;
        at = quote + 1;
        quote = chunk.indexOf(34, at);
      } else {
        if (!quoted) records += 1;
        at = feed + 1;
        feed = chunk.indexOf(10, at);
      }
    }
  }
  const exportS = (performance.now() - started) / 1000;
  const exportPeakRssMb = rssMb(pid).peak;
  const exportRows = records - 1;

  const lookups: number[] = [];
  for (const email of emails.slice(0, 40)) {
    const t0 = performance.now();
    const answer = await fetch(`${base}/api/owner/people?email=${encodeURIComponent(email)}`, {
      headers: { cookie },
    });
    await answer.arrayBuffer();
    lookups.push(performance.now() - t0);
  }
  const erases: number[] = [];
  for (const email of emails.slice(40, 55)) {
    const t0 = performance.now();
    const answer = await fetch(`${base}/api/owner/people/erase`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ email }),
    });
    await answer.arrayBuffer();
    if (answer.status === 200) erases.push(performance.now() - t0);
  }

  // Retention, with a contact form submitted every 20 ms meanwhile (the bench server skips the
  // fill-time token and the rate limit: a load generator has neither).
  const submits: number[] = [];
  let submitErrors = 0;
  let running = true;
  const submitter = (async () => {
    let n = 0;
    while (running) {
      n += 1;
      const t0 = performance.now();
      try {
        const answer = await fetch(`${base}/api/send-contact-email`, {
          method: 'POST',
          headers: { origin, 'content-type': 'application/json' },
          body: JSON.stringify({
            formType: 'contact',
            firstName: 'Bench',
            lastName: `Retention ${n}`,
            email: `bench.retention.${n}@example.org`,
            company: 'Bench Ltd',
            subject: 'other',
            message: 'Measuring the form while retention runs.',
            consent: true,
            website: '',
          }),
        });
        await answer.arrayBuffer();
        if (answer.status === 200) submits.push(performance.now() - t0);
        else submitErrors += 1;
      } catch {
        // Refused or reset: counted, and the run goes on.
        submitErrors += 1;
      }
      await sleep(20);
    }
  })();
  const r0 = performance.now();
  let counts: Record<string, number> | null = null;
  let retentionEnded = false;
  try {
    // "Run now" answers at once (202); the run is followed as the console page follows it.
    const started = await fetch(`${base}/api/owner/retention/run`, { method: 'POST', headers, body: '{}' });
    const { runId } = (await started.json()) as { runId: number };
    const end = Date.now() + 15 * 60_000;
    while (Date.now() < end) {
      await sleep(250);
      const view = (await (await fetch(`${base}/api/owner/retention`, { headers: { cookie } })).json()) as {
        running: number | null;
        runs: { id: number; interrupted: boolean; counts: Record<string, number> | null }[];
      };
      if (view.running !== null) continue;
      const run = view.runs.find((r) => r.id === runId);
      counts = run?.counts ?? null;
      retentionEnded = Boolean(run && !run.interrupted && run.counts);
      break;
    }
  } catch {
    // The run's request or its follow-up failed: counted below as a run that did not end.
  }
  const retentionS = (performance.now() - r0) / 1000;
  // At least a second of submissions, whatever the run's length.
  if (performance.now() - r0 < 1000) await sleep(1000 - (performance.now() - r0));
  running = false;
  await submitter;
  const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
  return {
    exportRows,
    exportRowsPerS: Math.round(exportRows / exportS),
    exportPeakRssMb,
    lookupP95Ms: round(percentile(sorted(lookups), 0.95)),
    eraseMaxMs: round(Math.max(...erases)),
    erased: erases.length,
    retentionS: round(retentionS),
    retentionRemoved: Object.values(counts ?? {}).reduce((a, b) => a + b, 0),
    retentionEnded,
    submitDuringRetentionP99Ms: round(percentile(sorted(submits), 0.99)),
    submitsDuringRetention: submits.length,
    submitErrorsDuringRetention: submitErrors,
  };
}

type Side = {
  label: string;
  databaseUrl?: string;
  dataDir: string;
  env: Record<string, string>;
  seedS: number;
};

function side(label: string, port: number, databaseUrl?: string): Side {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-console-'));
  return {
    label,
    databaseUrl,
    dataDir,
    seedS: 0,
    env: {
      DATA_DIR: dataDir,
      PORT: String(port),
      PUBLIC_URL: `http://localhost:${port}`,
      OWNER_EMAIL: OWNER,
      APP_SECRET: randomBytes(32).toString('base64url'),
      // The personal-data part submits forms as a load generator does: no fill-time token, one client.
      BENCH_DISABLE_FILL_TIME: 'true',
      BENCH_DISABLE_RATE_LIMIT: 'true',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
  };
}

/** One server on a seeded database: started, signed in to, timed, stopped. */
async function timeServer(
  s: Side,
  count: number,
  now: Date,
  { serverArgs, port, samples = 150, measureSeconds = 40, log = console.log }: ConsoleOptions,
): Promise<{ requests: ConsoleRequestRow[]; server: ConsoleServerRow; personal: PersonalDataRow }> {
  const base = `http://127.0.0.1:${port}`;
  const startedAt = performance.now();
  const server = startServer(serverArgs, s.env);
  try {
    await waitReady(port, server);
    const readyMs = Math.round(performance.now() - startedAt);
    const cookie = await signIn(base, s.env);
    const pid = server.pid!;
    const reset = resetPeak(pid);
    log(`Console: timing the inbox on ${s.label} (ready in ${readyMs} ms, RSS ${rssMb(pid).now} MB)`);
    const { timed, terms, emails } = await measure(base, cookie, now, samples, measureSeconds);
    const { peak } = rssMb(pid);
    log(`Console: personal data on ${s.label} (export, look-ups, erasure, retention)`);
    const personal = {
      db: s.label,
      ...(await measurePersonal(base, cookie, pid, emails, new URL(s.env.PUBLIC_URL!).origin)),
    };
    const median = (times: number[]) =>
      round(
        percentile(
          [...times].sort((a, b) => a - b),
          0.5,
        ),
      );
    log(
      `Console: ${s.label} search, median ms by term: ${[...terms].map(([t, times]) => `${t} ${median(times)}`).join(', ')}`,
    );
    if (!reset) log('Console: could not reset the peak RSS; it counts from the server start');
    const requests = CONSOLE_REQUESTS.map((request) => {
      const sorted = [...timed[request].times].sort((a, b) => a - b);
      return {
        db: s.label,
        request,
        samples: sorted.length,
        p50Ms: round(percentile(sorted, 0.5)),
        p95Ms: round(percentile(sorted, 0.95)),
        maxMs: round(sorted[sorted.length - 1] ?? NaN),
        errors: timed[request].errors,
      };
    });
    return {
      requests,
      server: { db: s.label, submissions: count, seedS: s.seedS, readyMs, peakRssMb: peak },
      personal,
    };
  } finally {
    await stop(server);
  }
}

/**
 * The console part: PGlite and a throwaway Postgres database, each migrated by a first start of
 * the server, seeded side by side, then timed one after the other (nothing else running).
 */
export async function runConsole(options: ConsoleOptions): Promise<ConsoleResults> {
  const { serverArgs, port, count = 1_000_000, log = console.log } = options;
  return options.withPostgres(async (url) => {
    const sides = [side('pglite', port), side('postgres', port, url)];
    try {
      for (const s of sides) {
        const setup = startServer(serverArgs, s.env);
        try {
          await waitReady(port, setup);
        } finally {
          await stop(setup);
        }
      }
      // The newest rows are a month old: the retention run then finds what a month of traffic
      // leaves due (the held spam, the contact messages and bookings past 24 months, the e-mail
      // texts past 30 days), tens of thousands of rows, as the daily job's first run would.
      const now = new Date(Date.now() - 30 * 86_400_000);
      log(`Console: seeding ${count.toLocaleString('en-GB')} submissions on PGlite and on Postgres`);
      await Promise.all(sides.map((s) => seed(s, count, now, log)));
      const results = [];
      for (const s of sides) results.push(await timeServer(s, count, now, options));
      return {
        requests: results.flatMap((r) => r.requests),
        servers: results.map((r) => r.server),
        personal: results.map((r) => r.personal),
      };
    } finally {
      for (const s of sides) rmSync(s.dataDir, { recursive: true, force: true });
    }
  });
}
