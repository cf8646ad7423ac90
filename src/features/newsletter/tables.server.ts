/**
 * The newsletter's own table: one row per address. A sign-up is pending until the subscriber
 * follows the confirmation link (double opt-in); only confirmed rows count as subscribed.
 */
import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const newsletterSubscribers = pgTable('newsletter_subscribers', {
  id: uuid('id').primaryKey(),
  /** Lower-cased, so one person is one row however they type it. */
  email: text('email').notNull().unique(),
  firstName: text('first_name').notNull(),
  lastName: text('last_name').notNull(),
  /** pending | confirmed | unsubscribed */
  status: text('status').notNull().default('pending'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  unsubscribedAt: timestamp('unsubscribed_at', { withTimezone: true }),
});
