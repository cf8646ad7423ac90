/**
 * What the backups did (decision 057): one row a backup, off-machine copy or restore drill, with
 * its end and result. The System page and its warnings read it; the schedule asks it whether
 * today's backup was taken. A run that never ended (the process killed) has no `ok`.
 */
import { bigint, boolean, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const backupRuns = pgTable(
  'backup_runs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** 'backup', 'copy' or 'drill'. */
    kind: text('kind').notNull(),
    /** For a backup: 'scheduled', 'on demand' or 'before upgrade'. */
    reason: text('reason'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** null while under way (or when the process died under it). */
    ok: boolean('ok'),
    /** The backup's name (its folder). */
    backup: text('backup'),
    bytes: bigint('bytes', { mode: 'number' }),
    /** What went wrong, or where the copy went: a sentence for the owner, never personal data. */
    detail: text('detail'),
  },
  (t) => [index('backup_runs_kind_started').on(t.kind, t.startedAt)],
);
