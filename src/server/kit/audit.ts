/**
 * The audit log: every owner action (sign-in, confirm, release, retry, ...) with its time and
 * who, written in the same transaction as the action it records. A target is a record id or a
 * booking reference, never a visitor's address or words.
 */
import { bigint, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { Queryable } from './db/client';

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** The owner's address (the console's own user), or 'system'. */
    actor: text('actor').notNull(),
    /** e.g. 'sign-in.link', 'submission.release', 'booking.confirm', 'delivery.retry'. */
    action: text('action').notNull(),
    /** What it acted on: a record id or a booking reference; never a visitor's personal data. */
    target: text('target'),
    /** Counts and method names only. */
    detail: jsonb('detail'),
  },
  (t) => [index('audit_log_at').on(t.at)],
);

/** `<area>.<verb>` ('booking.confirm', 'person.erase'), or 'sign-out'. */
export type AuditAction = `${string}.${string}` | 'sign-out';

export async function audit(
  db: Queryable,
  actor: string,
  action: AuditAction,
  target?: string | number,
  detail?: Record<string, string | number | boolean>,
): Promise<void> {
  await db
    .insert(auditLog)
    .values({ actor, action, target: target === undefined ? null : String(target), detail: detail ?? null });
}
