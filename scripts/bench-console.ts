/**
 * The bench's console part: a million submissions seeded (scripts/console-seed.ts) on the
 * embedded PostgreSQL (the cluster of the server's own DATA_DIR) and on a throwaway database of
 * the external Postgres, then the real server started on each and the owner's console API timed
 * over HTTP, one request at a time as one owner browsing makes them:
 *  - first: the inbox's first page (GET /api/owner/submissions);
 *  - filtered: one form over about a month (?form=&from=&to=), months spread over the two years;
 *  - search: a surname or an e-mail fragment (?q=), from common (smith) to rare;
 *  - detail: one submission (GET /api/owner/submissions/:id), ids taken from the pages above.
 * The session comes the way an owner's first one does: `scripts/owner-link.ts` run with the
 * server's settings prints a sign-in link, and its token is posted to /api/owner/sign-in/link.
 * Reports each request's p50, p95 and slowest time, and the server's peak RSS while measuring
 * (the kernel's high-water mark, reset once the server is up and signed in); on the embedded
 * PostgreSQL also its database's peak PSS over the same time (scripts/bench-process.mjs) and the
 * sum of the two.
 *
 * Every speed figure has its anchor in the same run (decision 027 and its addendum): the same
 * SQL run by a bare client, with none of the console's code, on a copy of the same database
 * made after the seed and before either opened it (scripts/bench-console-anchor.mjs):
 *  - the console server runs with a statement log (scripts/bench-console-capture.mjs), which
 *    writes down the statements, with their values, of the requests that carry a tag: an
 *    untimed pass over every request the timed loop will make (and every person it looks up),
 *    and the erasures themselves, which happen once;
 *  - the bare server replays a request's statements (sent as the console sent them) and answers
 *    their rows as JSON; the bench times it with the same client right beside each console
 *    request (the two alternate who goes first), after one untimed replay of each, as the
 *    console had its untimed pass;
 *  - the CSV export's anchor reads the same rows with a bare cursor and writes them with the
 *    same CSV library to the same kind of response, read by the same reader.
 * Each row keeps the absolute figures and adds the anchor's and the ratio. One figure has no
 * anchor, being a promise to visitors: a public page's, its masterclass answer's and a form's p99
 * while a full export runs (decision 033), at most 50 ms.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { CLUSTER_FOLDER } from '../src/server/kit/db/embedded-cluster';
import { startEmbeddedPostgres } from '../src/server/kit/db/embedded-postgres';
import { sampleDatabasePss, sumMb, type DatabasePssSampler } from './bench-process.mjs';
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
  /** Statements the request ran, on average over the requests of its kind. */
  statements: number;
  /** The same statements replayed by a bare client (scripts/bench-console-anchor.mjs). */
  bareP50Ms: number;
  bareP95Ms: number;
  bareMaxMs: number;
  bareErrors: number;
  /** p95 over the bare replay's p95. */
  ratio: number;
};
export type ConsoleServerRow = {
  db: string;
  submissions: number;
  seedS: number;
  /** Copying the seeded database for the anchor. */
  copyS: number;
  readyMs: number;
  peakRssMb: number;
  /** The embedded PostgreSQL's peak PSS over the same time, and the two peaks' sum. */
  dbPeakPssMb?: number;
  peakSumMb?: number;
};
/** Personal data on the same database (issue: exports, subject access, erasure, retention). */
export type PersonalDataRow = {
  db: string;
  exportRows: number;
  exportRowsPerS: number;
  exportPeakRssMb: number;
  /** The embedded PostgreSQL's peak PSS during the export, and the two peaks' sum. */
  exportDbPeakPssMb?: number;
  exportPeakSumMb?: number;
  /** The same rows by a bare cursor, written by csv-stringify's stream. */
  bareExportRows: number;
  bareExportRowsPerS: number;
  /** Rows a second over the bare export's. */
  exportRatio: number;
  /**
   * A second full export, with visitors meanwhile (decision 033): a public page, its masterclass
   * answer and a contact form, each asked for one after another with 20 ms between; their p99
   * and the requests not answered 200. The export's rows, to show it ran whole.
   */
  loadedExportRows: number;
  loadedExportS: number;
  pageDuringExportP99Ms: number;
  eventsDuringExportP99Ms: number;
  formDuringExportP99Ms: number;
  requestsDuringExport: number;
  errorsDuringExport: number;
  lookupP50Ms: number;
  bareLookupP50Ms: number;
  lookupP95Ms: number;
  bareLookupP95Ms: number;
  /** p95 over the bare p95. */
  lookupRatio: number;
  eraseP50Ms: number;
  bareEraseP50Ms: number;
  eraseMaxMs: number;
  bareEraseMaxMs: number;
  /** The median erasure over the median bare one. */
  eraseRatio: number;
  erased: number;
  /** Look-ups and erasures the bare replay failed. */
  bareErrors: number;
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
  /** The bare server's port (default: `port` + 1). */
  anchorPort?: number;
  count?: number;
  /** Timed requests of each kind (after a few untimed ones), at most `measureSeconds` in all. */
  samples?: number;
  measureSeconds?: number;
  log?: (line: string) => void;
};

/**
 * The targets on the console's figures (decision 027, addendum): each speed figure against its
 * bare replay or bare export in the same run; the memory, retention and error targets as they
 * were. Rows of { target, figure, met } as the bench's Targets table shows them.
 */
