/**
 * The audit log's area: its entries a page at a time (the log itself, and `audit`, are the kit's:
 * src/server/kit/audit.ts).
 */
import { desc, lt } from 'drizzle-orm';
import { auditRoutes, type AuditPage } from '~/contract/console';
import type { Queryable } from '../kit/db/client';
import { pageOf } from '../kit/db/keyset';
import { auditLog } from '../kit/audit';
import type { ConsoleArea } from '../kit/http/owner-routes';

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
  const { items, next } = pageOf(rows, PAGE, (last) => String(last.id));
  return { items: items.map((r) => ({ ...r, at: r.at.toISOString() })), next };
}

export const auditArea: ConsoleArea = (routes, { db }) => {
  routes.on(auditRoutes.page, ({ query }) => auditPage(db, query.after));
};
