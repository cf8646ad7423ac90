/**
 * What a form type is to the server. A feature exports one `FormHandler` from its
 * `*.server.ts` file and adds one line to the dispatch table
 * (`src/server/root/forms/dispatch-table.ts`); the endpoint does everything common (limits,
 * validation, spam traps, the submission row, consent, the transaction, the answer) and calls
 * `accept` inside the transaction for what is particular.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { ConsentVersion } from '~/content/consents';
import type { Db, Tx } from '../db/client';
import type { Config } from '../config';
import type { OutgoingEmail } from '../mail/outbox';
import type { Links } from './links';
import type { Diary } from '../diary';

export type RateLimitRule = {
  /** Most accepted attempts per client within the window. */
  max: number;
  windowMs: number;
};

/** What a handler can use, in the transaction that stores the submission. */
export type AcceptContext<T> = {
  /** The submission's own transaction: write the feature's rows here, nothing else commits separately. */
  tx: Tx;
  /** The parsed, cleaned fields (the output of the form's schema). */
  data: T;
  submissionId: string;
  receivedAt: Date;
  config: Config;
  links: Links;
  /** The owner's diary: what a requested or confirmed session's time must not clash with. */
  diary: Diary;
  /**
   * The owner released it from the spam folder: it was received earlier, and what a visitor's
   * request is refused for now (a half-day taken since) is the owner's to answer, not a refusal.
   */
  releasedByOwner?: boolean;
  /**
   * The requesting client: a keyed hash of its address (an IPv6 /64), as its rate limit counts
   * it. Absent for a submission the owner released from the spam folder.
   */
  clientKey?: string;
  /** Queues e-mails in this transaction; they are sent after it commits. Several are fine, attachments too. */
  sendEmail(...emails: OutgoingEmail[]): void;
};

/** What the server needs from the whole app, for handlers' extra routes. */
export type ServerContext = {
  config: Config;
  db: Db;
  links: Links;
  log: FastifyBaseLogger;
  /** Tells the outbox worker new rows were committed. */
  wakeOutbox(): void;
  /** The owner's diary: what a confirmed session's time must not clash with (../diary.ts). */
  diary: Diary;
};

/** What `compose` gets: everything `accept` gets except the transaction. */
export type ComposeContext<T> = Omit<AcceptContext<T>, 'tx'>;

type Outcome = Promise<Record<string, unknown> | void> | Record<string, unknown> | void;

export type FormHandler<S extends z.ZodType = z.ZodType> = {
  /** The same schema object the form uses in the browser. */
  schema: S;
  rateLimit: RateLimitRule;
  /** The consent the visitor ticked, if the form has a box: recorded with its exact wording. */
  consent?: (data: z.output<S>, body: Record<string, unknown>) => ConsentVersion | undefined;
  /**
   * Honour an `Idempotency-Key` request header: a repeat with the same key answers the first
   * response again and stores and sends nothing new.
   */
  idempotent?: boolean;
  /**
   * Writes the feature's own rows and queues its e-mails, in the submission's transaction.
   * Returns extra response fields (`{reference}`). Give `accept` or `compose`, not both.
   */
  accept?(ctx: AcceptContext<z.output<S>>): Outcome;
  /**
   * For a form with no rows of its own: queues its e-mails without a transaction, so the
   * submission, its consent and its e-mails are written in one statement (the fast path).
   */
  compose?(ctx: ComposeContext<z.output<S>>): Outcome;
  /** Extra response fields for a submission caught by a spam trap, so it still looks accepted. */
  spamResponse?: (submissionId: string) => Record<string, unknown>;
  /**
   * How the console reads a stored value in words, by field name (`consulting` -> `Consulting`):
   * the values of the form's choices. A field with none here is shown as it was sent.
   */
  words?: Readonly<Record<string, (value: string) => string>>;
  /** Routes of the feature's own (e.g. confirmation links), registered under the API's error handling. */
  routes?: (app: FastifyInstance, ctx: ServerContext) => void;
};

/** Keeps `accept`'s `data` typed by the schema while the table holds handlers of every type. */
export function defineFormHandler<S extends z.ZodType>(handler: FormHandler<S>): FormHandler<S> {
  return handler;
}