export const CONSOLE_TARGETS = {
  /** An inbox request's p95 at most this many times its bare statements' p95. */
  requestRatio: 2.5,
  /** A person's look-up (p95) and erasure (median) at most this many times the bare ones. */
  personRatio: 3,
  /** The CSV export at least this share of the bare cursor's rows a second. */
  exportRatio: 0.75,
  /** A public page's, its masterclass answer's and a form's p99 while a full export runs, at most (ms). */
  duringExportP99Ms: 50,
};

export function consoleTargets(r: ConsoleResults | null): { target: string; figure: string; met: string }[] {
  const t: { target: string; figure: string; met: string }[] = [];
  const add = (target: string, figure: string, met: boolean) =>
    t.push({ target, figure, met: met ? 'yes' : 'NO' });
  const { requestRatio, personRatio, exportRatio, duringExportP99Ms } = CONSOLE_TARGETS;
  for (const c of r?.requests ?? []) {
    add(
      `console ${c.db} ${c.request}: p95 <= ${requestRatio} x bare statements, 0 errors`,
      `${c.ratio} (${c.p95Ms} ms, bare ${c.bareP95Ms} ms; ${c.samples} requests), ${c.errors}, ${c.bareErrors} bare`,
      c.ratio <= requestRatio && c.errors === 0 && c.bareErrors === 0 && c.samples > 0,
    );
  }
  for (const s of r?.servers ?? []) {
    add(
      `console ${s.db}: peak RSS <= 200 MB while measuring`,
      s.dbPeakPssMb === undefined
        ? `${s.peakRssMb} MB`
        : `${s.peakRssMb} MB (the database ${s.dbPeakPssMb} MB PSS; together ${s.peakSumMb} MB)`,
      s.peakRssMb <= 200,
    );
  }
  for (const p of r?.personal ?? []) {
    add(
      `CSV export ${p.db}: >= ${exportRatio} x bare cursor, every row, peak RSS <= 250 MB`,
      `${p.exportRatio} (${p.exportRowsPerS} rows/s, bare ${p.bareExportRowsPerS}; ${p.exportRows}/${p.bareExportRows} rows), ${p.exportPeakRssMb} MB` +
        (p.exportDbPeakPssMb === undefined
          ? ''
          : ` (the database ${p.exportDbPeakPssMb} MB PSS; together ${p.exportPeakSumMb} MB)`),
      p.exportRatio >= exportRatio &&
        p.exportRows > 0 &&
        p.exportRows === p.bareExportRows &&
        p.exportPeakRssMb <= 250,
    );
    add(
      `site during a full export ${p.db}: page, /api/events/next and form p99 <= ${duringExportP99Ms} ms, every request answered`,
      `page ${p.pageDuringExportP99Ms} ms, events ${p.eventsDuringExportP99Ms} ms, form ${p.formDuringExportP99Ms} ms (${p.requestsDuringExport} requests, ${p.errorsDuringExport} not answered; export ${p.loadedExportRows} rows in ${p.loadedExportS} s)`,
      Math.max(p.pageDuringExportP99Ms, p.eventsDuringExportP99Ms, p.formDuringExportP99Ms) <=
        duringExportP99Ms &&
        p.requestsDuringExport > 0 &&
        p.errorsDuringExport === 0 &&
        p.loadedExportRows > 0,
    );
    add(
      `person look-up ${p.db}: p95 <= ${personRatio} x bare statements`,
      `${p.lookupRatio} (${p.lookupP95Ms} ms, bare ${p.bareLookupP95Ms} ms)`,
      p.lookupRatio <= personRatio,
    );
    add(
      `erase one person ${p.db}: median <= ${personRatio} x bare statements`,
      `${p.eraseRatio} (${p.eraseP50Ms} ms, bare ${p.bareEraseP50Ms} ms; slowest ${p.eraseMaxMs}, bare ${p.bareEraseMaxMs}; ${p.erased} erased, ${p.bareErrors} bare errors)`,
      p.eraseRatio <= personRatio && p.erased > 0 && p.bareErrors === 0,
    );
    add(
      `retention run ${p.db}: ends, removes what is due; form p99 meanwhile < 50 ms, every form answered`,
      `${p.retentionEnded ? 'ended' : 'did not end'} in ${p.retentionS} s, ${p.retentionRemoved} removed; ${p.submitDuringRetentionP99Ms} ms (${p.submitsDuringRetention} submissions, ${p.submitErrorsDuringRetention} not answered)`,
      p.retentionEnded &&
        p.retentionRemoved > 0 &&
        p.submitDuringRetentionP99Ms < 50 &&
        p.submitsDuringRetention > 0 &&
        !p.submitErrorsDuringRetention,
    );
  }
  return t;
}

