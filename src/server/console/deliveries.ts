/**
 * The Deliveries area: the outbox as the owner sees it (the `mail` lane: a newsletter issue's
 * e-mails are followed on its own page). Waiting and failed e-mails and those sent in the last
 * seven days, each with its last error code (never an SMTP reply's text, which can
 * quote addresses); a failed one can be sent again.
 */
import { and, desc, eq, gt, inArray, or, sql, type SQL } from 'drizzle-orm';
import { deliveryRoutes, type DeliveryStatus, type DeliverySummary } from '~/contract/console';
import { audit } from '../kit/audit';
import type { Queryable } from '../kit/db/client';
import { outbox } from '../kit/db/schema';
import type { ConsoleArea } from '../kit/http/owner-routes';
import { Refusal } from '../kit/http/request-checks';

const RECENT_DAYS = 7;
const LIST_LIMIT = 200;

const columns = {
  id: outbox.id,
  kind: outbox.kind,
  to: outbox.toAddress,
  subject: sql<string>`${outbox.message}->>'subject'`,
  status: outbox.status,
  attempts: outbox.attempts,
  lastError: outbox.lastError,
  createdAt: outbox.createdAt,
  sentAt: outbox.sentAt,
  submissionId: outbox.submissionId,
  // A waiting e-mail due later (a reminder, a retry): when it goes.
  dueAt: sql<Date | null>`case when ${outbox.status} = 'pending' and ${outbox.nextAttemptAt} > now() + interval '1 minute' then ${outbox.nextAttemptAt} end`,
};

export async function deliverySummaries(
  db: Queryable,
  where: SQL | undefined,
  limit = LIST_LIMIT,
): Promise<DeliverySummary[]> {
  const rows = await db.select(columns).from(outbox).where(where).orderBy(desc(outbox.id)).limit(limit);
  return rows.map((r) => ({
    ...r,
    id: Number(r.id),
    status: r.status as DeliveryStatus,
    createdAt: r.createdAt.toISOString(),
    sentAt: r.sentAt ? r.sentAt.toISOString() : null,
    dueAt: r.dueAt ? new Date(r.dueAt).toISOString() : null,
  }));
}

/**
 * The e-mails of one status (of sent, skipped and suppressed, the last seven days'); none: waiting,
 * failed and recently sent.
 */
export function deliveryFilter(status: DeliveryStatus | undefined, now = new Date()): SQL | undefined {
  const recent = gt(outbox.createdAt, new Date(now.getTime() - RECENT_DAYS * 24 * 3600_000));
  // The `mail` lane's e-mails: a newsletter issue's thousands are followed on the issue's own page
  // (decision 046), and would bury the leads' e-mails here.
  const lane = eq(outbox.lane, 'mail');
  if (status === undefined) {
    return and(
      lane,
      or(inArray(outbox.status, ['pending', 'failed']), and(eq(outbox.status, 'sent'), recent)),
    );
  }
  if (status === 'pending' || status === 'failed') return and(lane, eq(outbox.status, status));
  return and(lane, eq(outbox.status, status), recent);
}

/**
 * Sends an e-mail again now: a failed one goes back to the queue with a fresh set of attempts;
 * one waiting for its next attempt after an error (the relay refused it) is due at once.
 */
export async function retryDelivery(db: Queryable, id: number): Promise<void> {
  const updated = await db
    .update(outbox)
    .set({
      status: 'pending',
      attempts: sql`case when ${outbox.status} = 'failed' then 0 else ${outbox.attempts} end`,
      nextAttemptAt: sql`now()`,
    })
    .where(
      and(
        eq(outbox.id, id),
        eq(outbox.lane, 'mail'),
        or(
          eq(outbox.status, 'failed'),
          and(eq(outbox.status, 'pending'), sql`${outbox.lastError} is not null`),
        ),
      ),
    )
    .returning({ id: outbox.id });
  if (updated.length === 0) {
    throw new Refusal(409, { error: 'Only an e-mail whose sending failed can be sent again.' });
  }
}

export const deliveriesArea: ConsoleArea = (routes, { db, clock, wakeOutbox }) => {
  routes.on(deliveryRoutes.list, async ({ query }) => ({
    items: await deliverySummaries(db, deliveryFilter(query.status, clock())),
  }));
  routes.on(deliveryRoutes.retry, async ({ params: { id }, owner }) => {
    await db.transaction(async (tx) => {
      await retryDelivery(tx, id);
      await audit(tx, owner.email, 'delivery.retry', id);
    });
    wakeOutbox();
    return { ok: true as const };
  });
};
