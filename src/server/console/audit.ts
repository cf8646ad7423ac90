/**
 * The audit log: every owner action (sign-in, confirm, release, retry, ...) with its time and
 * who. A target is a record id or a booking reference, never a visitor's address or words.
 */
import { desc, lt } from 'drizzle-orm';
import type { AuditPage } from '~/console/api';
import type { Queryable } from '../kit/db/client';
import { auditLog } from './tables';

export type AuditAction =
  | 'sign-in.link-sent'
  | 'sign-in.link'
  | 'sign-in.passkey'
  | 'sign-out'
  | 'sign-out.everywhere'
  | 'passkey.register'
  | 'passkey.remove'
  | 'submission.release'
  | 'submission.delete'
  | 'submission.mark-spam'
  | 'booking.confirm'
  | 'booking.decline'
  | 'booking.cancel'
  | 'booking.reschedule'
  | 'delivery.retry'
  | 'digest.spam'
  | 'export.submissions'
  | 'export.subscribers'
  | 'person.export'
  | 'person.erase'
  | 'retention.run'
  | 'event.create'
  | 'event.update'
  | 'event.publish'
  | 'event.cancel'
  | 'event.message'
  | 'export.attendees';

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

const PAGE = 50;

/** Newest first; `after` is the id of the last entry of the previous page. */
export async function auditPage(db: Queryable, after: number | undefined): Promise<AuditPage> {
  const rows = await db
    .select({
      id: auditLog.id,
      at: auditLog.at,
      actor: auditLog.actor,
      action: auditLog.action,
      target: auditLog.target,
    })
    .from(auditLog)
    .where(after === undefined ? undefined : lt(auditLog.id, after))
    .orderBy(desc(auditLog.id))
    .limit(PAGE + 1);
  const items = rows.slice(0, PAGE).map((r) => ({ ...r, at: r.at.toISOString() }));
  return { items, next: rows.length > PAGE ? String(items[items.length - 1]!.id) : null };
}
