/**
 * The backups' settings (decision 057), read with the rest of the configuration (../config.ts):
 * on by default, daily at a quiet hour of UK time, kept 7 daily, 4 weekly and 6 monthly.
 */
import { resolve } from 'node:path';
import { z } from 'zod';

const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const count = (fallback: number) =>
  z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(1000).default(fallback));

export const BACKUP_ENV = {
  /** Where backups are kept; DATA_DIR/backups when unset. */
  BACKUP_DIR: z.preprocess(emptyToUndefined, z.string().optional()),
  /** The UK hour (0-23) of the daily backup, or `off`. */
  BACKUP_HOUR: z.preprocess(
    emptyToUndefined,
    z
      .union([z.literal('off'), z.coerce.number().int().min(0).max(23)], {
        error: 'must be an hour from 0 to 23, or off',
      })
      .default(3),
  ),
  BACKUP_KEEP_DAILY: count(7),
  BACKUP_KEEP_WEEKLY: count(4),
  BACKUP_KEEP_MONTHLY: count(6),
  /** An age public key: every backup is encrypted to it; its secret key stays with the owner. */
  BACKUP_AGE_RECIPIENT: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(
        /^age1[0-9a-z]{20,}$/,
        'must be an age public key (age1…), as `npm run backup -- --new-key` prints',
      )
      .optional(),
  ),
  /** The file of the matching secret key, where the weekly drill may read it (optional). */
  BACKUP_AGE_IDENTITY_FILE: z.preprocess(emptyToUndefined, z.string().optional()),
  /** A command that copies a backup off the machine; BACKUP_PATH names the backup's folder. */
  BACKUP_COPY_COMMAND: z.preprocess(emptyToUndefined, z.string().max(2000).optional()),
};

export type BackupSettings = {
  dir: string;
  /** The UK hour of the daily backup; null: no scheduled backups. */
  hour: number | null;
  keep: { daily: number; weekly: number; monthly: number };
  recipient?: string;
  identityFile?: string;
  copyCommand?: string;
  /**
   * The copy command's environment: the system's basics and the storage tools' own variables
   * (rclone, restic, S3 and the like), never the site's secrets (APP_SECRET, SMTP_URL...).
   */
  copyEnv: Record<string, string>;
};

const COPY_ENV_NAMES =
  /^(PATH|HOME|LANG|LC_ALL|TZ|USER|TMPDIR|(RCLONE|RESTIC|AWS|B2|AZURE|GOOGLE|GCS|S3|SSH)_[A-Z0-9_]+)$/;

type BackupEnv = z.infer<z.ZodObject<typeof BACKUP_ENV>>;

export function backupSettings(
  e: BackupEnv,
  dataDir: string,
  env: Record<string, string | undefined>,
): BackupSettings {
  return {
    copyEnv: Object.fromEntries(
      Object.entries(env).filter(
        (entry): entry is [string, string] => COPY_ENV_NAMES.test(entry[0]) && entry[1] !== undefined,
      ),
    ),
    dir: resolve(e.BACKUP_DIR ?? resolve(dataDir, 'backups')),
    hour: e.BACKUP_HOUR === 'off' ? null : e.BACKUP_HOUR,
    keep: { daily: e.BACKUP_KEEP_DAILY, weekly: e.BACKUP_KEEP_WEEKLY, monthly: e.BACKUP_KEEP_MONTHLY },
    recipient: e.BACKUP_AGE_RECIPIENT,
    identityFile: e.BACKUP_AGE_IDENTITY_FILE,
    copyCommand: e.BACKUP_COPY_COMMAND,
  };
}
