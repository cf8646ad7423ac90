/**
 * The console's System page (decision 057), shared by the server and the console in the browser:
 * the backups, the restore drill, the database and its disk, the outbox's backlog, the release.
 * The owner's alone: a helper has no route here.
 */
import { route } from './route';

export type SystemView = {
  backups: {
    /** The UK hour of the daily backup; null: scheduled backups are off. */
    hour: number | null;
    /** Where backups are kept on the server. */
    dir: string;
    keep: { daily: number; weekly: number; monthly: number };
    /** Backups are encrypted to the owner's key (BACKUP_AGE_RECIPIENT). */
    encrypted: boolean;
    /** BACKUP_COPY_COMMAND is set. */
    copyConfigured: boolean;
    /** The newest backup in the folder. */
    last: {
      name: string;
      takenAt: string;
      bytes: number;
      reason: string;
      encrypted: boolean;
      seconds: number;
    } | null;
    /** How many backups are kept. */
    kept: number;
    /** The last backup failed (after the last good one): when, and why. */
    failure: { at: string; detail: string } | null;
    /** The last off-machine copy. */
    copy: { at: string; ok: boolean; backup: string | null; detail: string } | null;
    /** A backup is under way in this instance. */
    running: boolean;
  };
  drill: { at: string; ok: boolean; backup: string | null; detail: string } | null;
  database: {
    driver: 'embedded' | 'postgres';
    version: string;
    bytes: number;
    /** The disk that holds the backups. */
    disk: { freeBytes: number; totalBytes: number } | null;
  };
  outbox: { waiting: number; oldestAt: string | null };
  release: { label: string; startedAt: string };
  /** What needs the owner's eye, one sentence each (the overview shows them too). */
  warnings: string[];
};

export type BackupStarted = { ok: true; started: boolean };

export const systemRoutes = {
  view: route<SystemView>()({ method: 'GET', path: '/system' }),
  /** Starts a backup and answers at once (202); `started` false: one is under way. */
  backup: route<BackupStarted>()({ method: 'POST', path: '/system/backup', status: 202 }),
};
