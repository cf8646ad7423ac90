/**
 * The backups the server runs by itself (decision 057):
 *
 * - a backup is due once a day from BACKUP_HOUR (UK time) until one succeeds: the schedule asks
 *   the record (`backup_runs`), not a mark taken beforehand, so a backup killed on the way is
 *   taken again at the next look (every 10 minutes), and two instances on one database take one
 *   (an advisory lock held while it runs);
 * - after a verified backup, those the keep rules let go are removed (./keep.ts), and the backup
 *   is copied off the machine by BACKUP_COPY_COMMAND when set; a failed copy is recorded;
 * - once a week the newest backup is restored into a scratch database, counted table by table
 *   against its manifest and dropped (the drill), and the result recorded;
 * - what needs the owner's eye (./status.ts: no good backup for 26 hours, a failed copy or drill,
 *   little disk) is e-mailed to the owner and sent to their devices once each.
 */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import { CONSOLE_PATH } from '~/content/routes';
import type { Config } from '../config';
import type { Database } from '../db/client';
import { MIGRATIONS_DIR } from '../db/client';
import { rowsOf } from '../db/rows';
import { enqueueEmails } from '../mail/outbox';
import { currentRelease } from '../release';
import { runEvery, type PeriodicJob } from '../timer';
import { backupsToKeep } from './keep';
import { readManifest, verifyBackup } from './manifest';
import { dropDatabase, restoreBackup } from './restore';
import { systemWarnings, type SystemWarning } from './status';
import { listBackups, takeBackup, type BackupReason } from './take';

const LOOK_EVERY_MS = 10 * 60_000;
const DRILL_EVERY_MS = 7 * 24 * 3600_000;
/** How long an off-machine copy may take. */
const COPY_TIMEOUT_MS = 3600_000;
// Any fixed number: the instance holding it is the one backing up.
const BACKUP_LOCK = 727_002;

export type BackupOutcome = { ok: true; name: string; bytes: number } | { ok: false; detail: string };

export type BackupService = {
  /** Takes a backup now, unless one is under way here or in another instance (then undefined). */
  take(reason: BackupReason): Promise<BackupOutcome | undefined>;
  /** Starts `take` and answers at once: whether it started. */
  start(reason: BackupReason): boolean;
  running(): boolean;
  /** Restores the newest backup into a scratch database, counts, drops; recorded. */
  drill(): Promise<{ ok: boolean; detail: string } | undefined>;
  /** The schedule's look: a due backup, a due drill, the owner's alerts. */
  look(now?: Date): Promise<void>;
  /** Sends what needs the owner's eye, once each; returns what was sent. */
  alert(now?: Date): Promise<SystemWarning[]>;
  stop(): Promise<void>;
};

export type PushOwner = (alert: { title: string; url: string; tag: string }) => Promise<void>;

/** The UK hour and minute of `at`. */
function ukClock(at: Date): { hour: number; minute: number } {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/London',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return { hour: get('hour'), minute: get('minute') };
}

/** The last moment the daily backup fell due at or before `now` (BACKUP_HOUR, UK time). */
export function lastDue(now: Date, hour: number): Date {
  const { hour: h, minute } = ukClock(now);
  const hoursSince = (h - hour + 24) % 24;
  return new Date(
    now.getTime() -
      hoursSince * 3600_000 -
      minute * 60_000 -
      now.getUTCSeconds() * 1000 -
      now.getUTCMilliseconds(),
  );
}

/** The database `name` on the same server as `admin`. */
export function sameServer(admin: pg.ClientConfig, name: string): pg.ClientConfig & { database: string } {
  if (admin.connectionString) {
    const url = new URL(admin.connectionString);
    url.pathname = `/${name}`;
    return { connectionString: url.toString(), database: name };
  }
  return { ...admin, database: name };
}

/** Removes the backups the keep rules let go (after a newer one was verified). */
export function pruneBackups(settings: Pick<Config['backup'], 'dir' | 'keep'>): string[] {
  const names = listBackups(settings.dir);
  const keep = backupsToKeep(names, settings.keep);
  const removed = names.filter((name) => !keep.has(name));
  for (const name of removed) rmSync(join(settings.dir, name), { recursive: true, force: true });
  return removed;
}

