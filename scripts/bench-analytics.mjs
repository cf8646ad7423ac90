/**
 * The bench's analytics part (decision 042): the visit counts on the embedded PostgreSQL (the
 * cluster of the server's own DATA_DIR), then on a throwaway database of the external Postgres,
 * each with the built server (the build's start command):
 *  - intake: an open-loop load of page-view beacons (`POST /api/views`) at `rate` a second, a
 *    warm-up then `seconds` timed (scripts/bench-analytics-load.mjs, a process of its own):
 *    the site's pages, some referrers and UTM tags, thousands of visitors (X-Forwarded-For, the
 *    server trusting 127.0.0.1) on a few browsers. Then, with the server stopped, the stored
 *    views counted against the 204 answers, and the server's peak RSS since its start (on the
 *    embedded PostgreSQL, the database's peak PSS too, and the sum of the two);
 *  - its anchor (decision 027): the same load on a bare Fastify route storing the same rows the
 *    same way, on the same database (scripts/bench-analytics-anchor.mjs);
 *  - the dashboard: the database emptied of those views and seeded with three years of
 *    rollups, 10,000,000 views in all (the site's pages, 50 referrers, UTM tags, devices, the
 *    funnels), and the raw views of the last 30 days at the same daily volume, today's
 *    included; then `GET /api/owner/analytics?range=30d` and `?range=12m`, one at a time as the
 *    owner's console asks, each timed `samples` times, beside `/healthz` timed by the same
 *    client (the anchor, as the availability part has it);
 *  - the home page's first-load JavaScript, as `npm run size` (scripts/size-report.mjs) counts
 *    it in the build: the beacon must not push it over its budget.
 * The owner signs in as the bench's other parts do: a sign-in link made with the server's
 * settings, its token posted to /api/owner/sign-in/link.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { addDays, ukDateOf } from '../src/lib/uk-dates.ts';
import { signInLink } from '../src/server/console/sign-in.ts';
import { loadConfig } from '../src/server/kit/config.ts';
import { createLinks } from '../src/server/kit/http/links.ts';
import { peakRssMb, sampleDatabasePss, stop, sumMb, waitReady } from './bench-process.mjs';
import {
  REFERRERS,
  SEED_VIEWS,
  TAGS,
  seedDashboard,
  sitePaths,
  withDatabase,
} from './bench-analytics-seed.mjs';

const LOAD = fileURLToPath(new URL('./bench-analytics-load.mjs', import.meta.url));
const ANCHOR = fileURLToPath(new URL('./bench-analytics-anchor.mjs', import.meta.url));

/** The targets. */
export const ANALYTICS_TARGETS = {
  /** Beacons a second, each answered within `intakeP99Ms` (p99), none of those answered lost. */
  intakeRate: 5000,
  intakeP99Ms: 10,
  /** The dashboard's 30-day and 12-month answers over 10 million stored views, p95 (ms). */
  dashboardP95Ms: 100,
  /** The home page's first-load JavaScript, gzip (the site's budget, decision 006). */
  homeJsBytes: 130 * 1024,
  peakRssMb: 200,
};

/** The columns of the bench's analytics tables. */
export const ANALYTICS_COLUMNS = {
  intake: [
    'db',
    'ratePerS',
    'p50Ms',
    'p99Ms',
    'maxMs',
    'bareRatePerS',
    'bareP99Ms',
    'ratio',
    'lagP99Ms',
    'acknowledged',
    'stored',
    'lost',
    'notAcknowledged',
    'bareLost',
    'peakRssMb',
    'dbPeakPssMb',
    'peakSumMb',
  ],
  dashboard: [
    'db',
    'range',
    'samples',
    'p50Ms',
    'p95Ms',
    'maxMs',
    'anchorP95Ms',
    'ratio',
    'errors',
    'rolledViews',
    'rangeViews',
  ],
};

// ---------------------------------------------------------------------------------------------
// The server, the anchor and the database

