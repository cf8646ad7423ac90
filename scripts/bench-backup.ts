/**
 * The bench's backup part (decision 057): a million submissions and the other tables seeded as
 * the console part seeds them (seedSides, scripts/bench-console.ts) on the embedded PostgreSQL
 * (the cluster of the server's own DATA_DIR) and on a throwaway database of the external Postgres,
 * then on each, with the real server running on it:
 *  - the site's load: three loops, each asking one after another with 20 ms between, the home
 *    page, the Resources page's masterclass answer (/api/events/next) and the console's inbox
 *    (its first page, signed in as the owner); each request bounded to 30 s, each loop to 20,000;
 *  - the anchor: that load for 20 s (BENCH_BACKUP_ANCHOR_SECONDS) with no backup running, once the
 *    server's start-up jobs have run (START_JOBS_MS, as the console part waits for them);
 *  - the same load from the start to the end of `npm run backup` (scripts/backup.ts, run with the
 *    server's settings beside it, bounded to 10 minutes): the backup's time (as its manifest
 *    records it, and the command's from start to exit), its size, every table's rows, and the
 *    load's p99 beside the anchor's, as a ratio. The backup's peak RSS (the kernel's high-water
 *    mark, read every 100 ms), and the server's over the same time (its mark reset before); on the
 *    embedded PostgreSQL also its database's peak PSS (scripts/bench-process.mjs) and the sum;
 *  - with the server stopped: a copy of the backup with one byte flipped in its largest part, which
 *    `npm run restore` must refuse (exit 1, its sentence naming the part); then the backup
 *    restored (`--no-sandbox`): the restore's time (its own, and the command's), its peak RSS, and
 *    each table's count as it printed them against the manifest's; then `--activate`, and every
 *    table of the live database counted against the manifest.
 * The p99 ratio is what a backup costs the site's visitors on this machine; it is shown, not
 * judged (decision 027: no target without a decision). The targets are the ones a backup
 * promises: every request answered meanwhile, the damaged copy refused, the counts equal.
 * Every database made is dropped: the side's own by `withPostgres`, the one activation kept
 * (`<live>_before_<time>`) and any restore left unactivated here; the embedded ones with their
 * DATA_DIR.
 */
