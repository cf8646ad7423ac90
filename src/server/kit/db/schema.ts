/**
 * The pipeline's tables: every submission, the consents given with it, and the outbox of
 * e-mails it produced. A feature with rows of its own keeps its tables in its folder
 * (`src/features/<name>/tables.server.ts`); drizzle.config.ts collects both into migrations.
 */
import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { EmailContent } from '../mail/layout';
import type { LeadState } from '~/contract/lead-states';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/**
 * ASCII punctuation, which the search index leaves out of the text it holds. pg_trgm splits words
 * at punctuation, so "j.tay" would be narrowed down by the trigrams of "tay" alone (every Taylor);
 * as "jtay" few rows share them. The search still matches the exact text it was given
 * (src/server/console/inbox.ts): this only narrows where it looks. One pattern for SQL and for
 * JavaScript regular expressions.
 */
export const SEARCH_PUNCTUATION = '[!-/:-@[-`{-~]';

/** The text the search index holds: `text` without its ASCII punctuation. */
export function searchKey(text: SQLWrapper): SQL {
  return sql`regexp_replace(${text}, ${sql.raw(`'${SEARCH_PUNCTUATION}'`)}, '', 'g')`;
}

/**
 * The UTC day a time falls on, the search index's second column (btree_gin): a search can then ask
 * the index for the rows holding a text since a given day, and fetch only those.
 */
export function utcDay(time: SQLWrapper): SQL {
  return sql`((${time} at time zone 'UTC')::date)`;
}

