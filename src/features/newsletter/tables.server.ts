/**
 * The newsletter's own table: one row per address. A sign-up is pending until the subscriber
 * follows the confirmation link (double opt-in); only confirmed rows count as subscribed.
 */
import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

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

/**
 * The newsletter's issues (decision 046): written in the console, sent once to the confirmed
 * subscribers of the moment sending begins. Their e-mails are outbox rows of the `bulk` lane whose
 * `mailing_id` is the issue's id, one per recipient.
 */
export const newsletterIssues = pgTable(
  'newsletter_issues',
  {
    id: uuid('id').primaryKey(),
    subject: text('subject').notNull(),
    preheader: text('preheader').notNull().default(''),
    /** Markdown. */
    body: text('body').notNull(),
    /** The article it was started from, if any. */
    articleSlug: text('article_slug'),
    /** draft | scheduled | sending | paused | sent | cancelled */
    status: text('status').notNull().default('draft'),
    scheduledFor: timestamp('scheduled_for', { withTimezone: true }),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** The rendered e-mail, stored once when sending began (outbox_bodies). */
    bodyId: uuid('body_id'),
    /** The last subscriber (by id) whose row is written: where writing the recipients goes on. */
    preparedThrough: uuid('prepared_through'),
    /** When every recipient was written. */
    preparedAt: timestamp('prepared_at', { withTimezone: true }),
    /** How many recipients were written, once they all were. */
    recipients: integer('recipients'),
    /**
     * Readers who unsubscribed while this was the last issue sent to them: a count only, kept when
     * retention removes the readers themselves.
     */
    unsubscribed: integer('unsubscribed').notNull().default(0),
    /**
     * Its address on the site's archive, `/newsletter/<slug>` (made when it is first put on the
     * site, then kept); null until then.
     */
    archiveSlug: text('archive_slug').unique(),
    /** When it was put on the site's archive; null while it is not there (never, or taken off). */
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('newsletter_issues_due')
      .on(t.scheduledFor)
      .where(sql`${t.status} = 'scheduled'`),
  ],
);
