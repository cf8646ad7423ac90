/**
 * The console's own tables: the owner's sessions, passkeys and WebAuthn challenges, and the
 * audit log of every owner action. No table holds a secret in the clear: a session is found by
 * the SHA-256 of its cookie, a sign-in link is a signed token (src/server/kit/http/signed-tokens.ts).
 */
import { bigint, boolean, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { outbox, submissions } from '../kit/db/schema';

export const ownerSessions = pgTable(
  'owner_sessions',
  {
    /** SHA-256 (base64url) of the random cookie value: a stolen table opens no session. */
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    /** How it began: 'link', 'passkey'. */
    method: text('method').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Moved forward at most once a minute; the idle expiry counts from it. */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [index('owner_sessions_created_at').on(t.createdAt)],
);

export const ownerPasskeys = pgTable('owner_passkeys', {
  /** The credential id, base64url. */
  id: text('id').primaryKey(),
  email: text('email').notNull(),
  /** The COSE public key, base64url. */
  publicKey: text('public_key').notNull(),
  counter: bigint('counter', { mode: 'number' }).notNull().default(0),
  transports: jsonb('transports').$type<string[]>(),
  deviceType: text('device_type'),
  backedUp: boolean('backed_up').notNull().default(false),
  name: text('name').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
});

/** A WebAuthn challenge waiting for its answer: used once, valid five minutes. */
export const ownerChallenges = pgTable('owner_challenges', {
  id: text('id').primaryKey(),
  /** 'register' (with the session's owner) or 'authenticate'. */
  purpose: text('purpose').notNull(),
  challenge: text('challenge').notNull(),
  email: text('email'),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/** Every run of the daily retention job, with what it removed (counts only). */
export const retentionRuns = pgTable('retention_runs', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
  counts: jsonb('counts').$type<Record<string, number>>(),
  /** Ended before the end (an error, or the server stopping): its counts are what it removed. */
  interrupted: boolean('interrupted').notNull().default(false),
  /** The run's last sign of life while under way, so any instance can tell a run going on from one that died. */
  aliveAt: timestamp('alive_at', { withTimezone: true }),
});

/**
 * The newest sign-in link e-mailed to each owner address (by the keyed hash a link names it by):
 * a link e-mailed before it is refused, so asking again ends every older link still unused
 * (decision 031). A link made on the server's machine (`npm run owner:link`) is not e-mailed and
 * is not ended by one that is.
 */
export const ownerSignInLinks = pgTable('owner_sign_in_links', {
  ownerKey: text('owner_key').primaryKey(),
  tokenId: text('token_id').notNull(),
  sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The owner's diary's address (src/server/console/diary.ts): one row, the feed's current id. Its
 * address is a signed token naming this id; replacing the address gives a new id, and every
 * address made for an older one then answers 404.
 */
export const ownerDiary = pgTable('owner_diary', {
  /** Always 'diary': there is one feed. */
  name: text('name').primaryKey(),
  feedId: text('feed_id').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * What the owner and helpers wrote about a lead (src/server/console/leads.ts): a note kept for
 * themselves, or a reply e-mailed to the lead through the outbox (`outbox_id`, its delivery). The
 * rows go with their submission (cascade): they are the lead's personal data, found, exported and
 * erased with it (`leadNotesData`).
 */
export const leadNotes = pgTable(
  'lead_notes',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    submissionId: uuid('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    /** 'note' or 'reply'. */
    kind: text('kind').$type<'note' | 'reply'>().notNull(),
    /** The console address of who wrote it. */
    author: text('author').notNull(),
    /** A reply's subject; null for a note. */
    subject: text('subject'),
    body: text('body').notNull(),
    /** A reply's e-mail (its delivery is shown beside it); null for a note. */
    outboxId: bigint('outbox_id', { mode: 'number' }).references(() => outbox.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('lead_notes_submission').on(t.submissionId, t.createdAt),
    // An e-mail removed by retention sets its reply's outbox_id to null: found by this index.
    index('lead_notes_outbox').on(t.outboxId),
  ],
);

/**
 * The devices on which a console person switched on alerts (Web Push, src/server/console/push.ts):
 * the push service's address and the keys the browser gave for encrypting to it. Nothing here
 * opens a session; signing out everywhere leaves them (a device is removed on the Security page,
 * or when its push service says it is gone).
 */
export const ownerPushDevices = pgTable(
  'owner_push_devices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The console address whose device it is. */
    email: text('email').notNull(),
    /** The push service's address for this browser: unique, and a secret of the browser's. */
    endpoint: text('endpoint').notNull().unique(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    /** What the person called it, or the browser and system it said it was. */
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSentAt: timestamp('last_sent_at', { withTimezone: true }),
  },
  (t) => [index('owner_push_devices_email').on(t.email)],
);

/**
 * How far the alerts have been sent (one row, 'alerts'): the newest submission and failed e-mail
 * already announced. An instance claims a round by moving `claimed_until` forward in one update,
 * so two instances never announce one thing twice.
 */
export const ownerAlertCursor = pgTable('owner_alert_cursor', {
  name: text('name').primaryKey(),
  /** The last submission announced, by (received_at, id): one statement stores many at one time. */
  submissionsAfter: timestamp('submissions_after', { withTimezone: true }).notNull(),
  submissionsAfterId: uuid('submissions_after_id'),
  /** The last e-mail failure announced, by (last_attempt_at, id). */
  failuresAfter: timestamp('failures_after', { withTimezone: true }).notNull(),
  failuresAfterId: bigint('failures_after_id', { mode: 'number' }),
  /** The lease of the instance running a round; it releases only its own. */
  claimedUntil: timestamp('claimed_until', { withTimezone: true }),
});
