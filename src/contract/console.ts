/**
 * The owner's console API: its paths and the shapes of its answers, shared by the console in
 * the browser (src/console) and the server that answers it (src/server/console). Every path is
 * under /api/owner/; every answer is JSON with `Cache-Control: no-store`; a request without a
 * live session is answered 401 `{error}`, a cross-site one 403 `{error}`.
 */
import { z } from '~/lib/zod';
import { choiceOf, pageCursor } from './query';
import type { ConsoleRole } from './roles';
import { route } from './route';
import type { LeadState } from './lead-states';
import type { LeadNote } from './leads';

export const OWNER_API = '/api/owner';

/** The forms whose submissions the console lists (the dispatch table's form types). */
export const FORM_TYPES = ['contact', 'booking', 'bitcoin_guide', 'newsletter', 'masterclass'] as const;
export type FormType = (typeof FORM_TYPES)[number];

export const formTypeLabels: Record<FormType, string> = {
  contact: 'Contact message',
  booking: 'Strategy session',
  bitcoin_guide: 'Guide download',
  newsletter: 'Newsletter',
  masterclass: 'Masterclass registration',
};

// --- Sign-in ---------------------------------------------------------------------------------

/** POST /api/owner/sign-in {email}: always 202 with this message, whoever asks (unless 429). */
export type SignInRequestAnswer = { message: string };
/** POST /api/owner/sign-in/link {token}: 200 {email} and the session cookie; 400/410 {error}. */
export type SignedIn = { email: string };

/** GET /api/owner/session */
export type SessionInfo = {
  email: string;
  /** The name the console gives the person (configured, or the address's local part). */
  name: string;
  /** What they may use (src/contract/roles.ts). */
  role: ConsoleRole;
  /** Sentences for a banner: configuration left at its default in production. */
  configWarnings: string[];
  passkeys: number;
};

// --- Passkeys (WebAuthn; options and responses are @simplewebauthn's JSON types) ---------------
export type PasskeyInfo = { id: string; name: string; createdAt: string; lastUsedAt: string | null };

// The routes of signing in, signing out and passkeys: src/contract/security.ts.

// --- Overview ----------------------------------------------------------------------------------

/** GET /api/owner/overview */
export type Overview = {
  /** New (non-spam) submissions since the start of today and of this week (Monday), UK time. */
  leads: { formType: FormType; today: number; week: number }[];
  bookingsAwaitingAnswer: number;
  spamHeld: number;
  /** Why mail is not really being delivered, as sentences; empty when all is well. */
  mailWarnings: string[];
  /** The owner's own calendar could not be read (decision 037): the error and the last good fetch. */
  calendarWarnings: string[];
  configWarnings: string[];
  /** The System page's warnings (backups, drill, disk: decision 057); the owner's alone. */
  systemWarnings: string[];
  /**
   * What the site needs set up and lacks: the business's own details (the site shows no contact
   * details until they are saved), the voice simulator's keys (its button would only fail).
   */
  setupWarnings: string[];
  /**
   * Published or scheduled articles whose figures are of a UK tax year before the current one
   * (decision 047): each to check, and its page in the console (`articles/<id>`).
   */
  datedArticles: { id: string; title: string; taxYear: string }[];
  /** The newest leads (not spam), newest first: at most LATEST_LEADS. */
  latestLeads: SubmissionSummary[];
  /** What comes next in the owner's diary (sessions, masterclasses), soonest first, within NEXT_UP_DAYS. */
  nextUp: NextUp[];
  /** Leads (not spam) in each of the last TREND_WEEKS UK weeks (from Monday), oldest first; the last is this week so far. */
  weeks: { start: string; count: number }[];
};

export const LATEST_LEADS = 5;
export const NEXT_UP_DAYS = 14;
export const NEXT_UP_MAX = 6;
export const TREND_WEEKS = 8;

/** A session or masterclass still on, as the overview lists it, with its console page. */
export type NextUp = {
  summary: string;
  start: { date: string; time: string };
  end: { date: string; time: string };
  /** Under /owner: `inbox/<id>` or `events/<id>`. */
  consolePath: string;
};

export const overviewRoutes = {
  view: route<Overview>()({ method: 'GET', path: '/overview', role: 'helper' }),
};

// --- Inbox -------------------------------------------------------------------------------------

export const SUBMISSION_STATUSES = ['received', 'spam'] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];

/**
 * GET /api/owner/submissions?form=&status=&from=&to=&q=&after=
 * - form: a FormType; status: received (default) | spam | all;
 * - from, to: UK dates YYYY-MM-DD (inclusive);
 * - q: searched in names, e-mail addresses, companies and messages (case-insensitive);
 * - after: the `next` cursor of the previous page. Newest first, 50 a page.
 */
