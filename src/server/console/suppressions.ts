/**
 * The suppression list area: the keyed hashes the outbox never writes to (an erased person, an
 * unsubscribed reader past retention), with their date and reason, one page at a time. It holds
 * no address, so the page shows none; a hash of one of the console's own addresses is flagged
 * (the outbox writes to those all the same). The owner may lift a suppression: the address may
 * then be e-mailed again by the forms, so it is asked first and audited (decision 030).
 */
import { eq, sql } from 'drizzle-orm';
import { suppressionCopy } from '~/content/console';
import { suppressionRoutes, type SuppressionLifted, type SuppressionPage } from '~/contract/console';
import { cursorAfter, type PageCursor } from '~/contract/query';
import { audit } from '../kit/audit';
import type { Db, Queryable } from '../kit/db/client';
import { newestFirst, olderThan, pageOf } from '../kit/db/keyset';
import { suppressions } from '../kit/db/schema';
import type { ConsoleArea } from '../kit/http/owner-routes';
import { Refusal } from '../kit/http/request-checks';
import { suppressionHash } from '../kit/mail/outbox';

const PAGE = 50;

/** Newest first; `after` is the previous page's last row. */
export async function suppressionPage(
  db: Queryable,
  after: PageCursor | undefined,
  consoleHashes: ReadonlySet<string> = new Set(),
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
    items: items.map((r) => ({
      hash: r.hash,
      reason: r.reason,
      createdAt: r.createdAt.toISOString(),
      ...(consoleHashes.has(r.hash) ? { console: true as const } : {}),
    })),
    next,
  };
}

/**
 * Takes one hash off the list, with the owner's audit row in the same transaction (its target the
 * hash's first 16 characters, its reason in the detail). Refused with 404 when it is not there.
 */
export async function liftSuppression(
  db: Db,
  hash: string,
  write: (tx: Queryable, reason: string) => Promise<void>,
): Promise<SuppressionLifted> {
  return db.transaction(async (tx) => {
    const [gone] = await tx
      .delete(suppressions)
      .where(eq(suppressions.hash, hash))
      .returning({ reason: suppressions.reason });
    if (!gone) throw new Refusal(404, { error: suppressionCopy.notOnList });
    await write(tx, gone.reason);
    return { ok: true as const, reason: gone.reason };
  });
}

export const suppressionsArea: ConsoleArea = (routes, { db, config }) => {
  const consoleHashes = new Set(config.ownerEmails.map((a) => suppressionHash(config.appSecret, a)));
  routes.on(suppressionRoutes.page, ({ query }) => suppressionPage(db, query.after, consoleHashes));
  routes.on(suppressionRoutes.lift, async ({ body, owner, request }) => {
    const lifted = await liftSuppression(db, body.hash, (tx, reason) =>
      audit(tx, owner.email, 'suppression.lift', body.hash.slice(0, 16), { reason }),
    );
    request.log.info({ reason: lifted.reason }, 'suppression lifted');
    return lifted;
  });
};