/** The columns of the bench's console tables, each figure beside its anchor. */
export const CONSOLE_COLUMNS = {
  requests: [
    'db',
    'request',
    'samples',
    'statements',
    'p50Ms',
    'bareP50Ms',
    'p95Ms',
    'bareP95Ms',
    'ratio',
    'maxMs',
    'bareMaxMs',
    'errors',
    'bareErrors',
  ],
  servers: ['db', 'submissions', 'seedS', 'copyS', 'readyMs', 'peakRssMb', 'dbPeakPssMb', 'peakSumMb'],
  personal: [
    'db',
    'exportRows',
    'exportRowsPerS',
    'bareExportRowsPerS',
    'exportRatio',
    'exportPeakRssMb',
    'exportDbPeakPssMb',
    'exportPeakSumMb',
    'loadedExportS',
    'pageDuringExportP99Ms',
    'eventsDuringExportP99Ms',
    'formDuringExportP99Ms',
    'errorsDuringExport',
    'lookupP95Ms',
    'bareLookupP95Ms',
    'lookupRatio',
    'eraseP50Ms',
    'bareEraseP50Ms',
    'eraseRatio',
    'eraseMaxMs',
    'bareEraseMaxMs',
    'erased',
    'bareErrors',
    'retentionS',
    'retentionRemoved',
    'retentionEnded',
    'submitDuringRetentionP99Ms',
    'submitsDuringRetention',
    'submitErrorsDuringRetention',
  ],
} as const;

const OWNER = 'owner@example.com';

/** The statement log loaded into the console server (scripts/bench-console-capture.mjs). */
const CAPTURE = new URL('./bench-console-capture.mjs', import.meta.url).href;
const ANCHOR = fileURLToPath(new URL('./bench-console-anchor.mjs', import.meta.url));

export function startServer(args: string[], env: Record<string, string>, what = 'server'): ChildProcess {
  // Its warnings and errors (LOG_LEVEL=warn, on stdout) go into the bench's output.
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
  });
  child.once('exit', (code, signal) => {
    if (code !== 0 && signal !== 'SIGTERM') console.error(`bench: the ${what} exited (${code ?? signal})`);
  });
  return child;
}

/** The console server with its statement log: the build's start command, the log preloaded. */
function startLoggedServer(args: string[], env: Record<string, string>): ChildProcess {
  const options = [process.env.NODE_OPTIONS, `--import=${CAPTURE}`].filter(Boolean).join(' ');
  return startServer(args, { ...env, NODE_OPTIONS: options });
}

/**
 * The bare server (scripts/bench-console-anchor.mjs) on the database's copy, under tsx: it starts
 * the copy's embedded cluster with the server's TypeScript (scripts/bench-database.mjs).
 */
function startAnchor(port: number, env: Record<string, string>): ChildProcess {
  return startServer(['--import', 'tsx', ANCHOR], { PORT: String(port), ...env }, 'bare server');
}

export async function waitReady(port: number, child: ChildProcess, timeoutMs = 120_000): Promise<void> {
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

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(20_000).then(() => child.kill('SIGKILL'))]);
}

/** Resident set size now and its high-water mark, in MB. */
export function rssMb(pid: number): { now: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const mb = (field: string) =>
    Math.round((Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024) * 10) / 10;
  return { now: mb('VmRSS'), peak: mb('VmHWM') };
}

/** Starts the kernel's high-water mark again from the present RSS (Linux: clear_refs 5). */
export function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/**
 * Seeds one database in a process of its own (scripts/console-seed.ts), the embedded one's
 * beside the external Postgres' instead of before it.
 */
async function seed(
  side: Side,
  count: number,
  now: Date,
  log: (line: string) => void,
  part = 'Console',
): Promise<number> {
  const target = side.databaseUrl ? ['--database-url', side.databaseUrl] : ['--data-dir', side.dataDir];
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
      else log(`${part} ${side.label}:${line}`);
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

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

export const round = (ms: number) => Math.round(ms * 10) / 10;

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

/** People looked up (their p95 is judged), then people erased (their median is judged). */
const LOOKUPS = 100;
const ERASURES = 15;

/**
 * The server's start-up jobs: the hourly sweep's first run a minute after the start (at a million
 * rows it reads the whole submissions table; on PGlite that held the database for most of a
 * second) and the console's chores at 90 s (src/server/kit/db/retention.ts, src/server/console/jobs.ts).
 * Timing starts once they are over, so that a request beside its replay does not meet them by
 * chance, once, as one of a few samples: a look-up's p95 or an erasure's.
 */
export const START_JOBS_MS = 95_000;

/** The header that has the statement log write down a request's statements, under its value. */
const TAG = 'x-bench-statements';

/** A statement as the log wrote it down (scripts/bench-console-capture.mjs). */
type Statement = { op: string; sql?: string; params: unknown[]; after: number; conn?: number };
type Captures = Record<string, Statement[]>;

/** The statements written down since the last call; the log then stops following requests. */
async function takeCaptures(base: string): Promise<Captures> {
  // A request's statements sent after its answer (a write left to finish) get a moment to arrive.
  await sleep(50);
  const res = await fetch(`${base}/__bench/statements`);
  if (res.status !== 200) throw new Error(`the statement log answered ${res.status}`);
  return (await res.json()) as Captures;
}

/** Hands captures to the bare server; every request runs at least its session's look-up. */
async function giveCaptures(anchor: string, captures: Captures): Promise<void> {
  for (const [tag, statements] of Object.entries(captures)) {
    if (statements.length === 0) throw new Error(`the statement log caught no statement for ${tag}`);
  }
  const res = await fetch(`${anchor}/captures`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(captures),
  });
  if (res.status !== 200) throw new Error(`the bare server refused the statements (${res.status})`);
}

type Answer = { ms: number; status: number; body: unknown };

