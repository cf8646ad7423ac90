/**
 * The suppression list area: the keyed hashes the outbox never writes to (an erased person, an
 * unsubscribed reader past retention), with their date and reason, one page at a time. It holds
 * no address, so the page shows none.
 */
import { sql } from 'drizzle-orm';
import { suppressionRoutes, type SuppressionPage } from '~/contract/console';
import { cursorAfter, type PageCursor } from '~/contract/query';
import type { Queryable } from '../kit/db/client';
import { newestFirst, olderThan, pageOf } from '../kit/db/keyset';
import { suppressions } from '../kit/db/schema';
import type { ConsoleArea } from '../kit/http/owner-routes';

const PAGE = 50;

/** Newest first; `after` is the previous page's last row. */
export async function suppressionPage(
  db: Queryable,
  after: PageCursor | undefined,
): Promise<SuppressionPage> {
  const rows = await db
    .select({
      hash: suppressions.hash,
      reason: suppressions.reason,
      createdAt: suppressions.createdAt,
      at: sql<string>`${suppressions.createdAt}::text`,
    })
    .from(suppressions)
    .where(olderThan(suppressions.createdAt, suppressions.hash, after))
    .orderBy(...newestFirst(suppressions.createdAt, suppressions.hash))
    .limit(PAGE + 1);
  const { items, next } = pageOf(rows, PAGE, (last) => cursorAfter(last.at, last.hash));
  return {
    items: items.map((r) => ({ hash: r.hash, reason: r.reason, createdAt: r.createdAt.toISOString() })),
    next,
  };
}

export const suppressionsArea: ConsoleArea = (routes, { db }) => {
  routes.on(suppressionRoutes.page, ({ query }) => suppressionPage(db, query.after));
};
