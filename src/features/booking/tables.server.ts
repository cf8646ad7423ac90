/**
 * The booking's own tables. The visitor's details stay in the pipeline's `submissions` row (one
 * copy of personal data); a booking holds its reference, its choices and its state. Every
 * status change is a row of `booking_status_events`, and every e-mail link that was acted on
 * is a row of `booking_link_uses`, which is what makes a link single use.
 */
import { type SQL, sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
// Relative: drizzle-kit loads this file without the ~ alias.
import { submissions } from '../../server/kit/db/schema';
import type { BookingStatus } from './booking-link-api';

export const bookings = pgTable(
  'bookings',
  {
    id: uuid('id').primaryKey(),
    submissionId: uuid('submission_id')
      .notNull()
      .unique()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    /** BK-XXXXXX, shown to people. */
    reference: text('reference').notNull().unique(),
    status: text('status').$type<BookingStatus>().notNull().default('requested'),
    sessionType: text('session_type').notNull(),
    firstChoiceDate: date('first_choice_date', { mode: 'string' }).notNull(),
    firstChoiceTime: text('first_choice_time').notNull(),
    secondChoiceDate: date('second_choice_date', { mode: 'string' }),
    secondChoiceTime: text('second_choice_time'),
    /** Set on confirmation: which choice, and the 45-minute slot in UK wall-clock time. */
    confirmedChoice: integer('confirmed_choice'),
    sessionDate: date('session_date', { mode: 'string' }),
    sessionStart: text('session_start'),
    sessionEnd: text('session_end'),
    /** A Zoom session's meeting link, given when it was confirmed (its invitation's place). */
    meetingUrl: text('meeting_url'),
    /** iCalendar SEQUENCE of the last invite or cancellation sent. */
    calendarSequence: integer('calendar_sequence').notNull().default(0),
    /**
     * The applicant asked to move their confirmed session (their e-mail's reschedule link,
     * decision 039): the half-day asked for, and when. The session stays where it is until the
     * owner confirms the new time (then these are cleared) or keeps the current one.
     */
    moveDate: date('move_date', { mode: 'string' }),
    moveTime: text('move_time'),
    moveAskedAt: timestamp('move_asked_at', { withTimezone: true }),
    /**
     * Whether the request holds its first choice (decision 053): not when its e-mail address or
     * its client already holds one, when the open holds are at their ceiling, or once the owner
     * released it. A request that holds nothing still reaches the owner.
     */
    holds: boolean('holds').notNull().default(true),
    /** A keyed hash of the requesting client (its address, or its IPv6 /64): one hold per client. */
    clientKey: text('client_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('bookings_retention_day').on(bookingDay(t)),
    // The availability's reads: requests that hold their first choice, sessions by day.
    index('bookings_holds')
      .on(t.firstChoiceDate)
      .where(sql`status = 'requested'`),
    index('bookings_sessions')
      .on(t.sessionDate)
      .where(sql`status = 'confirmed'`),
    // A move asked for holds its half-day as a request does.
    index('bookings_move_holds')
      .on(t.moveDate)
      .where(sql`move_date is not null`),
  ],
);

/**
 * The day a booking's retention counts from (the privacy notice: 24 months after the session):
 * the session once confirmed, else the latest day it asked for. Indexed, so the daily job finds
 * the few that are due without reading every booking.
 */
export function bookingDay(t: {
  sessionDate: AnyPgColumn;
  firstChoiceDate: AnyPgColumn;
  secondChoiceDate: AnyPgColumn;
}): SQL {
  return sql`coalesce(${t.sessionDate}, greatest(${t.firstChoiceDate}, coalesce(${t.secondChoiceDate}, ${t.firstChoiceDate})))`;
}

export const bookingStatusEvents = pgTable(
  'booking_status_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    bookingId: uuid('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    /**
     * A status; or `rescheduled` when a confirmed session moved, `move-asked` when the applicant
     * asked to move it, `move-kept` when the owner kept the current time.
     */
    status: text('status').$type<BookingStatus | 'rescheduled' | 'move-asked' | 'move-kept'>().notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** Who or what made the change: 'applicant', 'owner'. */
    actor: text('actor').notNull(),
  },
  (t) => [index('booking_status_events_booking').on(t.bookingId, t.at)],
);

export const bookingLinkUses = pgTable(
  'booking_link_uses',
  {
    /** The random id inside the signed token. */
    tokenId: text('token_id').primaryKey(),
    bookingId: uuid('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    action: text('action').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // A booking's link uses, read when it is erased or deleted (and by the key's own check then).
  (t) => [index('booking_link_uses_booking').on(t.bookingId)],
);

/**
 * The owner's availability (decision 036): one row, the settings of the console's Availability
 * page as AvailabilitySettingsSchema checks them. No row: the defaults.
 */
export const bookingAvailability = pgTable('booking_availability', {
  name: text('name').primaryKey(),
  settings: jsonb('settings').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The owner's own calendar (decision 037): the secret address they pasted (null: none), the
 * busy half-days of its last good copy (`YYYY-MM-DD morning|afternoon`, never an event's words),
 * and how the last fetches went: the console's warning and its one e-mail read them.
 */
export const bookingCalendarFeed = pgTable('booking_calendar_feed', {
  name: text('name').primaryKey(),
  url: text('url'),
  busy: jsonb('busy').$type<string[]>().notNull().default([]),
  events: integer('events').notNull().default(0),
  lastGoodAt: timestamp('last_good_at', { withTimezone: true }),
  lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
  lastError: text('last_error'),
  /** When the owner was e-mailed of the failure under way; cleared by the next good fetch. */
  warnedAt: timestamp('warned_at', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
