/**
 * The masterclasses' own tables. An event is the owner's (title, times, format, capacity,
 * registration window, state); a registration is a visitor's place or waitlist entry. The
 * visitor's details stay in the pipeline's `submissions` row (one copy of personal data): a
 * registration holds its event, its state, its order and a keyed hash of the address that keeps
 * one person to one live registration per event.
 */
import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
// Relative: drizzle-kit loads this file without the ~ alias.
import { submissions } from '../../server/kit/db/schema';

export const events = pgTable(
  'events',
  {
    id: uuid('id').primaryKey(),
    /**
     * Its page's address under /masterclasses/ (decision 047): made from the title and the id's
     * first characters when the event is created, and kept, so a shared link never breaks.
     */
    slug: text('slug').notNull().unique(),
    title: text('title').notNull(),
    summary: text('summary').notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    /** 'online' | 'in-person'. */
    mode: text('mode').$type<'online' | 'in-person'>().notNull(),
    /** In person: where. */
    place: text('place'),
    /** Online: the joining link, sent only to registered attendees, never shown on a page. */
    joinUrl: text('join_url'),
    capacity: integer('capacity').notNull(),
    /** Null: open from publication. */
    registrationOpensAt: timestamp('registration_opens_at', { withTimezone: true }),
    /** Null: closes at the start. */
    registrationClosesAt: timestamp('registration_closes_at', { withTimezone: true }),
    /** draft -> published -> cancelled. Drafts are never public. */
    status: text('status').$type<'draft' | 'published' | 'cancelled'>().notNull().default('draft'),
    /** iCalendar SEQUENCE of the last invitation, update or cancellation sent to attendees. */
    calendarSequence: integer('calendar_sequence').notNull().default(0),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // The public page's "next event": published or cancelled events that have not ended.
  (t) => [index('events_public').on(t.status, t.endsAt)],
);

export const eventRegistrations = pgTable(
  'event_registrations',
  {
    id: uuid('id').primaryKey(),
    /** Registration order: who was first on the waitlist. */
    seq: bigint('seq', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
    eventId: uuid('event_id')
      .notNull()
      .references(() => events.id),
    submissionId: uuid('submission_id')
      .notNull()
      .unique()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    /** Keyed hash (APP_SECRET) of the lower-cased address: one live registration a person an event. */
    personKey: text('person_key').notNull(),
    /** registered | waitlisted | cancelled */
    status: text('status').$type<'registered' | 'waitlisted' | 'cancelled'>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    promotedAt: timestamp('promoted_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('event_registrations_person')
      .on(t.eventId, t.personKey)
      .where(sql`${t.status} <> 'cancelled'`),
    index('event_registrations_event').on(t.eventId, t.status, t.seq),
  ],
);