export const submissions = pgTable(
  'submissions',
  {
    id: uuid('id').primaryKey(),
    formType: text('form_type').notNull(),
    /** The validated fields, as the form's schema returned them. */
    fields: jsonb('fields').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    userAgent: text('user_agent'),
    /** HMAC-SHA256 of the client address under APP_SECRET: countable, never reversible. */
    ipHash: text('ip_hash'),
    spam: boolean('spam').notNull().default(false),
    spamReason: text('spam_reason'),
    /** Set when the client sent an Idempotency-Key to a form type that honours one. */
    idempotencyKey: text('idempotency_key'),
    /** The extra response fields, kept so a repeated idempotent request gets the same answer. */
    response: jsonb('response'),
    /**
     * SHA-256 of the request body an Idempotency-Key was first used with: the same key with
     * another body is refused (422) instead of answering another submission's id.
     */
    requestHash: text('request_hash'),
    /** When the owner released it from spam ("Not spam"): its e-mails were queued then, once. */
    releasedAt: timestamp('released_at', { withTimezone: true }),
    /**
     * Where the lead stands for the owner: 'new' until someone answers it ('replied', set by a reply
     * sent from the console) or puts it aside ('handled'). The inbox lists and filters by it. Null:
     * not a lead (a guide download, a newsletter sign-up, a masterclass registration arrive so,
     * `leadStateOnArrival`), until the owner replies to it from the console.
     */
    leadState: text('lead_state').$type<LeadState>(),
    /** The e-mail address the visitor typed, lower-cased: how a person's rows are found. */
    emailKey: text('email_key').generatedAlwaysAs(sql`lower(fields->>'email')`),
    /**
     * What the console's search looks in: names, e-mail address, company and message or notes,
     * lower-cased; a trigram index (pg_trgm) on its searchKey finds any part of it among a
     * million rows.
     */
    searchText: text('search_text').generatedAlwaysAs(
      sql`lower(coalesce(fields->>'firstName', '') || ' ' || coalesce(fields->>'lastName', '') || ' ' || coalesce(fields->>'email', '') || ' ' || coalesce(fields->>'company', '') || ' ' || coalesce(fields->>'message', '') || ' ' || coalesce(fields->>'notes', ''))`,
    ),
  },
  (t) => [
    uniqueIndex('submissions_idempotency_key').on(t.formType, t.idempotencyKey),
    // Newest first, in the order every console list reads (received_at desc, id desc, nulls first as
    // Postgres orders desc): all forms of a status by a partial index each, so a page of delivered
    // submissions never visits the spam rows (a third of the newest month's), and the planner, who
    // judges an index by how well its first column follows the table's order, sees that it does.
    // The first index serves the 'all' status, the export and the retention job's cut-offs.
    index('submissions_received_at').on(t.receivedAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('submissions_inbox')
      .on(t.receivedAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`not ${t.spam}`),
    index('submissions_spam')
      .on(t.receivedAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.spam}`),
    // The leads still to answer, newest first: few among many, so an index of their own.
    index('submissions_new_leads')
      .on(t.receivedAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`not ${t.spam} and ${t.leadState} = 'new'`),
    // One form's pages (keyset paging on received_at, id).
    index('submissions_inbox_form').on(
      t.formType,
      t.spam,
      t.receivedAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('submissions_search_key_day').using(
      'gin',
      sql`${searchKey(t.searchText)} gin_trgm_ops`,
      utcDay(t.receivedAt),
    ),
    index('submissions_email_key').on(t.emailKey),
  ],
);

/**
 * Submissions held as spam (`true`) or delivered (`false`), written as the partial indexes'
 * predicates are (`spam`, `not spam`), never as a parameter: the planner can then use those
 * indexes whatever plan it makes of the statement.
 */
export function spamIs(held: boolean): SQL {
  return held ? sql`${submissions.spam}` : sql`not ${submissions.spam}`;
}

export const consentRecords = pgTable(
  'consent_records',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    submissionId: uuid('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    /** Which consent and version, from src/content/consents.ts. */
    consentId: text('consent_id').notNull(),
    /** The exact wording shown to the visitor. */
    wording: text('wording').notNull(),
    givenAt: timestamp('given_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // A submission's consents (the console's detail, a person's data, erasure, retention).
  (t) => [index('consent_records_submission').on(t.submissionId)],
);

export type StoredMessage = {
  replyTo?: string;
  subject: string;
  /**
   * What the e-mail says, as the layout's blocks; the outbox worker renders its HTML and text
   * parts when it sends (decision 014). A row is a few hundred bytes instead of some 4 KB.
   */
  content: EmailContent;
  headers?: Record<string, string>;
  attachments?: { filename: string; contentType: string; content: string; encoding?: 'base64' | 'utf8' }[];
  /**
   * A visitor e-mail's scope under the per-recipient limit (e.g. a registration's id): e-mails of
   * one kind with different scopes are limited apart. Not rendered.
   */
  limitScope?: string;
  /**
   * Not sent after this time (ISO): a reminder that falls due while the server is down and is
   * claimed later than this is marked `skipped` instead of arriving late.
   */
  notAfter?: string;
};

/**
 * Who an outbox row is written to: `visitor` (an address typed into a form, limited), `owner`
 * (the console's people and what the owner's actions send), `subscriber` (a confirmed reader of a
 * mailing, neither limited as a visitor nor counted against visitors' cap).
 */
export type OutboxLane = 'mail' | 'bulk';

export type OutboxAudience = 'visitor' | 'owner' | 'subscriber';

/**
 * A mailing's row: its text is the shared body (`outbox_bodies`), rendered once for every
 * recipient, with the recipient's own values (an unsubscribe link) put in place of its marks.
 */
export type MailingMessage = Omit<StoredMessage, 'content' | 'attachments' | 'limitScope'> & {
  bodyId: string;
  /** Mark -> the recipient's value, replaced in both parts (HTML-escaped in the HTML). */
  fill: Record<string, string>;
};

/** The text of a mailing, rendered once and shared by its rows (decision 046). Not personal. */
export const outboxBodies = pgTable('outbox_bodies', {
  id: uuid('id').primaryKey(),
  html: text('html').notNull(),
  text: text('text').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const outbox = pgTable(
  'outbox',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    submissionId: uuid('submission_id').references(() => submissions.id, { onDelete: 'cascade' }),
    /** What the e-mail is, e.g. `contact.owner`: for logs and tests, never personal. */
    kind: text('kind').notNull(),
    toAddress: text('to_address').notNull(),
    /**
     * `visitor` for an e-mail a visitor's form sends to the address typed into it: limited to
     * one of each kind per recipient per day and counted against the hourly visitor-mail cap.
     * `owner` for everything else (e-mails to the owner, and those the owner's actions send).
     */
    audience: text('audience').$type<OutboxAudience>().notNull().default('owner'),
    message: jsonb('message').$type<StoredMessage | MailingMessage>().notNull(),
    /**
     * Which worker sends the row: `mail` (every e-mail a form or the owner's actions cause) or
     * `bulk` (a mailing such as a newsletter issue), sent by a worker of its own at its own rate,
     * so that a lead's e-mail never waits behind a campaign (decision 046).
     */
    lane: text('lane').$type<OutboxLane>().notNull().default('mail'),
    /** The mailing a `bulk` row belongs to (a newsletter issue's id): one row per recipient. */
    mailingId: uuid('mailing_id'),
    /**
     * A `bulk` row handed to the relay and not yet answered: set before the round is sent, cleared by
     * its outcome. Found set by a later claim, the row is in doubt and not sent again (decision 046).
     */
    handedAt: timestamp('handed_at', { withTimezone: true }),
    /**
     * pending -> sent | failed | skipped | suppressed | cancelled; a mailing's row may be `held`
     * (its mailing paused) and then pending again. A claimed row stays pending with its next attempt
     * pushed out (a lease). `skipped`: not sent because its recipient already had one of its
     * kind within the per-recipient window, or because its `notAfter` had passed (`last_error`
     * 'late'). `suppressed`: not sent because its recipient is on the suppression list
     * (unsubscribed or erased).
     */
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    /** An error code only (e.g. ECONNREFUSED, 451): SMTP replies can quote addresses. */
    lastError: text('last_error'),
    /** When the last send was tried (a success or a failure): the console's "last send failed". */
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    /** When retention removed the e-mail's text (RETENTION.emailBodyDays after sending); the record stays. */
    bodyRemovedAt: timestamp('body_removed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    // Each lane's worker claims its own due rows.
    index('outbox_lane_due')
      .on(t.lane, t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
    // A mailing reaches each recipient once, however often it is started (decision 046).
    uniqueIndex('outbox_mailing_recipient')
      .on(t.mailingId, sql`lower(${t.toAddress})`)
      .where(sql`${t.mailingId} is not null`),
    // A mailing's rows whose recipient retention has still to remove (decision 046).
    index('outbox_mailing_named')
      .on(t.createdAt)
      .where(sql`${t.mailingId} is not null and ${t.toAddress} not like 'removed-%'`),
    // The hourly visitor-mail cap counts what was sent in the last hour.
    index('outbox_visitor_sent')
      .on(t.sentAt)
      .where(sql`${t.audience} = 'visitor'`),
    // A person's e-mails, by address; and sent e-mails whose text retention has still to remove.
    index('outbox_to_address').on(sql`lower(${t.toAddress})`),
    index('outbox_submission').on(t.submissionId),
    index('outbox_bodies_kept')
      .on(t.sentAt)
      .where(sql`${t.status} = 'sent' and ${t.bodyRemovedAt} is null`),
    index('outbox_unsent_bodies_kept')
      .on(t.createdAt)
      .where(
        sql`${t.status} in ('failed', 'skipped', 'suppressed', 'cancelled') and ${t.bodyRemovedAt} is null`,
      ),
    // The e-mails that failed for good, by when: the owner's alerts read the newest.
    index('outbox_failed_at')
      .on(t.lastAttemptAt)
      .where(sql`${t.status} = 'failed'`),
  ],
);

/**
 * "At most one per window" marks: the per-recipient limit of visitor e-mails (key: kind and a
 * keyed hash of the address, never the address) and the owner's once-an-hour alerts. A mark is
 * taken with one atomic upsert, so two instances can never both take it.
 */
export const mailThrottle = pgTable('mail_throttle', {
  key: text('key').primaryKey(),
  lastAt: timestamp('last_at', { withTimezone: true }).notNull().defaultNow(),
  /** The outbox row that took the mark: its own retries still pass while the window runs. */
  holder: bigint('holder', { mode: 'number' }),
});

/**
 * Single-use signed tokens that have been used (their random id), kept until they expire:
 * what makes a link work once (src/server/kit/http/signed-tokens.ts).
 */
export const usedTokens = pgTable(
  'used_tokens',
  {
    tokenId: text('token_id').primaryKey(),
    purpose: text('purpose').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('used_tokens_expires_at').on(t.expiresAt)],
);

/**
 * Addresses that must never be written to again (unsubscribed, erased), kept only as a keyed
 * hash (HMAC-SHA256 under APP_SECRET of the lower-cased address): the outbox checks every
 * recipient against it before sending.
 */
export const suppressions = pgTable('suppressions', {
  hash: text('hash').primaryKey(),
  /** 'unsubscribed', 'erased'. */
  reason: text('reason').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