/** One timed request, its answer read whole: parsed when `json`, else as bytes. */
async function timed(url: string, init: RequestInit = {}, json = true): Promise<Answer> {
  const start = performance.now();
  try {
    const res = await fetch(url, init);
    const body: unknown = json ? await res.json() : await res.arrayBuffer();
    return { ms: performance.now() - start, status: res.status, body };
  } catch {
    return { ms: performance.now() - start, status: 0, body: null };
  }
}

/** A replay's answer: 200 and every statement's rows. */
const replayed = (a: Answer) =>
  a.status === 200 && Array.isArray((a.body as { results?: unknown } | null)?.results);

type Timing = { times: number[]; errors: number };
const timing = (): Timing => ({ times: [], errors: 0 });
export const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const ratio = (ours: number, bare: number) => Math.round((ours / bare) * 100) / 100;

/** Ours and the bare one, one after the other, the first of them taking turns. */
async function pair(n: number, ours: () => Promise<void>, bare: () => Promise<void>): Promise<void> {
  if (n % 2 === 0) {
    await ours();
    await bare();
  } else {
    await bare();
    await ours();
  }
}

/**
 * The timed requests, interleaved (first, filtered, search, detail, first, ...) as one owner
 * browsing makes them, each beside its bare replay. Each answer is checked: 200, and a page with
 * rows (a search finds some); a replay, 200 and its statements' rows.
 */
async function measure(
  base: string,
  anchor: string,
  cookie: string,
  now: Date,
  samples: number,
  measureSeconds: number,
): Promise<{
  timed: Record<RequestName, { ours: Timing; bare: Timing; statements: number[] }>;
  terms: Map<string, { ours: number[]; bare: number[] }>;
  emails: string[];
}> {
  const api = `${base}/api/owner/submissions`;
  const emails: string[] = [];
  const get = (url: string, tag?: string) =>
    timed(url, { headers: tag ? { cookie, [TAG]: tag } : { cookie } });
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
  // Untimed: every filter and search once (which also gathers the ids to open), then a few details.
  for (const n of filtered.keys()) collect((await get(requests.filtered(n))).body);
  for (const n of searches.keys()) collect((await get(requests.search(n))).body);
  collect((await get(requests.first(0))).body);
  if (ids.length === 0) throw new Error('the inbox answered no rows to open');
  for (let n = 0; n < 3; n += 1) await get(requests.detail(n));

  // Untimed, with the statement log: every request the timed loop can make, once; then each
  // replayed once by the bare server, its own untimed pass.
  const tags = new Map<string, string>();
  for (let n = 0; n < samples; n += 1) {
    for (const name of CONSOLE_REQUESTS) {
      const url = requests[name](n);
      if (!tags.has(url)) tags.set(url, `i${tags.size}`);
    }
  }
  for (const [url, tag] of tags) await get(url, tag);
  const captures = await takeCaptures(base);
  await giveCaptures(anchor, captures);
  for (const tag of tags.values()) await timed(`${anchor}/replay/${tag}`);

  const out = Object.fromEntries(
    CONSOLE_REQUESTS.map((r) => [r, { ours: timing(), bare: timing(), statements: [] as number[] }]),
  ) as Record<RequestName, { ours: Timing; bare: Timing; statements: number[] }>;
  const terms = new Map(SEARCH_TERMS.map((term) => [term, { ours: [] as number[], bare: [] as number[] }]));
  const end = performance.now() + measureSeconds * 1000;
  for (let n = 0; n < samples && performance.now() < end; n += 1) {
    for (const name of CONSOLE_REQUESTS) {
      const url = requests[name](n);
      const tag = tags.get(url)!;
      const row = out[name];
      const term = name === 'search' ? terms.get(SEARCH_TERMS[n % SEARCH_TERMS.length]!) : undefined;
      row.statements.push(captures[tag]?.length ?? 0);
      await pair(
        n,
        async () => {
          const { ms, status, body } = await get(url);
          const good =
            status === 200 &&
            (name === 'detail' ? (body as { id?: string } | null)?.id !== undefined : hasRows(body));
          row.ours.times.push(ms);
          term?.ours.push(ms);
          if (!good) row.ours.errors += 1;
        },
        async () => {
          const answer = await timed(`${anchor}/replay/${tag}`);
          row.bare.times.push(answer.ms);
          term?.bare.push(answer.ms);
          if (!replayed(answer)) row.bare.errors += 1;
        },
      );
    }
  }
  return { timed: out, terms, emails };
}

/**
 * Records in a CSV response, read as it streams. Records, not lines: a message's line breaks sit
 * inside quotes (RFC 4180), so a line feed ends a record only outside them; a doubled quote
 * toggles twice. Counted with the native indexOf, jumping from one quote or line feed to the
 * next: a loop over every byte took a second of the machine's two cores per million rows away
 * from the server.
 */
async function csvRecords(res: Response): Promise<number> {
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
  return records;
}

/** The whole inbox (every form, spam included) as CSV from `url`: rows and seconds (no rows if refused or cut). */
async function exportAll(url: string, headers: Record<string, string>): Promise<{ rows: number; s: number }> {
  const started = performance.now();
  let rows = 0;
  try {
    const res = await fetch(url, { headers });
    // A refused or cut export counts no rows (a cut one ends the body with an error).
    rows = res.status === 200 ? (await csvRecords(res)) - 1 : 0;
  } catch {
    rows = 0;
  }
  return { rows, s: (performance.now() - started) / 1000 };
}

