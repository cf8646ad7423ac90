/**
 * Newsletter subscribers by status (pending, confirmed, unsubscribed) and the suppression list
 * (hashes only, with their date and reason), one page at a time.
 */
import { and, desc, eq, lt, or, sql } from 'drizzle-orm';
import type { SubscriberPage, SuppressionPage } from '~/console/api';
import { newsletterSubscribers } from '~/features/newsletter/tables.server';
import type { Queryable } from '../kit/db/client';
import { suppressions } from '../kit/db/schema';
import { Refusal } from '../kit/http/request-checks';

const PAGE = 50;
const STATUSES = ['pending', 'confirmed', 'unsubscribed'] as const;

function cursorOf(value: unknown): { at: string; key: string } | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  const [at, key] = Buffer.from(value, 'base64url').toString('utf8').split('|');
  if (!at || !key || Number.isNaN(Date.parse(at)))
    throw new Refusal(400, { error: 'The page is not valid.' });
  return { at, key };
}
const cursor = (at: string, key: string) => Buffer.from(`${at}|${key}`).toString('base64url');

export async function subscriberPage(
  db: Queryable,
  status: unknown,
  after: unknown,
): Promise<SubscriberPage> {
  const wanted = status === undefined || status === '' ? 'confirmed' : status;
  if (!(STATUSES as readonly unknown[]).includes(wanted))
    throw new Refusal(400, { error: 'The status filter is not valid.' });
  const from = cursorOf(after);
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
    .where(
      and(
        eq(t.status, wanted as string),
        from
          ? or(
              lt(t.createdAt, sql`${from.at}::timestamptz`),
              and(eq(t.createdAt, sql`${from.at}::timestamptz`), lt(t.id, from.key)),
            )
          : undefined,
      ),
    )
    .orderBy(desc(t.createdAt), desc(t.id))
    .limit(PAGE + 1);
  const items = rows.slice(0, PAGE);
  const last = items[items.length - 1];
  return {
    items: items.map(({ at: _at, ...r }) => ({
      ...r,
      createdAt: r.createdAt.toISOString(),
      confirmedAt: r.confirmedAt ? r.confirmedAt.toISOString() : null,
      unsubscribedAt: r.unsubscribedAt ? r.unsubscribedAt.toISOString() : null,
    })),
    next: rows.length > PAGE && last ? cursor(last.at, last.id) : null,
  };
}

export async function suppressionPage(db: Queryable, after: unknown): Promise<SuppressionPage> {
  const from = cursorOf(after);
  const rows = await db
    .select({
      hash: suppressions.hash,
      reason: suppressions.reason,
      createdAt: suppressions.createdAt,
      at: sql<string>`${suppressions.createdAt}::text`,
    })
    .from(suppressions)
    .where(
      from
        ? or(
            lt(suppressions.createdAt, sql`${from.at}::timestamptz`),
            and(eq(suppressions.createdAt, sql`${from.at}::timestamptz`), lt(suppressions.hash, from.key)),
          )
        : undefined,
    )
    .orderBy(desc(suppressions.createdAt), desc(suppressions.hash))
    .limit(PAGE + 1);
  const items = rows.slice(0, PAGE);
  const last = items[items.length - 1];
  return {
    items: items.map((r) => ({ hash: r.hash, reason: r.reason, createdAt: r.createdAt.toISOString() })),
    next: rows.length > PAGE && last ? cursor(last.at, last.hash) : null,
  };
}
