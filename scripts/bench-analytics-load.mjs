/**
 * The analytics part's load (scripts/bench-analytics.mjs): an open-loop load, in a process of its
 * own so that the bench's own work never slows it, at a fixed rate whatever the server answers.
 * Request i is due at start + i / rate and is sent then (or as soon after as this process can);
 * its latency runs from the moment it was due to the end of its answer, so a server that falls
 * behind is charged for the requests waiting in the queue it made (no coordinated omission). A
 * warm-up of `warmupSeconds` comes first (see below): its requests are counted as acknowledged,
 * not timed.
 *
 * Views (`views: true`) are beacons as a visitor's browser sends them (sendBeacon's JSON as
 * text/plain): the page's path, the referrer on a visit's first page (a third of them from
 * another site), UTM tags on some first pages; each visitor (a client address in
 * X-Forwarded-For and a browser's user agent) reads three pages, and the visitors come round
 * again after `addresses` * 3 views, so no address comes near the counting's cap of 120 views
 * a minute. Without `views`, a plain GET of `url`.
 *
 * Input: one JSON argument { url, rate, seconds, warmupSeconds, views, origin, paths, referrers,
 * tags, userAgents, addresses }. Output: one JSON line on stdout (see `report`). With
 * BENCH_TIMELINE=1, each quarter second of the timed part whose slowest answer took over 10 ms is
 * written to stderr with its p99 and slowest, to tell a server's own stalls (one run's windows)
 * from the machine's (its bare route's windows too).
 */
import http from 'node:http';

const options = JSON.parse(process.argv[2]);
const { rate, seconds, warmupSeconds = 0 } = options;
const url = new URL(options.url);
// Enough sockets for a server answering in tens of milliseconds at this rate; beyond them a
// request waits in the agent's queue, and that wait is in its latency.
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

/** The beacon of view i: its body and its visitor's address and browser. */
function view(i) {
  const visitor = Math.floor(i / 3) % options.addresses;
  const first = i % 3 === 0;
  const body = { p: options.paths[(i * 7 + Math.floor(i / 11)) % options.paths.length] };
  if (first && visitor % 3 === 0)
    body.r = `https://${options.referrers[visitor % options.referrers.length]}/`;
  if (first && visitor % 10 === 1) {
    const [s, m, c] = options.tags[visitor % options.tags.length];
    Object.assign(body, { s, m, c });
  }
  return {
    body: JSON.stringify(body),
    address: `10.${(visitor >> 16) & 255}.${(visitor >> 8) & 255}.${visitor & 255}`,
    userAgent: options.userAgents[visitor % options.userAgents.length],
  };
}

const latencies = [];
/** BENCH_TIMELINE=1: each timed request's due moment and latency, summed per 250 ms on stderr. */
const TIMELINE = process.env.BENCH_TIMELINE === '1';
const slow = [];
const lags = [];
const statuses = {};
let errors = 0;
let answered = 0;
let acknowledged = 0;
let measuredOk = 0;
let lastEnd = 0;

function send(i, due, timed, done) {
  const lag = performance.now() - due;
  if (timed) lags.push(lag);
  const v = options.views ? view(i) : null;
  const headers = v
    ? {
        // navigator.sendBeacon posts a string as text/plain, as the site's beacon does.
        'content-type': 'text/plain;charset=UTF-8',
        'content-length': Buffer.byteLength(v.body),
        origin: options.origin,
        'user-agent': v.userAgent,
        'x-forwarded-for': v.address,
      }
    : {};
  const req = http.request(url, { method: v ? 'POST' : 'GET', agent, headers, timeout: 10_000 }, (res) => {
    res.resume();
    res.on('end', () => {
      const end = performance.now();
      answered += 1;
      statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
      const ok = res.statusCode === (v ? 204 : 200);
      if (ok) acknowledged += 1;
      if (timed) {
        latencies.push(end - due);
        if (TIMELINE) slow.push([Math.round(due), Math.round(end - due)]);
        if (ok) measuredOk += 1;
        lastEnd = Math.max(lastEnd, end);
      }
      done();
    });
  });
  req.on('timeout', () => req.destroy(new Error('timeout')));
  req.on('error', () => {
    errors += 1;
    done();
  });
  req.end(v?.body);
}

/**
 * Sends requests `first`.. at the moments `dues` (ms from the phase's start), each as it falls
 * due; resolves once every one is answered or failed (or 15 s after the last was due). Returns
 * the moment the phase started.
 */
function phase(first, dues, timed) {
  const start = performance.now() + 20;
  return new Promise((resolve) => {
    let sent = 0;
    let settled = 0;
    const done = () => {
      settled += 1;
      if (settled === dues.length) resolve(start);
    };
    const tick = () => {
      const now = performance.now() - start;
      for (; sent < dues.length && dues[sent] <= now; sent += 1)
        send(first + sent, start + dues[sent], timed, done);
      if (sent < dues.length) setTimeout(tick, 1);
    };
    setTimeout(tick, 20);
    setTimeout(() => resolve(start), (dues.at(-1) ?? 0) + 15_000).unref();
  });
}

/** `count` requests at `perS` a second from `from` ms on. */
const steady = (count, perS, from = 0) => Array.from({ length: count }, (_, j) => from + (j / perS) * 1000);

// The warm-up climbs to the rate in five steps, and its last answer comes before the timed part
// starts: a server just started (its code not yet compiled, its connections not yet open) meets
// the rate warmed, as it would after its first minutes in production.
const warmupDues = [];
for (let k = 1; k <= 5; k += 1) {
  const stepMs = (warmupSeconds * 1000) / 5;
  warmupDues.push(...steady(Math.round((rate * k * stepMs) / 5000), (rate * k) / 5, (k - 1) * stepMs));
}
if (warmupDues.length > 0) await phase(0, warmupDues, false);
const start = await phase(warmupDues.length, steady(Math.round(rate * seconds), rate), true);
const total = warmupDues.length + Math.round(rate * seconds);

const at = (sorted, p) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
const round = (ms) => Math.round(ms * 100) / 100;
latencies.sort((a, b) => a - b);
lags.sort((a, b) => a - b);
/**
 * `sent`, `answered` (any status), `acknowledged` (204 for views, 200 otherwise, warm-up
 * included), `errors` (failed or timed out), `statuses`; for the timed part, `ratePerS` (its
 * acknowledged answers over the time from its first request's due moment to its last answer),
 * `p50Ms`, `p99Ms`, `maxMs`, and `lagP99Ms`: how late this process sent its requests.
 */
const report = {
  sent: total,
  answered,
  acknowledged,
  errors,
  statuses,
  ratePerS: Math.round(measuredOk / ((lastEnd - start) / 1000 || 1)),
  p50Ms: round(at(latencies, 0.5)),
  p99Ms: round(at(latencies, 0.99)),
  maxMs: round(latencies.at(-1) ?? NaN),
  lagP99Ms: round(at(lags, 0.99)),
};
if (TIMELINE) {
  const windows = new Map();
  for (const [due, ms] of slow) {
    const w = Math.floor((due - start) / 250);
    const held = windows.get(w) ?? [];
    held.push(ms);
    windows.set(w, held);
  }
  for (const [w, list] of [...windows].sort((a, b) => a[0] - b[0])) {
    list.sort((a, b) => a - b);
    if (list.at(-1) > 10)
      process.stderr.write(
        `t=${(w / 4).toFixed(2)}s n=${list.length} p99=${at(list, 0.99)} max=${list.at(-1)}\n`,
      );
  }
}
process.stdout.write(`${JSON.stringify(report)}\n`);
agent.destroy();
process.exit(0);