/** Runs the owner's copy command for one backup; a sentence of how it ended. */
export function runCopy(
  command: string,
  env: Record<string, string>,
  dir: string,
  name: string,
): Promise<{ ok: boolean; detail: string }> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', command], {
      env: { ...env, BACKUP_PATH: dir, BACKUP_NAME: name },
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: COPY_TIMEOUT_MS,
    });
    let tail = '';
    child.stderr.on('data', (chunk: Buffer) => (tail = (tail + chunk.toString('utf8')).slice(-400)));
    child.on('error', (error) =>
      resolve({ ok: false, detail: `The copy command could not start (${error.message}).` }),
    );
    child.on('close', (code, signal) => {
      const said = tail.trim().split('\n').at(-1)?.trim();
      if (code === 0) resolve({ ok: true, detail: 'Copied by BACKUP_COPY_COMMAND.' });
      else
        resolve({
          ok: false,
          detail: `The copy command ${signal ? `was stopped (${signal})` : `ended with code ${code}`}${said ? `: ${said}` : ''}.`,
        });
    });
  });
}

export function startBackups(
  deps: {
    database: Database;
    config: Config;
    log: FastifyBaseLogger;
    wakeOutbox(): void;
    pushOwner: PushOwner;
    consoleUrl(path: string): string;
    startedAt: Date;
  },
  { everyMs = LOOK_EVERY_MS, firstAfterMs = 120_000 } = {},
): BackupService {
  const { database, config, log } = deps;
  const { db } = database;
  const settings = config.backup;
  let current: Promise<BackupOutcome | undefined> | undefined;

  const record = async (kind: string, values: { reason?: string; backup?: string }) =>
    Number(
      rowsOf<{ id: string }>(
        await db.execute(
          sql`insert into backup_runs (kind, reason, backup) values (${kind}, ${values.reason ?? null}, ${values.backup ?? null}) returning id::text`,
        ),
      )[0]!.id,
    );
  const finish = (id: number, ok: boolean, values: { backup?: string; bytes?: number; detail?: string }) =>
    db.execute(
      sql`update backup_runs set finished_at = now(), ok = ${ok}, backup = coalesce(${values.backup ?? null}, backup),
          bytes = ${values.bytes ?? null}, detail = ${values.detail ?? null} where id = ${id}`,
    );

  async function copyOff(dir: string, name: string): Promise<void> {
    if (!settings.copyCommand) return;
    const id = await record('copy', { backup: name });
    const result = await runCopy(settings.copyCommand, settings.copyEnv, dir, name);
    await finish(id, result.ok, { detail: result.detail });
    if (!result.ok) log.warn({ runId: id }, 'the backup could not be copied off the machine');
  }

  async function takeLocked(reason: BackupReason): Promise<BackupOutcome | undefined> {
    const pool = (await import('pg')).default;
    const lock = new pool.Client(database.connection);
    await lock.connect();
    try {
      const got = await lock.query<{ ok: boolean }>('select pg_try_advisory_lock($1) as ok', [BACKUP_LOCK]);
      if (!got.rows[0]?.ok) return undefined;
      const id = await record('backup', { reason });
      try {
        const { dir, manifest } = await takeBackup({
          connection: database.connection,
          driver: database.driver,
          backupsDir: settings.dir,
          dataDir: config.dataDir,
          reason,
          release: currentRelease(),
          migrationsFolder: MIGRATIONS_DIR,
          recipient: settings.recipient,
        });
        const bytes = [...manifest.tables, ...manifest.files].reduce((sum, p) => sum + p.bytes, 0);
        await finish(id, true, { backup: manifest.name, bytes });
        log.info({ runId: id, bytes, seconds: manifest.seconds }, 'backup taken');
        pruneBackups(settings);
        await copyOff(dir, manifest.name);
        return { ok: true, name: manifest.name, bytes };
      } catch (error) {
        const detail = (error as Error).message;
        await finish(id, false, { detail }).catch(() => {});
        log.error({ runId: id, errorName: (error as Error).name }, 'the backup failed');
        return { ok: false, detail };
      }
    } finally {
      await lock.end().catch(() => {});
    }
  }

  const take = (reason: BackupReason) => {
    current ??= takeLocked(reason).finally(() => (current = undefined));
    return current;
  };

  async function drill(): Promise<{ ok: boolean; detail: string } | undefined> {
    const newest = listBackups(settings.dir)[0];
    if (!newest) return undefined;
    const dir = join(settings.dir, newest);
    const id = await record('drill', { backup: newest });
    const scratch = `drill_${Date.now()}`;
    try {
      const manifest = readManifest(dir);
      let identity: string | undefined;
      if (manifest.encryptedTo) {
        if (!settings.identityFile) {
          await verifyBackup(dir);
          const detail =
            'Every checksum verified; the rows were not restored, since the key of the encrypted backups is not on this server (BACKUP_AGE_IDENTITY_FILE).';
          await finish(id, true, { detail });
          return { ok: true, detail };
        }
        identity = readFileSync(settings.identityFile, 'utf8')
          .split('\n')
          .find((line) => line.startsWith('AGE-SECRET-KEY-'))
          ?.trim();
      }
      const result = await restoreBackup({
        backupDir: dir,
        admin: database.admin,
        target: sameServer(database.admin, scratch),
        migrationsFolder: MIGRATIONS_DIR,
        identity,
      });
      await dropDatabase(database.admin, scratch);
      const rows = result.counts.reduce((sum, c) => sum + c.found, 0);
      const detail = `Restored into a scratch database: ${result.counts.length} tables and ${rows} rows, each table's count equal to the backup's, in ${result.seconds.toFixed(1)} s.`;
      await finish(id, true, { detail });
      return { ok: true, detail };
    } catch (error) {
      await dropDatabase(database.admin, scratch).catch(() => {});
      const detail = (error as Error).message;
      await finish(id, false, { detail }).catch(() => {});
      log.error({ runId: id, errorName: (error as Error).name }, 'the restore drill failed');
      return { ok: false, detail };
    }
  }

  async function alert(now = new Date()): Promise<SystemWarning[]> {
    const warnings = await systemWarnings(database, config, deps.startedAt, now);
    const sent: SystemWarning[] = [];
    for (const warning of warnings) {
      if (!warning.alertKey) continue;
      const taken = await db.execute(
        sql`insert into mail_throttle (key, last_at) values (${`system-alert:${warning.alertKey}`}, ${now})
            on conflict (key) do nothing returning key`,
      );
      if (rowsOf(taken).length === 0) continue;
      await enqueueEmails(db, null, [
        {
          kind: 'owner.system-alert',
          to: config.ownerEmail,
          subject: warning.title,
          content: {
            preheader: 'Open the System page of the console.',
            heading: warning.title,
            blocks: [
              { type: 'paragraph', text: warning.text },
              { type: 'button', label: 'Open the System page', url: deps.consoleUrl('/system') },
            ],
          },
        },
      ]);
      deps.wakeOutbox();
      await deps
        .pushOwner({ title: warning.title, url: `${CONSOLE_PATH}/system`, tag: `system-${warning.alertKey}` })
        .catch(() => {});
      sent.push(warning);
    }
    return sent;
  }

  async function look(now = new Date()): Promise<void> {
    try {
      if (settings.hour !== null) {
        const due = lastDue(now, settings.hour);
        const { rows } = (await db.execute(
          sql`select 1 from backup_runs where kind = 'backup' and ok and started_at >= ${due} limit 1`,
        )) as unknown as { rows: unknown[] };
        if (rows.length === 0) await take('scheduled');
        const drilled = (await db.execute(
          sql`select 1 from backup_runs where kind = 'drill' and ok is not null and started_at > ${new Date(now.getTime() - DRILL_EVERY_MS)} limit 1`,
        )) as unknown as { rows: unknown[] };
        if (drilled.rows.length === 0) await drill();
      }
      await alert(now);
    } catch (error) {
      log.warn(
        { errorName: (error as Error).name },
        'the backup schedule could not look; it looks again shortly',
      );
    }
  }

  const timer: PeriodicJob<void> | undefined = config.sandbox
    ? undefined
    : runEvery(() => look(), { firstAfterMs, everyMs });
  return {
    take,
    start: (reason) => {
      if (current) return false;
      void take(reason);
      return true;
    },
    running: () => current !== undefined,
    drill,
    look,
    alert,
    stop: async () => {
      await timer?.stop();
      await current?.catch(() => {});
    },
  };
}
