/**
 * The newsletter's area of the owner's console: its readers by status (waiting for confirmation,
 * confirmed, unsubscribed), a page at a time, and the confirmed list as CSV for a mailing tool,
 * its download written to the audit log.
 */
import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { cursorAfter, type PageCursor } from '~/contract/query';
import { audit } from '~/server/kit/audit';
import type { Queryable } from '~/server/kit/db/client';
import { newestFirst, olderThan, pageOf } from '~/server/kit/db/keyset';
import { CSV_TYPE, csvStream } from '~/server/kit/http/csv';
import type { ConsoleArea } from '~/server/kit/http/owner-routes';
import { subscriberRoutes, type SubscriberPage, type SubscriberStatus } from './newsletter-console-contract';
import { newsletterSubscribers } from './tables.server';

const PAGE = 50;
/** Rows read at a time for the CSV. */
const BATCH = 2000;

/** Newest first; `after` is the previous page's last row. */
export async function subscriberPage(
  db: Queryable,
  status: SubscriberStatus,
  after: PageCursor | undefined,
): Promise<SubscriberPage> {
  const t = newsletterSubscribers;
  const rows = await db
    .select({
      id: t.id,
      email: t.email,
      firstName: t.firstName,
      lastName: t.lastName,
      status: t.status,
      createdAt: t.createdAt,
      at: sql<string>`${t.createdAt}::text`,
      confirmedAt: t.confirmedAt,
      unsubscribedAt: t.unsubscribedAt,
    })
    .from(t)
    .where(and(eq(t.status, status), olderThan(t.createdAt, t.id, after)))
    .orderBy(...newestFirst(t.createdAt, t.id))
    .limit(PAGE + 1);
  const { items, next } = pageOf(rows, PAGE, (last) => cursorAfter(last.at, last.id));
  return {
    items: items.map(({ at: _at, ...r }) => ({
      ...r,
      createdAt: r.createdAt.toISOString(),
      confirmedAt: r.confirmedAt ? r.confirmedAt.toISOString() : null,
      unsubscribedAt: r.unsubscribedAt ? r.unsubscribedAt.toISOString() : null,
    })),
    next,
  };
}

export const SUBSCRIBER_HEADERS = ['Email', 'First name', 'Last name', 'Confirmed at (UTC)'];

/** The confirmed newsletter subscribers, for a mailing tool, read in batches. */
export async function* confirmedSubscribers(db: Queryable): AsyncGenerator<unknown[][]> {
  let after = '';
  for (;;) {
    const rows = await db
      .select({
        email: newsletterSubscribers.email,
        firstName: newsletterSubscribers.firstName,
        lastName: newsletterSubscribers.lastName,
        confirmedAt: newsletterSubscribers.confirmedAt,
      })
      .from(newsletterSubscribers)
      .where(and(eq(newsletterSubscribers.status, 'confirmed'), gt(newsletterSubscribers.email, after)))
      .orderBy(asc(newsletterSubscribers.email))
      .limit(BATCH);
    yield rows.map((r) => [
      r.email,
      r.firstName,
      r.lastName,
      r.confirmedAt ? r.confirmedAt.toISOString() : '',
    ]);
    if (rows.length < BATCH) return;
    after = rows[rows.length - 1]!.email;
  }
}

export const subscribersArea: ConsoleArea = (routes, { db, clock, giveWay }) => {
  routes.on(subscriberRoutes.list, ({ query }) => subscriberPage(db, query.status, query.after));
  routes.on(subscriberRoutes.export, async ({ owner }) => {
    await audit(db, owner.email, 'export.subscribers');
    return {
      name: `subscribers-${clock().toISOString().slice(0, 10)}.csv`,
      type: CSV_TYPE,
      body: csvStream(SUBSCRIBER_HEADERS, confirmedSubscribers(db), giveWay),
    };
  });
};