import { spawn } from 'node:child_process';
import { closeSync, cpSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { backupBytes, readManifest, type Manifest } from '../src/server/kit/backup/manifest';
import { listBackups } from '../src/server/kit/backup/take';
import { adminConnection } from '../src/server/kit/db/client';
import { startEmbeddedPostgres } from '../src/server/kit/db/embedded-postgres';
import {
  percentile,
  resetPeak,
  round,
  rssMb,
  seedSides,
  side,
  sorted,
  START_JOBS_MS,
  startServer,
  stop,
  waitReady,
  type ConsoleOptions,
  type Side,
} from './bench-console';
import { peakRssMb, sampleDatabasePss, sumMb, type DatabasePssSampler } from './bench-process.mjs';

export type BackupRow = {
  db: string;
  submissions: number;
  tables: number;
  /** Rows in every table of the backup, as COPY counted them in its snapshot (the manifest). */
  rows: number;
  /** The take and its read-back, as the manifest records them. */
  backupS: number;
  /** `npm run backup` from start to exit: Node and its loader, the database reached, the record. */
  backupCommandS: number;
  backupBytes: number;
  backupMb: number;
  /** The site's load with no backup running: its p99, requests and those not answered 200. */
  anchorP99Ms: number;
  anchorRequests: number;
  anchorErrors: number;
  /** The same load while the backup ran. */
  p99Ms: number;
  requests: number;
  errors: number;
  /** p99 over the anchor's p99. */
  ratio: number;
  /** The backup command's peak RSS. */
  backupPeakRssMb: number;
  /** The server's peak RSS while the backup ran; the embedded database's peak PSS and the sum. */
  serverPeakRssMb: number;
  dbPeakPssMb?: number;
  peakSumMb?: number;
  /** The copy with a flipped byte refused: exit 1, the sentence naming the part. */
  damagedRefused: boolean;
  damagedPart: string;
  /** The restore's own time (verify, create, copy in, count), as it printed it. */
  restoreS: number;
  /** `npm run restore` from start to exit. */
  restoreCommandS: number;
  restorePeakRssMb: number;
  /** Exit 0, and every table's count it printed equal to the manifest's. */
  restoredCountsEqual: boolean;
  /** After `--activate`: every table of the live database counted equal to the manifest's. */
  activatedCountsEqual: boolean;
};

export type BackupOptions = Pick<ConsoleOptions, 'serverArgs' | 'withPostgres' | 'port' | 'log'> & {
  count?: number;
  /** The anchor's load, in seconds. */
  anchorSeconds?: number;
};

/** The columns of the bench's two backup tables: taking one under load, restoring it. */
export const BACKUP_COLUMNS = {
  backup: [
    'db',
    'tables',
    'rows',
    'backupS',
    'backupCommandS',
    'backupMb',
    'backupBytes',
    'anchorP99Ms',
    'p99Ms',
    'ratio',
    'anchorRequests',
    'requests',
    'errors',
    'backupPeakRssMb',
    'serverPeakRssMb',
    'dbPeakPssMb',
    'peakSumMb',
  ],
  restore: [
    'db',
    'damagedRefused',
    'damagedPart',
    'restoreS',
    'restoreCommandS',
    'restorePeakRssMb',
    'restoredCountsEqual',
    'activatedCountsEqual',
  ],
} as const;

/** The targets on the backup part's rows: what a backup promises. The p99 ratio is shown beside. */
export function backupTargets(rows: BackupRow[] | null): { target: string; figure: string; met: string }[] {
  const t: { target: string; figure: string; met: string }[] = [];
  const add = (target: string, figure: string, met: boolean) =>
    t.push({ target, figure, met: met ? 'yes' : 'NO' });
  for (const r of rows ?? []) {
    add(
      `backup ${r.db}: taken while the site answers every request`,
      `${r.backupS} s, ${r.backupMb} MB; p99 ${r.p99Ms} ms against ${r.anchorP99Ms} ms without (${r.ratio}x, shown); ${r.errors} of ${r.requests} not answered (${r.anchorErrors} of ${r.anchorRequests} without)`,
      r.errors === 0 && r.anchorErrors === 0 && r.requests > 0 && r.anchorRequests > 0,
    );
    add(
      `backup ${r.db}: a copy with a flipped byte refused, naming its part`,
      r.damagedRefused ? `refused (${r.damagedPart})` : `not refused as it should be (${r.damagedPart})`,
      r.damagedRefused,
    );
    add(
      `backup ${r.db}: restored and activated, every table's count the manifest's`,
      `restored in ${r.restoreS} s (${r.restorePeakRssMb} MB peak RSS): ${r.restoredCountsEqual ? 'equal' : 'NOT equal'}; activated: ${r.activatedCountsEqual ? 'equal' : 'NOT equal'}`,
      r.restoredCountsEqual && r.activatedCountsEqual,
    );
  }
  return t;
}

/** The site's load: loops of one request after another, PAUSE_MS between. */
const PAUSE_MS = 20;
/** Requests a loop asks at most, however long it runs. */
const LOOP_MAX_REQUESTS = 20_000;
/** How long one request may take before it counts as not answered. */
const REQUEST_TIMEOUT_MS = 30_000;
const BACKUP_TIMEOUT_MS = 10 * 60_000;
const RESTORE_TIMEOUT_MS = 15 * 60_000;
const ACTIVATE_TIMEOUT_MS = 2 * 60_000;

type Load = { times: number[]; byKind: Map<string, number[]>; errors: number };

/**
 * The site's load until `until` settles or `maxSeconds` pass: the home page (brotli, as a browser
 * asks), /api/events/next and the inbox's first page as the owner, each in a loop of its own.
 * The times of the requests answered 200, and the number of the others (refused, failed, timed out).
 */
async function siteLoad(
  base: string,
  cookie: string,
  until: Promise<unknown>,
  maxSeconds: number,
): Promise<Load> {
  let running = true;
  const ended = () => {
    running = false;
  };
  void until.then(ended, ended);
  const timer = setTimeout(ended, maxSeconds * 1000);
  const kinds: [string, string, Record<string, string>][] = [
    ['page', `${base}/`, { 'accept-encoding': 'br' }],
    ['events', `${base}/api/events/next`, {}],
    ['inbox', `${base}/api/owner/submissions`, { cookie }],
  ];
  const load: Load = { times: [], byKind: new Map(), errors: 0 };
  await Promise.all(
    kinds.map(async ([kind, url, headers]) => {
      const times: number[] = [];
      load.byKind.set(kind, times);
      for (let n = 0; running && n < LOOP_MAX_REQUESTS; n += 1) {
        const t0 = performance.now();
        try {
          const answer = await fetch(url, { headers, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
          await answer.arrayBuffer();
          if (answer.status === 200) times.push(performance.now() - t0);
          else load.errors += 1;
        } catch {
          load.errors += 1;
        }
        await sleep(PAUSE_MS);
      }
      load.times.push(...times);
    }),
  );
  clearTimeout(timer);
  return load;
}

const p99 = (xs: number[]) => round(percentile(sorted(xs), 0.99));

type CommandRun = { code: number | null; out: string; err: string; seconds: number; peakRssMb: number };

/**
 * `node --import tsx scripts/<script> <args>`, as `npm run backup` and `npm run restore` run, with
 * the server's settings. Its peak RSS is the kernel's high-water mark, read every 100 ms until it
 * exits (the last reading is within 100 ms of its end). Killed after `timeoutMs` (code null).
 */
async function command(
  script: string,
  args: string[],
  env: Record<string, string>,
  timeoutMs: number,
): Promise<CommandRun> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', `scripts/${script}`, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'warn', ...env },
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let peak = 0;
  const poll = setInterval(() => {
    try {
      peak = Math.max(peak, peakRssMb(child.pid!));
    } catch {
      // Exited since the last reading.
    }
  }, 100);
  const killer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const code = await exited;
  clearInterval(poll);
  clearTimeout(killer);
  return { code, out, err, seconds: round((performance.now() - started) / 1000), peakRssMb: peak };
}

/** A command's output, for an error that says why it failed. */
const said = (run: CommandRun) => `exit ${run.code}: ${(run.err || run.out).trim().slice(-2000)}`;

/**
 * A copy of the backup in `dir`, in `scratch`, with one byte flipped in the middle of its largest
 * table's part (same size: only the checksum can tell). Answers the copy's folder and the part's file.
 */
function damagedCopy(dir: string, manifest: Manifest, scratch: string): { copy: string; part: string } {
  const largest = [...manifest.tables].sort((a, b) => b.bytes - a.bytes)[0]!;
  const copy = join(scratch, `damaged-${manifest.name}`);
  cpSync(dir, copy, { recursive: true });
  const fd = openSync(join(copy, largest.file), 'r+');
  try {
    const at = Math.floor(largest.bytes / 2);
    const byte = Buffer.alloc(1);
    readSync(fd, byte, 0, 1, at);
    byte[0] = byte[0]! ^ 0xff;
    writeSync(fd, byte, 0, 1, at);
  } finally {
    closeSync(fd);
  }
  return { copy, part: largest.file };
}

/** Every table of the manifest counted in the side's live database (embedded: its cluster started for the while). */
async function liveCounts(s: Side, manifest: Manifest): Promise<Map<string, number>> {
  const embedded = s.databaseUrl ? undefined : await startEmbeddedPostgres(s.dataDir);
  try {
    const client = new pg.Client(embedded ? embedded.connection() : { connectionString: s.databaseUrl });
    await client.connect();
    try {
      const counts = new Map<string, number>();
      for (const t of manifest.tables) {
        const name = `${pg.escapeIdentifier(t.schema)}.${pg.escapeIdentifier(t.name)}`;
        const { rows } = await client.query<{ n: string }>(`select count(*)::text as n from ${name}`);
        counts.set(`${t.schema}.${t.name}`, Number(rows[0]!.n));
      }
      return counts;
    } finally {
      await client.end();
    }
  } finally {
    await embedded?.stop();
  }
}

/** Whether `counts` holds every table of the manifest, each with the manifest's rows. */
const countsEqual = (manifest: Manifest, counts: Map<string, number>) =>
  manifest.tables.every((t) => counts.get(`${t.schema}.${t.name}`) === t.rows);

/** The per-table counts `npm run restore` printed: "  public.submissions: 1000 rows (the backup: 1000)". */
function printedCounts(out: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const [, table, found, expected] of out.matchAll(/^ {2}(\S+): (\d+) rows \(the backup: (\d+)\)$/gm)) {
    // A line whose two figures differ is not a count equal to the backup's.
    if (found === expected) counts.set(table!, Number(found));
  }
  return counts;
}

/**
 * On the external Postgres, the databases the restore made that are still there: the one activation
 * kept (`<live>_before_<time>`, named after the side's own database, so no one else's), and the
 * restored one when it was not activated. The side's own database is `withPostgres`'s to drop.
 */
async function dropMade(s: Side, restored: string | undefined): Promise<void> {
  if (!s.databaseUrl) return;
  const live = decodeURIComponent(new URL(s.databaseUrl).pathname.slice(1));
  const admin = new pg.Client(adminConnection(s.databaseUrl));
  await admin.connect();
  try {
    const { rows } = await admin.query<{ datname: string }>(
      `select datname from pg_database where datname <> $1 and (starts_with(datname, $1 || '_before_') or datname = $2)`,
      [live, restored ?? ''],
    );
    for (const { datname } of rows)
      await admin.query(`drop database if exists ${pg.escapeIdentifier(datname)} with (force)`);
  } finally {
    await admin.end();
  }
}

/** One side: the server started on it, the anchor's load, the backup under load, then the restore. */
async function backUpAndRestore(
  s: Side,
  count: number,
  { serverArgs, port, anchorSeconds = 20, log = console.log }: BackupOptions,
): Promise<BackupRow> {
  const base = `http://127.0.0.1:${port}`;
  const backupDir = s.env.BACKUP_DIR!;
  const startedAt = performance.now();
  const server = startServer(serverArgs, s.env);
  let database: DatabasePssSampler | undefined;
  let taken: {
    anchor: Load;
    during: Load;
    run: CommandRun;
    serverPeakRssMb: number;
    dbPeakPssMb?: number;
  };
  try {
    await waitReady(port, server);
    database = s.databaseUrl ? undefined : sampleDatabasePss(s.dataDir);
    const wait = Math.max(0, START_JOBS_MS - (performance.now() - startedAt));
    log(
      `Backup: ${s.label} ready; the load in ${Math.round(wait / 1000)} s, once its start-up jobs have run`,
    );
    await sleep(wait);
    await waitReady(port, server);
    // Untimed: every request of the load asked a few times first.
    await siteLoad(base, s.cookie, sleep(1000), 5);
    const anchor = await siteLoad(base, s.cookie, sleep(anchorSeconds * 1000), anchorSeconds + 5);
    log(`Backup: ${s.label} without a backup, p99 ${p99(anchor.times)} ms (${anchor.times.length} requests)`);
    const reset = resetPeak(server.pid!);
    if (!reset) log("Backup: could not reset the server's peak RSS; it counts from the server's start");
    database?.reset();
    const backup = command('backup.ts', [], s.env, BACKUP_TIMEOUT_MS);
    const during = await siteLoad(base, s.cookie, backup, BACKUP_TIMEOUT_MS / 1000);
    const run = await backup;
    if (run.code !== 0) throw new Error(`npm run backup on ${s.label} failed (${said(run)})`);
    taken = { anchor, during, run, serverPeakRssMb: rssMb(server.pid!).peak, dbPeakPssMb: database?.peakMb };
    const kinds = [...during.byKind].map(([k, xs]) => `${k} ${p99(xs)}/${p99(anchor.byKind.get(k)!)}`);
    log(`Backup: ${s.label} p99 by request, ms (during/without): ${kinds.join(', ')}`);
  } finally {
    await database?.stop();
    await stop(server);
  }

  const name = listBackups(backupDir)[0];
  if (!name) throw new Error(`npm run backup on ${s.label} left no backup in ${backupDir}`);
  const dir = join(backupDir, name);
  const manifest = readManifest(dir);

  // With the server stopped (activation needs it): a damaged copy, then the backup itself.
  const scratch = mkdtempSync(join(tmpdir(), 'bench-backup-damaged-'));
  let restored: string | undefined;
  try {
    const damaged = damagedCopy(dir, manifest, scratch);
    const refusal = await command('restore.ts', [damaged.copy, '--no-sandbox'], s.env, RESTORE_TIMEOUT_MS);
    const damagedRefused = refusal.code === 1 && refusal.err.includes(damaged.part);
    log(`Backup: ${s.label} damaged copy: exit ${refusal.code}, ${refusal.err.trim().split('\n').at(-1)}`);
    rmSync(scratch, { recursive: true, force: true });

    log(`Backup: ${s.label} restoring ${name}`);
    const restore = await command('restore.ts', [dir, '--no-sandbox'], s.env, RESTORE_TIMEOUT_MS);
    restored = /into a new database, ([A-Za-z0-9_]+)/.exec(restore.out)?.[1];
    if (restore.code !== 0 || !restored)
      throw new Error(`npm run restore on ${s.label} failed (${said(restore)})`);
    const restoredCountsEqual = countsEqual(manifest, printedCounts(restore.out));
    const activate = await command('restore.ts', ['--activate', restored], s.env, ACTIVATE_TIMEOUT_MS);
    if (activate.code !== 0)
      throw new Error(`npm run restore -- --activate on ${s.label} failed (${said(activate)})`);
    restored = undefined;
    const activatedCountsEqual = countsEqual(manifest, await liveCounts(s, manifest));

    const { anchor, during, run } = taken;
    const bytes = backupBytes(manifest);
    const anchorP99Ms = p99(anchor.times);
    const p99Ms = p99(during.times);
    const dbPeakPssMb = taken.dbPeakPssMb;
    return {
      db: s.label,
      submissions: count,
      tables: manifest.tables.length,
      rows: manifest.tables.reduce((sum, t) => sum + t.rows, 0),
      backupS: round(manifest.seconds),
      backupCommandS: run.seconds,
      backupBytes: bytes,
      backupMb: round(bytes / 1_048_576),
      anchorP99Ms,
      anchorRequests: anchor.times.length + anchor.errors,
      anchorErrors: anchor.errors,
      p99Ms,
      requests: during.times.length + during.errors,
      errors: during.errors,
      ratio: Math.round((p99Ms / anchorP99Ms) * 100) / 100,
      backupPeakRssMb: run.peakRssMb,
      serverPeakRssMb: taken.serverPeakRssMb,
      ...(dbPeakPssMb === undefined
        ? {}
        : { dbPeakPssMb, peakSumMb: sumMb(taken.serverPeakRssMb, dbPeakPssMb) }),
      damagedRefused,
      damagedPart: damaged.part,
      restoreS: Number(/Restored in ([\d.]+) s/.exec(restore.out)?.[1] ?? NaN),
      restoreCommandS: restore.seconds,
      restorePeakRssMb: restore.peakRssMb,
      restoredCountsEqual,
      activatedCountsEqual,
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    await dropMade(s, restored);
  }
}

/**
 * The backup part: the embedded PostgreSQL and a throwaway database of the external Postgres,
 * seeded side by side as the console part seeds them, then each backed up under load and restored,
 * one after the other. The servers take no scheduled backup (BACKUP_HOUR=off): the part takes its
 * own, into BACKUP_DIR in the side's DATA_DIR.
 */
export async function runBackup(options: BackupOptions): Promise<BackupRow[]> {
  const { serverArgs, port, count = 1_000_000, log = console.log } = options;
  return options.withPostgres(async (url) => {
    const sides = [side('embedded', port), side('postgres', port, url)];
    try {
      for (const s of sides) {
        s.env.BACKUP_DIR = join(s.dataDir, 'backups');
        s.env.BACKUP_HOUR = 'off';
      }
      await seedSides(sides, { serverArgs, port, count, log, part: 'Backup' });
      const rows: BackupRow[] = [];
      for (const s of sides) rows.push(await backUpAndRestore(s, count, options));
      return rows;
    } finally {
      for (const s of sides) {
        await dropMade(s, undefined).catch(() => {});
        rmSync(s.dataDir, { recursive: true, force: true });
        rmSync(s.anchorDir, { recursive: true, force: true });
      }
    }
  });
}