/** A contact form's body as a visitor's browser sends it (the bench server skips the fill-time token). */
const contactBody = (label: string, n: number) =>
  JSON.stringify({
    formType: 'contact',
    firstName: 'Bench',
    lastName: `${label} ${n}`,
    email: `bench.${label.toLowerCase()}.${n}@example.org`,
    company: 'Bench Ltd',
    subject: 'other',
    message: 'Measuring the form while the console works.',
    consent: true,
    website: '',
  });

/**
 * A full export of the inbox (every row) with visitors meanwhile (decision 033): three loops, each
 * asking one after another with 20 ms between, from the export's start to its end (at least a
 * second): the home page, the Resources page's masterclass answer (/api/events/next), and a
 * contact form. Their p99 and the requests not answered 200.
 */
async function exportUnderLoad(
  base: string,
  cookie: string,
  origin: string,
): Promise<
  Pick<
    PersonalDataRow,
    | 'loadedExportRows'
    | 'loadedExportS'
    | 'pageDuringExportP99Ms'
    | 'eventsDuringExportP99Ms'
    | 'formDuringExportP99Ms'
    | 'requestsDuringExport'
    | 'errorsDuringExport'
  >
> {
  let running = true;
  let errors = 0;
  const loop = async (ask: (n: number) => Promise<Response>): Promise<number[]> => {
    const times: number[] = [];
    for (let n = 1; running; n += 1) {
      const t0 = performance.now();
      try {
        const answer = await ask(n);
        await answer.arrayBuffer();
        if (answer.status === 200) times.push(performance.now() - t0);
        else errors += 1;
      } catch {
        errors += 1;
      }
      await sleep(20);
    }
    return times;
  };
  const loops = Promise.all([
    loop(() => fetch(`${base}/`, { headers: { 'accept-encoding': 'br' } })),
    loop(() => fetch(`${base}/api/events/next`)),
    loop((n) =>
      fetch(`${base}/api/send-contact-email`, {
        method: 'POST',
        headers: { origin, 'content-type': 'application/json' },
        body: contactBody('Export', n),
      }),
    ),
  ]);
  const started = performance.now();
  const exported = await exportAll(`${base}/api/owner/exports/submissions.csv?status=all`, { cookie });
  if (performance.now() - started < 1000) await sleep(1000 - (performance.now() - started));
  running = false;
  const [page, events, form] = await loops;
  const p99 = (xs: number[]) => round(percentile(sorted(xs), 0.99));
  return {
    loadedExportRows: exported.rows,
    loadedExportS: round(exported.s),
    pageDuringExportP99Ms: p99(page),
    eventsDuringExportP99Ms: p99(events),
    formDuringExportP99Ms: p99(form),
    requestsDuringExport: page.length + events.length + form.length,
    errorsDuringExport: errors,
  };
}

/**
 * Personal data on the seeded database, after the inbox timings: the whole inbox exported as
 * CSV (rows a second, and the server's peak RSS meanwhile, with the embedded database's peak PSS
 * when `database` samples it) and then by the bare cursor, once
 * more with visitors meanwhile (exportUnderLoad: their p99), people
 * looked up and erased by address, each beside the bare replay of its statements, and a
 * retention run with contact submissions arriving meanwhile (their p99).
 */
