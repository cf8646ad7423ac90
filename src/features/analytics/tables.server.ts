/**
 * The visit counts' tables (decision 042). Nothing here names a person: a visitor is a keyed
 * hash of the day's random salt, the client address and the user agent, unlinkable once that
 * salt is destroyed at the end of its UK day.
 *
 * - `analytics_salts`: the salt of the current UK day (one row; older rows are deleted as the
 *   day turns, and with them any way back from a hash to an address).
 * - `analytics_views`: the raw page views, one row each, kept `RETENTION.analyticsViewDays`.
 * - `analytics_form_starts`: a visitor starting a form (the fill-time token's first request),
 *   kept as long as the views.
 * - `analytics_days` and `analytics_daily`: the rollups, one row per UK day and per day,
 *   dimension and value, made once a day is over; what the dashboard and the weekly report read
 *   for every day but the current one. Kept `RETENTION.analyticsRollupMonths`.
 * - `analytics_months` and `analytics_monthly`: the same, summed per calendar month once every
 *   day of it is rolled up, so that a long range adds up months rather than days.
 * - `analytics_live_days` and `analytics_live`: today's figures so far, counted from the raw
 *   views at most once a minute and replaced whole each time (`live.server.ts`), with the hour
 *   as one more dimension for the "Today" chart.
 * - `analytics_settings`: the weekly report's switch; `analytics_reports`: the weeks whose
 *   report was queued (the mark that it is never sent twice).
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';

export const analyticsSalts = pgTable('analytics_salts', {
  /** The UK day the salt is for (YYYY-MM-DD). */
  day: date('day', { mode: 'string' }).primaryKey(),
  /** 32 random bytes, hex. */
  salt: text('salt').notNull(),
});

export const analyticsViews = pgTable(
  'analytics_views',
  {
    day: date('day', { mode: 'string' }).notNull(),
    /** The UK hour of the view, 0-23. */
    hour: smallint('hour').notNull(),
    /** The day's visitor: the first 8 bytes of the keyed hash, as a signed integer. */
    visitor: bigint('visitor', { mode: 'bigint' }).notNull(),
    path: text('path').notNull(),
    /** The referring site's host, '' for none (typed in, a bookmark, or this site). */
    referrer: text('referrer').notNull().default(''),
    utmSource: text('utm_source').notNull().default(''),
    utmMedium: text('utm_medium').notNull().default(''),
    utmCampaign: text('utm_campaign').notNull().default(''),
    /** desktop | mobile | tablet */
    device: text('device').notNull(),
  },
  (t) => [index('analytics_views_day').on(t.day, t.visitor)],
);

export const analyticsFormStarts = pgTable(
  'analytics_form_starts',
  {
    day: date('day', { mode: 'string' }).notNull(),
    formType: text('form_type').notNull(),
    visitor: bigint('visitor', { mode: 'bigint' }).notNull(),
  },
  (t) => [index('analytics_form_starts_day').on(t.day, t.formType)],
);

/** One row per UK day rolled up: the day's visitors and views (a visitor is a visitor of one day). */
export const analyticsDays = pgTable('analytics_days', {
  day: date('day', { mode: 'string' }).primaryKey(),
  visitors: integer('visitors').notNull(),
  views: integer('views').notNull(),
  rolledUpAt: timestamp('rolled_up_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The day's figures per dimension: `page` (path), `referrer`, `source`, `medium`, `campaign`
 * (each the visitor's first view of the day: its entry), `device`, `funnel` (the visitors of
 * the pages that hold a form, by form type) and `started` (visitors who started a form, by form
 * type). `value` is '' for none.
 */
export const analyticsDaily = pgTable(
  'analytics_daily',
  {
    day: date('day', { mode: 'string' }).notNull(),
    dimension: text('dimension').notNull(),
    value: text('value').notNull(),
    visitors: integer('visitors').notNull(),
    views: integer('views').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.day, t.dimension, t.value] }),
    index('analytics_daily_dimension').on(t.dimension, t.day),
  ],
);

/** One row (id 1): the console's switches for the counting. */
export const analyticsSettings = pgTable('analytics_settings', {
  id: smallint('id').primaryKey().default(1),
  weeklyReport: boolean('weekly_report').notNull().default(true),
  updatedAt: timestamp('updated_at', { withTimezone: true })
    .notNull()
    .default(sql`now()`),
});

/** The Monday (UK) of each week whose report was queued: never two for one week. */
export const analyticsReports = pgTable('analytics_reports', {
  week: date('week', { mode: 'string' }).primaryKey(),
  queuedAt: timestamp('queued_at', { withTimezone: true }).notNull().defaultNow(),
  /** The outbox row of the report ('' when nobody was to receive it). */
  outboxId: text('outbox_id').notNull().default(''),
});

/** One row per calendar month summed from its days' rollups (`month` is its first day). */
export const analyticsMonths = pgTable('analytics_months', {
  month: date('month', { mode: 'string' }).primaryKey(),
  visitors: integer('visitors').notNull(),
  views: integer('views').notNull(),
  rolledUpAt: timestamp('rolled_up_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A month's figures per dimension and value: the sum of its days' `analytics_daily` rows. */
export const analyticsMonthly = pgTable(
  'analytics_monthly',
  {
    month: date('month', { mode: 'string' }).notNull(),
    dimension: text('dimension').notNull(),
    value: text('value').notNull(),
    visitors: integer('visitors').notNull(),
    views: integer('views').notNull(),
  },
  (t) => [primaryKey({ columns: [t.month, t.dimension, t.value] })],
);

/** Today's totals so far, and when they were counted (one row: the current UK day's). */
export const analyticsLiveDays = pgTable('analytics_live_days', {
  day: date('day', { mode: 'string' }).primaryKey(),
  visitors: integer('visitors').notNull(),
  views: integer('views').notNull(),
  countedAt: timestamp('counted_at', { withTimezone: true }).notNull(),
});

/** Today's figures so far per dimension and value, as `analytics_daily`, plus `hour` ('00'-'23'). */
export const analyticsLive = pgTable(
  'analytics_live',
  {
    day: date('day', { mode: 'string' }).notNull(),
    dimension: text('dimension').notNull(),
    value: text('value').notNull(),
    visitors: integer('visitors').notNull(),
    views: integer('views').notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.dimension, t.value] })],
);