export type SubmissionSummary = {
  id: string;
  formType: FormType;
  receivedAt: string;
  name: string;
  email: string;
  company: string | null;
  /** The first 140 characters of the message or notes, if any. */
  excerpt: string | null;
  spam: boolean;
  spamReason: string | null;
  /**
   * Where the lead stands: new until someone replies or puts it aside (src/contract/leads.ts);
   * null when it is no lead (a guide download, a sign-up, a registration: decision 054).
   */
  state: LeadState | null;
};
export type SubmissionPage = { items: SubmissionSummary[]; next: string | null };

/** GET /api/owner/submissions/:id */
export type SubmissionDetail = SubmissionSummary & {
  /**
   * Every field as the visitor sent it (validated), label and value, values as plain text in
   * words (`Consulting`, not `consulting`), in the order a person reads them (first name first).
   */
  fields: { name: string; value: string }[];
  /** The notes kept about it and the replies sent to it, oldest first. */
  notes: LeadNote[];
  consents: { consentId: string; wording: string; givenAt: string }[];
  emails: DeliverySummary[];
  /** Set when the submission was a booking request. */
  bookingId: string | null;
  releasedAt: string | null;
};

// POST /api/owner/submissions/:id/release    "Not spam": delivers it, exactly once -> {ok, emails}
// POST /api/owner/submissions/:id/delete     removes a spam submission             -> {ok}
// POST /api/owner/submissions/:id/mark-spam  moves a delivered one to spam         -> {ok}
export type ReleaseAnswer = { ok: true; emails: number };

export const spamReasonLabels: Record<string, string> = {
  honeypot: 'Filled a field hidden from people',
  'too-fast': 'Sent faster than a person can fill the form',
  owner: 'Marked as spam by the owner',
};

// --- Deliveries --------------------------------------------------------------------------------

export const DELIVERY_STATUSES = ['pending', 'failed', 'sent', 'skipped', 'suppressed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** GET /api/owner/deliveries?status=failed|pending|sent (default: failed and pending, and sent in the last 7 days) */
export type DeliverySummary = {
  id: number;
  kind: string;
  to: string;
  subject: string;
  status: DeliveryStatus;
  attempts: number;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
  submissionId: string | null;
  /** A waiting e-mail that goes later (a reminder, a retry): when; null when it goes now. */
  dueAt: string | null;
};
export type DeliveryList = { items: DeliverySummary[] };

export const deliveryRoutes = {
  list: route<DeliveryList>()({
    method: 'GET',
    path: '/deliveries',
    query: z.object({ status: choiceOf(DELIVERY_STATUSES, 'The status filter is not valid.') }),
  }),
  /** A failed e-mail, or one waiting to retry after an error, is sent again now (409 for any other). */
  retry: route<{ ok: true }>()({
    method: 'POST',
    path: '/deliveries/:id/retry',
    params: z.object({ id: z.coerce.number().int().positive() }),
    notFound: 'There is no such e-mail.',
  }),
};

// --- Audit log: src/contract/audit.ts ------------------------------------------------------

// --- Personal data (suppressions, exports, people, retention) ----------------------------------

/**
 * GET /api/owner/suppressions?after= : hashes only (never an address), newest first. `console`:
 * the hash of one of the console's own addresses, which the outbox writes to all the same (it
 * got there before such addresses were refused); lifting it tidies the list.
 */
export type SuppressionPage = {
  items: { hash: string; reason: string; createdAt: string; console?: true }[];
  next: string | null;
};

/** POST /api/owner/suppressions/lift {hash}: the address may be e-mailed again (audited). */
export type SuppressionLifted = { ok: true; reason: string };

/** A keyed hash as the list holds it: 43 base64url characters (HMAC-SHA256). */
const suppressionHashInput = z
  .string({ error: 'Name the hash of the suppression to lift.' })
  .regex(/^[A-Za-z0-9_-]{43}$/, { error: 'That is not a hash of the suppression list.' });

export const suppressionRoutes = {
  page: route<SuppressionPage>()({
    method: 'GET',
    path: '/suppressions',
    query: z.object({ after: pageCursor() }),
  }),
  lift: route<SuppressionLifted>()({
    method: 'POST',
    path: '/suppressions/lift',
    body: z.object({ hash: suppressionHashInput }),
  }),
};

// Downloads (GET, Content-Disposition: attachment; CSV per RFC 4180, UTF-8 with a BOM, formulas neutralised):
//   /api/owner/exports/submissions.csv?<the inbox's filters: form, status, from, to, q>
//   /api/owner/exports/subscribers.csv          the confirmed newsletter subscribers
//   /api/owner/people/export.json?email=        everything held about one person (subject access)

// The newsletter's subscribers: src/features/newsletter/newsletter-console-contract.ts.

// People and Retention: src/contract/people.ts.

// Masterclasses (events): src/features/events/events-console-contract.ts.