async function measurePersonal(
  base: string,
  anchor: string,
  cookie: string,
  pid: number,
  emails: string[],
  origin: string,
  database: DatabasePssSampler | undefined,
): Promise<Omit<PersonalDataRow, 'db'>> {
  const headers = { cookie, origin, 'content-type': 'application/json' };
  resetPeak(pid);
  database?.reset();
  const ours = await exportAll(`${base}/api/owner/exports/submissions.csv?status=all`, { cookie });
  const exportPeakRssMb = rssMb(pid).peak;
  const exportDbPeakPssMb = database?.peakMb;
  const bare = await exportAll(`${anchor}/export.csv?status=all`, {});
  const loaded = await exportUnderLoad(base, cookie, origin);

  // Look-ups: an untimed pass with the statement log and the bare server's untimed replay of
  // each, then each person timed beside the replay of their statements.
  const people = emails.slice(0, LOOKUPS);
  const lookup = (email: string) => `${base}/api/owner/people?email=${encodeURIComponent(email)}`;
  for (const [i, email] of people.entries())
    await timed(lookup(email), { headers: { cookie, [TAG]: `p${i}` } }, false);
  await giveCaptures(anchor, await takeCaptures(base));
  for (const i of people.keys()) await timed(`${anchor}/replay/p${i}`);
  const lookups: number[] = [];
  const bareLookups: number[] = [];
  let bareErrors = 0;
  for (const [i, email] of people.entries()) {
    await pair(
      i,
      async () => {
        lookups.push((await timed(lookup(email), { headers: { cookie } }, false)).ms);
      },
      async () => {
        const answer = await timed(`${anchor}/replay/p${i}`);
        bareLookups.push(answer.ms);
        if (!replayed(answer)) bareErrors += 1;
      },
    );
  }
  // Erasures happen once: each is timed with the statement log on (it follows the request only),
  // then its statements replayed on the copy, where the person is still there.
  const erases: number[] = [];
  const bareErases: number[] = [];
  for (const [i, email] of emails.slice(LOOKUPS, LOOKUPS + ERASURES).entries()) {
    const answer = await timed(
      `${base}/api/owner/people/erase`,
      { method: 'POST', headers: { ...headers, [TAG]: `e${i}` }, body: JSON.stringify({ email }) },
      false,
    );
    await giveCaptures(anchor, await takeCaptures(base));
    if (answer.status !== 200) continue;
    erases.push(answer.ms);
    const replay = await timed(`${anchor}/replay/e${i}`);
    bareErases.push(replay.ms);
    if (!replayed(replay)) bareErrors += 1;
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
  const exportRowsPerS = Math.round(ours.rows / ours.s);
  const bareExportRowsPerS = Math.round(bare.rows / bare.s);
  const lookupP95Ms = round(percentile(sorted(lookups), 0.95));
  const bareLookupP95Ms = round(percentile(sorted(bareLookups), 0.95));
  const eraseP50Ms = round(percentile(sorted(erases), 0.5));
  const bareEraseP50Ms = round(percentile(sorted(bareErases), 0.5));
  const eraseMaxMs = round(Math.max(...erases));
  const bareEraseMaxMs = round(Math.max(...bareErases));
  return {
    exportRows: ours.rows,
    exportRowsPerS,
    exportPeakRssMb,
    ...(exportDbPeakPssMb === undefined
      ? {}
      : { exportDbPeakPssMb, exportPeakSumMb: sumMb(exportPeakRssMb, exportDbPeakPssMb) }),
    bareExportRows: bare.rows,
    bareExportRowsPerS,
    exportRatio: ratio(exportRowsPerS, bareExportRowsPerS),
    ...loaded,
    lookupP50Ms: round(percentile(sorted(lookups), 0.5)),
    bareLookupP50Ms: round(percentile(sorted(bareLookups), 0.5)),
    lookupP95Ms,
    bareLookupP95Ms,
    lookupRatio: ratio(lookupP95Ms, bareLookupP95Ms),
    eraseP50Ms,
    bareEraseP50Ms,
    eraseMaxMs,
    bareEraseMaxMs,
    eraseRatio: ratio(eraseP50Ms, bareEraseP50Ms),
    erased: erases.length,
    bareErrors,
    retentionS: round(retentionS),
    retentionRemoved: Object.values(counts ?? {}).reduce((a, b) => a + b, 0),
    retentionEnded,
    submitDuringRetentionP99Ms: round(percentile(sorted(submits), 0.99)),
    submitsDuringRetention: submits.length,
    submitErrorsDuringRetention: submitErrors,
  };
}

export type Side = {
  label: string;
  databaseUrl?: string;
  dataDir: string;
  env: Record<string, string>;
  seedS: number;
  copyS: number;
  /** The owner's session, made before the seed, so that the copy holds it too. */
  cookie: string;
  /** The bare server's database: the copy's DATA_DIR (its embedded cluster), or the copy's Postgres database. */
  anchorDir: string;
  anchorEnv: Record<string, string>;
};

export function side(label: string, port: number, databaseUrl?: string): Side {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-console-'));
  const anchorDir = mkdtempSync(join(tmpdir(), 'bench-console-bare-'));
  return {
    label,
    databaseUrl,
    dataDir,
    seedS: 0,
    copyS: 0,
    cookie: '',
    anchorDir,
    // DATABASE_URL empty: the embedded cluster of DATA_DIR, whatever the bench's own environment says.
    anchorEnv: { DATA_DIR: anchorDir, DATABASE_URL: '' },
    env: {
      DATA_DIR: dataDir,
      PORT: String(port),
      PUBLIC_URL: `http://localhost:${port}`,
      OWNER_EMAIL: OWNER,
      APP_SECRET: randomBytes(32).toString('base64url'),
      // The personal-data part submits forms as a load generator does: no fill-time token, one client.
      BENCH_DISABLE_FILL_TIME: 'true',
      BENCH_DISABLE_RATE_LIMIT: 'true',
      DATABASE_URL: databaseUrl ?? '',
    },
  };
}

/** The Postgres database a URL names, quoted as an identifier. */
const databaseName = (url: string) =>
  `"${decodeURIComponent(new URL(url).pathname.slice(1)).replaceAll('"', '""')}"`;

/**
 * The bare server's database: a copy of the seeded one, made before either server opens it, so
 * the two hold the same rows, ids, indexes and planner statistics, and an erasure replayed on the
 * copy finds the person the console erased. The embedded PostgreSQL: its cluster's folder copied,
 * stopped, owner and modes kept (`cp -a`: as root the cluster belongs to the postgres user), into
 * the bare server's DATA_DIR. Postgres: CREATE DATABASE from the seeded one as its template, over a connection to `spareUrl` (a database cannot be
 * copied over a connection to itself), file by file (STRATEGY FILE_COPY, Postgres 15; older ones
 * copy that way anyway).
 */
async function copyDatabase(s: Side, spareUrl: string): Promise<void> {
  const started = performance.now();
  if (!s.databaseUrl) {
    const copied = spawnSync(
      'cp',
      ['-a', join(s.dataDir, CLUSTER_FOLDER), join(s.anchorDir, CLUSTER_FOLDER)],
      {
        encoding: 'utf8',
      },
    );
    if (copied.status !== 0) throw new Error(`copying the embedded cluster failed: ${copied.stderr}`);
  } else {
    const copy = new URL(s.databaseUrl);
    copy.pathname = `${copy.pathname}_bare`;
    const admin = new pg.Client({ connectionString: spareUrl });
    await admin.connect();
    try {
      const create = `create database ${databaseName(copy.href)} template ${databaseName(s.databaseUrl)}`;
      for (let attempt = 1; ; attempt += 1) {
        try {
          await admin.query(`${create} strategy file_copy`).catch((error: { code?: string }) => {
            // 42601: a Postgres before 15, which has no STRATEGY.
            if (error.code === '42601') return admin.query(create);
            throw error;
          });
          break;
        } catch (error) {
          // 55006: the seed's or the setup server's connection is still closing.
          if ((error as { code?: string }).code !== '55006' || attempt === 10) throw error;
          await sleep(1000);
        }
      }
    } finally {
      await admin.end();
    }
    s.anchorEnv = { DATABASE_URL: copy.href };
  }
  s.copyS = Math.round((performance.now() - started) / 100) / 10;
}

async function dropCopy(s: Side, spareUrl: string): Promise<void> {
  if (!s.anchorEnv.DATABASE_URL) return;
  const admin = new pg.Client({ connectionString: spareUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${databaseName(s.anchorEnv.DATABASE_URL)} with (force)`);
  } finally {
    await admin.end();
  }
}

/** A day as the console's jobs name it: the UK date, YYYY-MM-DD. */
const ukDate = (at: Date) =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Europe/London',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at);

/**
 * Brings the seeded database to where a live one would be by the clock the server runs on, so
 * that the server's background jobs do not start work of their own while the part measures:
 *  - the console's chores start 90 s after the server does and run retention once a UK day,
 *    taking the day's mark `retention:<date>` in mail_throttle first (src/server/console/jobs.ts).
 *    The part measures for longer than 90 s before its own run ("Run now"), and a run started by
 *    the chores deleted the rows due under the export and the look-ups, and left the measured run
 *    nothing to do. The marks of today and tomorrow are taken, as a run those days would take them;
 *  - the seed's newest rows are a month old, and so are the hashed client addresses it left on
 *    their last day, which the hourly sweep clears once a day old (src/server/kit/db/retention.ts):
 *    they are cleared here, as that sweep would have cleared them, so its first run, a minute after
 *    the server starts, finds none (it still reads the table, as it does every hour).
 */
async function settleJobs(s: Side): Promise<void> {
  const marks = [0, 1].map(
    (days) => `('retention:${ukDate(new Date(Date.now() + days * 86_400_000))}', now())`,
  );
  const statements = [
    `insert into mail_throttle (key, last_at) values ${marks.join(', ')} on conflict (key) do nothing`,
    `update submissions set ip_hash = null
     where ip_hash is not null and received_at < now() - interval '1 day'`,
  ];
  // The embedded cluster, its server stopped, is started for the while.
  const embedded = s.databaseUrl ? undefined : await startEmbeddedPostgres(s.dataDir);
  try {
    const client = new pg.Client(embedded ? embedded.connection() : { connectionString: s.databaseUrl });
    await client.connect();
    try {
      for (const statement of statements) await client.query(statement);
    } finally {
      await client.end();
    }
  } finally {
    await embedded?.stop();
  }
}

/** One server on a seeded database, beside the bare one on its copy: started, timed, stopped. */
async function timeServer(
  s: Side,
  count: number,
  now: Date,
  {
    serverArgs,
    port,
    anchorPort = port + 1,
    samples = 150,
    measureSeconds = 90,
    log = console.log,
  }: ConsoleOptions,
): Promise<{ requests: ConsoleRequestRow[]; server: ConsoleServerRow; personal: PersonalDataRow }> {
  const base = `http://127.0.0.1:${port}`;
  const anchorBase = `http://127.0.0.1:${anchorPort}`;
  const anchor = startAnchor(anchorPort, s.anchorEnv);
  try {
    await waitReady(anchorPort, anchor);
    const startedAt = performance.now();
    const server = startLoggedServer(serverArgs, s.env);
    let database: DatabasePssSampler | undefined;
    try {
      await waitReady(port, server);
      const readyMs = Math.round(performance.now() - startedAt);
      const pid = server.pid!;
      const reset = resetPeak(pid);
      // The embedded database's memory over the same time as the server's peak.
      database = s.databaseUrl ? undefined : sampleDatabasePss(s.dataDir);
      const wait = START_JOBS_MS - (performance.now() - startedAt);
      log(
        `Console: ${s.label} ready in ${readyMs} ms, RSS ${rssMb(pid).now} MB; ` +
          `timing in ${Math.max(0, Math.round(wait / 1000))} s, once its start-up jobs have run`,
      );
      await sleep(Math.max(0, wait));
      await waitReady(port, server);
      log(`Console: timing the inbox on ${s.label}`);
      const {
        timed: times,
        terms,
        emails,
      } = await measure(base, anchorBase, s.cookie, now, samples, measureSeconds);
      const { peak } = rssMb(pid);
      const dbPeak = database?.peakMb;
      log(`Console: personal data on ${s.label} (export, look-ups, erasure, retention)`);
      const personal = {
        db: s.label,
        ...(await measurePersonal(
          base,
          anchorBase,
          s.cookie,
          pid,
          emails,
          new URL(s.env.PUBLIC_URL!).origin,
          database,
        )),
      };
      const median = (xs: number[]) => round(percentile(sorted(xs), 0.5));
      log(
        `Console: ${s.label} search, median ms by term (ours/bare): ${[...terms].map(([t, x]) => `${t} ${median(x.ours)}/${median(x.bare)}`).join(', ')}`,
      );
      if (!reset) log('Console: could not reset the peak RSS; it counts from the server start');
      const requests = CONSOLE_REQUESTS.map((request) => {
        const { ours, bare, statements } = times[request];
        const a = sorted(ours.times);
        const b = sorted(bare.times);
        const p95Ms = round(percentile(a, 0.95));
        const bareP95Ms = round(percentile(b, 0.95));
        return {
          db: s.label,
          request,
          samples: a.length,
          p50Ms: round(percentile(a, 0.5)),
          p95Ms,
          maxMs: round(a[a.length - 1] ?? NaN),
          errors: ours.errors,
          statements: round(statements.reduce((x, y) => x + y, 0) / Math.max(1, statements.length)),
          bareP50Ms: round(percentile(b, 0.5)),
          bareP95Ms,
          bareMaxMs: round(b[b.length - 1] ?? NaN),
          bareErrors: bare.errors,
          ratio: ratio(p95Ms, bareP95Ms),
        };
      });
      log(
        `Console: ${s.label} person, median ms (ours/bare): look-up ${personal.lookupP50Ms}/${personal.bareLookupP50Ms}, ` +
          `erasure ${personal.eraseP50Ms}/${personal.bareEraseP50Ms}`,
      );
      log(
        `Console: ${s.label} beside its bare statements: ${requests.map((r) => `${r.request} ${r.ratio}x`).join(', ')}, ` +
          `look-up ${personal.lookupRatio}x, erasure ${personal.eraseRatio}x, export ${personal.exportRatio}x`,
      );
      return {
        requests,
        server: {
          db: s.label,
          submissions: count,
          seedS: s.seedS,
          copyS: s.copyS,
          readyMs,
          peakRssMb: peak,
          ...(dbPeak === undefined ? {} : { dbPeakPssMb: dbPeak, peakSumMb: sumMb(peak, dbPeak) }),
        },
        personal,
      };
    } finally {
      await database?.stop();
      await stop(server);
    }
  } finally {
    await stop(anchor);
  }
}

/**
 * Readies sides for timing: each database migrated by a first start of the server (which also
 * signs the owner in), seeded side by side (each seed ends with VACUUM ANALYZE, the planner
 * statistics autovacuum would make), then settled for the server's start-up jobs (settleJobs).
 * Answers the seed's `now`, the newest rows' time. The backup part (scripts/bench-backup.ts)
 * seeds its databases with it too; `part` names the part in the lines logged.
 */
export async function seedSides(
  sides: Side[],
  {
    serverArgs,
    port,
    count,
    log = console.log,
    part = 'Console',
  }: Pick<ConsoleOptions, 'serverArgs' | 'port' | 'log'> & { count: number; part?: string },
): Promise<Date> {
  for (const s of sides) {
    const setup = startServer(serverArgs, s.env);
    try {
      await waitReady(port, setup);
      s.cookie = await signIn(`http://127.0.0.1:${port}`, s.env);
    } finally {
      await stop(setup);
    }
  }
  // The newest rows are a month old: the retention run then finds what a month of traffic
  // leaves due (the held spam, the contact messages and bookings past 24 months, the e-mail
  // texts past 30 days), tens of thousands of rows, as the daily job's first run would.
  const now = new Date(Date.now() - 30 * 86_400_000);
  log(
    `${part}: seeding ${count.toLocaleString('en-GB')} submissions on ${sides.map((s) => s.label).join(' and ')}`,
  );
  await Promise.all(sides.map((s) => seed(s, count, now, log, part)));
  for (const s of sides) await settleJobs(s);
  return now;
}

/**
 * The console part: the embedded PostgreSQL (a DATA_DIR's own cluster) and a throwaway database
 * of the external Postgres, readied by seedSides, both copied for the bare server, then timed one
 * after the other (nothing else running but the idle bare server).
 */
export async function runConsole(options: ConsoleOptions): Promise<ConsoleResults> {
  const { port, count = 1_000_000, log = console.log } = options;
  return options.withPostgres((url) =>
    options.withPostgres(async (spareUrl) => {
      const sides = [side('embedded', port), side('postgres', port, url)];
      try {
        const now = await seedSides(sides, { ...options, count, log });
        await Promise.all(sides.map((s) => copyDatabase(s, spareUrl)));
        log(
          `Console: copied for the bare server in ${sides.map((s) => `${s.copyS} s (${s.label})`).join(', ')}`,
        );
        const results = [];
        for (const s of sides) results.push(await timeServer(s, count, now, options));
        return {
          requests: results.flatMap((r) => r.requests),
          servers: results.map((r) => r.server),
          personal: results.map((r) => r.personal),
        };
      } finally {
        for (const s of sides) {
          await dropCopy(s, spareUrl).catch(() => {});
          rmSync(s.dataDir, { recursive: true, force: true });
          rmSync(s.anchorDir, { recursive: true, force: true });
        }
      }
    }),
  );
}
