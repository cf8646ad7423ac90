/**
 * The console's personal-data answers (People and Retention), shared by the console in the browser
 * and the server. Every kind of row a feature declares (src/server/kit/personal-data.ts) arrives as
 * one section, so a new kind of personal data needs no change here or on the People screen.
 */
import { EMAIL_PATTERN } from '~/lib/patterns';
import { z } from '~/lib/zod';
import { route } from './route';

const ADDRESS_REFUSED = 'Please enter a valid email address.';

/** One row held about a person, as the People screen lists it. */
export type PersonItem = {
  /** What the row is, in words ("BK-7Q2M4X (confirmed)"). */
  text: string;
  /** The time that dates it, if any (ISO). */
  at?: string | null;
  /** A short flag shown beside it ("Spam", "text removed"). */
  flag?: string;
  /** A submission of the inbox it opens. */
  submissionId?: string;
  /** Shown in a fixed-width font (a file name, an e-mail's kind). */
  code?: boolean;
};

export type PersonSection = {
  /** The declaration's key: `submissions`, `bookings`, `registrations`... */
  key: string;
  title: string;
  items: PersonItem[];
};

/** GET /api/owner/people?email= : everything held about one person, section by section. */
export type PersonView = {
  email: string;
  suppressed: boolean;
  /** Records held (the .eml files, copies of e-mails listed already, are not counted). */
  total: number;
  sections: PersonSection[];
  /**
   * Present when the address is one of the console's own (an owner's or a helper's): why it can
   * be neither erased nor suppressed. The screen shows it in place of "Erase".
   */
  cannotErase?: string;
};

/**
 * POST /api/owner/people/erase {email}: deletes it all, keeps a keyed hash on the suppression list.
 * `counts` by declaration key (and `emlFiles`, and what erasing caused, such as `promoted`);
 * `erased` the same counts in words, in the People screen's order.
 */
export type ErasureAnswer = {
  ok: true;
  counts: Record<string, number>;
  erased: { noun: string; count: number }[];
};

/**
 * GET /api/owner/retention: the periods the privacy notice states, the last runs, and the run under
 * way in any instance (its id) if any. POST /api/owner/retention/run starts a run and answers 202
 * `{ runId, started }` at once (`started` false: the run already under way).
 */
export type RetentionView = {
  /** One sentence a rule: what goes, and when. */
  periods: string[];
  /** What each count of a run is called. */
  countLabels: Record<string, string>;
  runs: {
    id: number;
    startedAt: string;
    finishedAt: string | null;
    /** Ended early (an error, or the server stopping); its counts are what it removed. */
    interrupted: boolean;
    counts: Record<string, number> | null;
  }[];
  running: number | null;
};

export type RetentionStarted = { ok: true; runId: number; started: boolean };

// --- Routes ----------------------------------------------------------------------------------------

/** The address a person is found by: trimmed and lower-cased. */
export const personAddress = z
  .string({ error: ADDRESS_REFUSED })
  .trim()
  .toLowerCase()
  .max(254, { error: ADDRESS_REFUSED })
  .regex(EMAIL_PATTERN, { error: ADDRESS_REFUSED });

const person = z.object({ email: personAddress });

export const peopleRoutes = {
  find: route<PersonView>()({ method: 'GET', path: '/people', query: person }),
  /** The subject access file (JSON). */
  export: route<never>()({ method: 'GET', path: '/people/export.json', query: person, download: true }),
  erase: route<ErasureAnswer>()({ method: 'POST', path: '/people/erase', body: person }),
};

export const retentionRoutes = {
  view: route<RetentionView>()({ method: 'GET', path: '/retention' }),
  /** Starts a run and answers at once (202); pressed again while one runs, answers that one. */
  run: route<RetentionStarted>()({ method: 'POST', path: '/retention/run', status: 202 }),
};
