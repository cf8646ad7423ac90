/**
 * What the console's System page shows (decision 057), and the warnings drawn from it: the last
 * backup, its off-machine copy and the last drill (from `backup_runs` and the backups' folder),
 * the database and the disk, the outbox's backlog and the release.
 */
import { statfsSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { SystemView } from '~/contract/system';
import type { Config } from '../config';
import type { Database } from '../db/client';
import { rowsOf } from '../db/rows';
import { currentRelease, releaseLabel } from '../release';
import { backupBytes, readManifest } from './manifest';
import { listBackups } from './take';

/** A backup older than this is a warning (a day and two hours: one missed night). */
export const STALE_BACKUP_MS = 26 * 3600_000;

export type SystemWarning = {
  title: string;
  text: string;
  /** Set when the owner is to be alerted: the same key alerts once. */
  alertKey?: string;
};

type Run = {
  id: string;
  ok: boolean | null;
  at: string;
  finished: string | null;
  backup: string | null;
  detail: string | null;
};

/** A time as the browser reads it everywhere: ISO 8601. */
const iso = (at: string | null) => (at === null ? null : new Date(at).toISOString());

async function lastRun(database: Database, kind: string, finishedOnly = true): Promise<Run | undefined> {
  const run = rowsOf<Run>(
    await database.db.execute(
      sql`select id::text, ok, started_at::text as at, finished_at::text as finished, backup, detail from backup_runs
          where kind = ${kind} ${finishedOnly ? sql`and ok is not null` : sql``} order by started_at desc, id desc limit 1`,
    ),
  )[0];
  return run && { ...run, at: iso(run.at)!, finished: iso(run.finished) };
}

function diskOf(dir: string): { freeBytes: number; totalBytes: number } | null {
  try {
    const stat = statfsSync(dir);
    return { freeBytes: stat.bavail * stat.bsize, totalBytes: stat.blocks * stat.bsize };
  } catch {
    return null;
  }
}

/** The newest backup in the folder, from its manifest. */
function newestBackup(dir: string): SystemView['backups']['last'] {
  for (const name of listBackups(dir)) {
    try {
      const manifest = readManifest(join(dir, name));
      return {
        name,
        takenAt: manifest.takenAt,
        bytes: backupBytes(manifest),
        reason: manifest.reason,
        encrypted: manifest.encryptedTo !== null,
        seconds: manifest.seconds,
      };
    } catch {
      continue;
    }
  }
  return null;
}

export async function systemStatus(
  database: Database,
  config: Config,
  startedAt: Date,
  running: boolean,
  now = new Date(),
): Promise<SystemView> {
  const settings = config.backup;
  const [lastBackupRun, lastCopy, lastDrill, size, outbox] = await Promise.all([
    lastRun(database, 'backup'),
    lastRun(database, 'copy'),
    lastRun(database, 'drill'),
    database.db.execute(
      sql`select current_setting('server_version') as version, pg_database_size(current_database())::text as bytes`,
    ),
    database.db.execute(
      sql`select count(*)::text as waiting, min(next_attempt_at)::text as oldest from outbox
          where status = 'pending' and next_attempt_at <= now()`,
    ),
  ]);
  const db = rowsOf<{ version: string; bytes: string }>(size)[0]!;
  const waiting = rowsOf<{ waiting: string; oldest: string | null }>(outbox)[0]!;
  const last = newestBackup(settings.dir);
  const view: SystemView = {
    backups: {
      hour: settings.hour,
      dir: settings.dir,
      keep: settings.keep,
      encrypted: settings.recipient !== undefined,
      copyConfigured: settings.copyCommand !== undefined,
      last,
      kept: listBackups(settings.dir).length,
      failure:
        lastBackupRun &&
        lastBackupRun.ok === false &&
        (!last || Date.parse(lastBackupRun.at) > Date.parse(last.takenAt))
          ? { at: lastBackupRun.at, detail: lastBackupRun.detail ?? '' }
          : null,
      copy: lastCopy
        ? {
            at: lastCopy.at,
            ok: lastCopy.ok === true,
            backup: lastCopy.backup,
            detail: lastCopy.detail ?? '',
          }
        : null,
      running,
    },
    drill: lastDrill
      ? {
          at: lastDrill.at,
          ok: lastDrill.ok === true,
          backup: lastDrill.backup,
          detail: lastDrill.detail ?? '',
        }
      : null,
    database: {
      driver: database.driver,
      version: db.version.split(' ')[0]!,
      bytes: Number(db.bytes),
      disk: diskOf(settings.dir) ?? diskOf(config.dataDir),
    },
    outbox: { waiting: Number(waiting.waiting), oldestAt: iso(waiting.oldest) },
    release: { label: releaseLabel(currentRelease()), startedAt: startedAt.toISOString() },
    warnings: [],
  };
  view.warnings = warningsOf(view, config, startedAt, now, lastCopy, lastDrill).map((w) => w.text);
  return view;
}

function warningsOf(
  view: SystemView,
  config: Config,
  startedAt: Date,
  now: Date,
  lastCopy: Run | undefined,
  lastDrill: Run | undefined,
): SystemWarning[] {
  const out: SystemWarning[] = [];
  const { last } = view.backups;
  const since = last ? Date.parse(last.takenAt) : startedAt.getTime();
  if (config.backup.hour === null) {
    out.push({
      title: 'Scheduled backups are off',
      text: 'Scheduled backups are off (BACKUP_HOUR=off): take one from the System page, or turn them on.',
    });
  } else if (now.getTime() - since > STALE_BACKUP_MS) {
    const hours = Math.floor((now.getTime() - since) / 3600_000);
    out.push({
      title: 'No backup for over a day',
      text: last
        ? `The last good backup is ${hours} hours old. ${view.backups.failure ? 'The last one failed; its reason is on the System page.' : 'Check that the server is running its schedule.'}`
        : `No backup has been taken in the ${hours} hours since the server started.`,
      alertKey: `backup-stale:${last?.name ?? 'none'}`,
    });
  }
  const failure = view.backups.failure;
  if (failure) {
    out.push({
      title: 'A backup failed',
      text: `The last backup failed. ${failure.detail}`,
      alertKey: `backup-failed:${failure.at}`,
    });
  }
  // A copy that failed while a copy command is still set: removing the command ends the warning.
  if (lastCopy && lastCopy.ok === false && config.backup.copyCommand) {
    out.push({
      title: 'A backup was not copied off the machine',
      text: `The last backup was not copied off the machine. ${lastCopy.detail ?? ''}`,
      alertKey: `copy-failed:${lastCopy.id}`,
    });
  }
  if (lastDrill && lastDrill.ok === false) {
    out.push({
      title: 'The restore drill failed',
      text: `The weekly restore drill failed. ${lastDrill.detail ?? ''}`,
      alertKey: `drill-failed:${lastDrill.id}`,
    });
  }
  const disk = view.database.disk;
  if (disk && (disk.freeBytes < disk.totalBytes * 0.1 || (last && disk.freeBytes < 2 * last.bytes))) {
    out.push({
      title: 'The disk is nearly full',
      text: `Only ${Math.round(disk.freeBytes / 1_048_576)} MB is free on the disk that holds the backups: under 10% of it, or under twice the last backup's size.`,
      alertKey: `disk-low:${last?.name ?? 'none'}`,
    });
  }
  return out;
}

/** The warnings of the System page (the overview shows them too). */
export async function systemWarnings(
  database: Database,
  config: Config,
  startedAt: Date,
  now = new Date(),
): Promise<SystemWarning[]> {
  const [lastCopy, lastDrill] = await Promise.all([lastRun(database, 'copy'), lastRun(database, 'drill')]);
  const view = await systemStatus(database, config, startedAt, false, now);
  return warningsOf(view, config, startedAt, now, lastCopy, lastDrill);
}
