/**
 * The newsletter's area of the owner's console, as the console in the browser and the server
 * (newsletter-console.server.ts) agree on it: the subscribers by status, a page at a time, and
 * the confirmed ones as CSV for a mailing tool.
 */
import { choiceOf, pageCursor } from '~/contract/query';
import { route } from '~/contract/route';
import { UUID_PATTERN } from '~/lib/patterns';
import { z } from '~/lib/zod';

export const SUBSCRIBER_STATUSES = ['pending', 'confirmed', 'unsubscribed'] as const;
export type SubscriberStatus = (typeof SUBSCRIBER_STATUSES)[number];

/** GET /api/owner/subscribers?status=confirmed (default) | pending | unsubscribed &after= */
export type SubscriberSummary = {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  status: string;
  createdAt: string;
  confirmedAt: string | null;
  unsubscribedAt: string | null;
};
export type SubscriberPage = { items: SubscriberSummary[]; next: string | null };

export const subscriberRoutes = {
  /** Newest first, 50 a page. */
  list: route<SubscriberPage>()({
    method: 'GET',
    path: '/subscribers',
    query: z.object({
      status: choiceOf(SUBSCRIBER_STATUSES, 'The status filter is not valid.').transform(
        (status): SubscriberStatus => status ?? 'confirmed',
      ),
      after: pageCursor(UUID_PATTERN),
    }),
  }),
  /** The confirmed subscribers (CSV, the console's CSV rules). */
  export: route<never>()({ method: 'GET', path: '/exports/subscribers.csv', download: true }),
};