function start(args, env, what) {
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

const countViews = (store) =>
  withDatabase(store, async (db) => (await db.query('select count(*)::int as n from analytics_views'))[0].n);

// ---------------------------------------------------------------------------------------------
// Intake

const USER_AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (iPad; CPU OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
];

/** One open-loop load (scripts/bench-analytics-load.mjs) against `url`: its report. */
async function load(options) {
  const child = spawn(process.execPath, [LOAD, JSON.stringify(options)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => (out += chunk));
  const code = await new Promise((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`the load generator exited (${code})`);
  return JSON.parse(out.trim().split('\n').at(-1));
}

// ---------------------------------------------------------------------------------------------
// The dashboard

/** A session cookie: a sign-in link made with the server's settings, its token posted. */
async function signIn(base, env) {
  const config = loadConfig({ ...process.env, NODE_ENV: 'production', ...env });
  const link = await signInLink(config, createLinks(config.publicUrl, config.appSecret), config.ownerEmail);
  const res = await fetch(`${base}/api/owner/sign-in/link`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: new URL(config.publicUrl).origin },
    body: JSON.stringify({ token: new URL(link).searchParams.get('token') }),
  });
  const cookie = res.headers.getSetCookie()[0]?.split(';')[0];
  if (res.status !== 200 || !cookie) throw new Error(`bench sign-in answered ${res.status}`);
  return cookie;
}

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? NaN;
const round = (ms) => Math.round(ms * 10) / 10;

/** One request, its answer read whole: its time, status and parsed body (JSON answers). */
async function timed(url, headers) {
  const t0 = performance.now();
  try {
    const res = await fetch(url, { headers });
    const body = await res.json();
    return { ms: performance.now() - t0, status: res.status, body };
  } catch {
    return { ms: performance.now() - t0, status: 0, body: null };
  }
}

/**
 * The dashboard's 30-day and 12-month answers and /healthz, taking turns, `samples` times each
 * after 3 untimed rounds: per range its p50, p95 and slowest, /healthz's p95 beside it.
 */
async function measureDashboard(base, cookie, samples) {
  const ranges = ['30d', '12m'];
  const times = { '30d': [], '12m': [], healthz: [] };
  const errors = { '30d': 0, '12m': 0 };
  const views = {};
  for (let i = 0; i < samples + 3; i += 1) {
    for (const range of ranges) {
      const a = await timed(`${base}/api/owner/analytics?range=${range}`, { cookie });
      const ok = a.status === 200 && a.body?.totals?.views > 0;
      if (i < 3) continue;
      times[range].push(a.ms);
      if (!ok) errors[range] += 1;
      views[range] = a.body?.totals?.views;
    }
    const h = await timed(`${base}/healthz`, {});
    if (i >= 3) times.healthz.push(h.ms);
  }
  const anchor = percentile(
    times.healthz.sort((a, b) => a - b),
    0.95,
  );
  return ranges.map((range) => {
    const sorted = times[range].sort((a, b) => a - b);
    const p95 = percentile(sorted, 0.95);
    return {
      range,
      samples: sorted.length,
      p50Ms: round(percentile(sorted, 0.5)),
      p95Ms: round(p95),
      maxMs: round(sorted.at(-1)),
      anchorP95Ms: round(anchor),
      ratio: Math.round((p95 / anchor) * 10) / 10,
      errors: errors[range],
      rangeViews: views[range],
    };
  });
}

// ---------------------------------------------------------------------------------------------

/** The home page's first-load JavaScript (gzip bytes) as scripts/size-report.mjs counts it. */
function homeFirstLoadJs() {
  const report = spawnSync(process.execPath, ['scripts/size-report.mjs'], { encoding: 'utf8' });
  const bytes = Number(/JavaScript:\s+(\d+) B/.exec(report.stdout)?.[1] ?? NaN);
  return { homeJsBytes: bytes, budgetBytes: ANALYTICS_TARGETS.homeJsBytes };
}

/** One kind of database: the intake beside its anchor, then the dashboard over the seed. */
async function runOn(db, env, store, o) {
  const base = `http://127.0.0.1:${o.port}`;
  const origin = new URL(loadConfig({ ...process.env, NODE_ENV: 'production', ...env }).publicUrl).origin;
  const serverEnv = { ...env, PORT: String(o.port), TRUST_PROXY: '127.0.0.1' };
  const beacons = {
    url: `${base}/api/views`,
    rate: o.rate,
    seconds: o.seconds,
    warmupSeconds: 3,
    views: true,
    origin,
    paths: sitePaths(),
    referrers: REFERRERS,
    tags: TAGS,
    userAgents: USER_AGENTS,
    addresses: 20_000,
  };

  // The first start makes the tables; the load meets a server started on them, as in production.
  let server = start(o.serverArgs, serverEnv, 'server');
  await waitReady(base, server);
  await stop(server);
  server = start(o.serverArgs, serverEnv, 'server');
  await waitReady(base, server);
  // The embedded database's memory, from its start with the server to the load's end.
  const database = store.databaseUrl ? undefined : sampleDatabasePss(store.dataDir);
  o.log(`Analytics ${db}: ${o.rate} beacons/s for ${o.seconds} s (after 3 s), then the bare route`);
  let ours;
  try {
    ours = await load(beacons);
  } finally {
    await database?.stop();
  }
  const peak = peakRssMb(server.pid);
  await stop(server);
  const stored = await countViews(store);

  // Under tsx: it starts the embedded cluster with the server's TypeScript (scripts/bench-database.mjs).
  const anchor = start(['--import', 'tsx', ANCHOR], serverEnv, 'bare route');
  await waitReady(base, anchor);
  const bare = await load(beacons);
  await stop(anchor);
  const bareStored = (await countViews(store)) - stored;

  const intake = {
    db,
    ratePerS: ours.ratePerS,
    p50Ms: ours.p50Ms,
    p99Ms: ours.p99Ms,
    maxMs: ours.maxMs,
    bareRatePerS: bare.ratePerS,
    bareP50Ms: bare.p50Ms,
    bareP99Ms: bare.p99Ms,
    ratio: Math.round((ours.p99Ms / bare.p99Ms) * 100) / 100,
    lagP99Ms: Math.max(ours.lagP99Ms, bare.lagP99Ms),
    sent: ours.sent,
    acknowledged: ours.acknowledged,
    stored,
    lost: ours.acknowledged - stored,
    notAcknowledged: ours.sent - ours.acknowledged,
    statuses: ours.statuses,
    bareAcknowledged: bare.acknowledged,
    bareLost: bare.acknowledged - bareStored,
    peakRssMb: peak,
    ...(database ? { dbPeakPssMb: database.peakMb, peakSumMb: sumMb(peak, database.peakMb) } : {}),
  };

  o.log(
    `Analytics ${db}: seeding ${SEED_VIEWS.toLocaleString('en-GB')} views of rollups and 30 days of views`,
  );
  const today = ukDateOf(new Date());
  const seeded = await seedDashboard(store, today);
  if (seeded.rolledViews !== SEED_VIEWS) throw new Error(`the seed holds ${seeded.rolledViews} views`);
  server = start(o.serverArgs, serverEnv, 'server');
  await waitReady(base, server);
  let dashboard;
  try {
    const cookie = await signIn(base, serverEnv);
    o.log(`Analytics ${db}: the dashboard, 30 days and 12 months, ${o.samples} times each`);
    dashboard = (await measureDashboard(base, cookie, o.samples)).map((row) => ({
      db,
      ...row,
      rolledViews: seeded.rolledViews,
      rawViews: seeded.rawViews,
      dailyRows: seeded.dailyRows,
      seedS: seeded.seedS,
      // The last day rolled up: the range's other days are read from the raw views.
      rolledTo: addDays(today, -1),
    }));
  } finally {
    await stop(server);
  }
  return { intake, dashboard };
}

/**
 * The analytics part: on the embedded PostgreSQL of a DATA_DIR (no DATABASE_URL), then on a
 * throwaway Postgres database (`withPostgres`), each
 * on its own port's server started with `serverArgs`. Rows for the bench's tables and targets.
 */
export async function runAnalytics({
  serverArgs,
  withPostgres,
  port,
  rate = ANALYTICS_TARGETS.intakeRate,
  seconds = 10,
  samples = 40,
  log = console.log,
}) {
  const o = { serverArgs, port, rate, seconds, samples, log };
  const home = homeFirstLoadJs();
  const dir = mkdtempSync(join(tmpdir(), 'bench-analytics-'));
  try {
    // DATABASE_URL empty: the embedded cluster of DATA_DIR, whatever the bench's own environment says.
    const onEmbedded = await runOn('embedded', { DATA_DIR: dir, DATABASE_URL: '' }, { dataDir: dir }, o);
    const onPostgres = await withPostgres((databaseUrl) =>
      runOn('postgres', { DATA_DIR: dir, DATABASE_URL: databaseUrl }, { databaseUrl }, o),
    );
    return {
      intake: [onEmbedded.intake, onPostgres.intake],
      dashboard: [...onEmbedded.dashboard, ...onPostgres.dashboard],
      home,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The targets, as rows of { target, figure, met }. */
export function analyticsTargets(r) {
  const t = [];
  const add = (target, figure, met) => t.push({ target, figure, met: met ? 'yes' : 'NO' });
  if (!r) return t;
  const { intakeRate, intakeP99Ms, dashboardP95Ms, homeJsBytes, peakRssMb } = ANALYTICS_TARGETS;
  for (const i of r.intake) {
    add(
      `beacon intake ${i.db}: ${intakeRate.toLocaleString('en-GB')} views/s answered, p99 <= ${intakeP99Ms} ms, every acknowledged view stored`,
      `${i.ratePerS}/s, p99 ${i.p99Ms} ms (bare ${i.bareP99Ms} ms, ${i.ratio}x), ${i.stored}/${i.acknowledged} stored, ${i.notAcknowledged} not answered 204`,
      i.ratePerS >= intakeRate * 0.99 && i.p99Ms <= intakeP99Ms && i.lost <= 0 && i.notAcknowledged === 0,
    );
    add(
      `beacon intake ${i.db}: peak RSS <= ${peakRssMb} MB`,
      i.dbPeakPssMb === undefined
        ? `${i.peakRssMb} MB`
        : `${i.peakRssMb} MB (the database ${i.dbPeakPssMb} MB PSS; together ${i.peakSumMb} MB)`,
      i.peakRssMb <= peakRssMb,
    );
  }
  for (const d of r.dashboard) {
    add(
      `dashboard ${d.db} ${d.range}: p95 <= ${dashboardP95Ms} ms over ${(d.rolledViews / 1e6).toFixed(0)} million views, 0 errors`,
      `${d.p95Ms} ms (median ${d.p50Ms}, slowest ${d.maxMs}; /healthz p95 ${d.anchorP95Ms} ms), ${d.errors}`,
      d.p95Ms <= dashboardP95Ms && d.errors === 0 && d.samples > 0,
    );
  }
  add(
    `home first-load JS <= ${(homeJsBytes / 1024).toFixed(0)} KB with the beacon (npm run size)`,
    `${(r.home.homeJsBytes / 1024).toFixed(1)} KB`,
    r.home.homeJsBytes <= homeJsBytes,
  );
  return t;
}
