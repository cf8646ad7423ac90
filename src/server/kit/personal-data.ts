/**
 * What a feature that stores personal data declares about it, in its own folder: how to find one
 * person's rows, show and export them, erase them (and what erasing causes), and which rows the
 * daily retention run removes after which period. The composition root lists the declarations
 * (src/server/root/personal-data.ts); the console's People screen, the subject access file,
 * erasure and retention loop over that list and know no feature's tables.
 *
 * A person is found by the address they typed: `email` (trimmed, lower-cased) and the ids of the
 * submissions that hold it. Rows that belong to a submission are deleted with it by the database
 * (foreign keys `on delete cascade`), so most declarations erase nothing themselves.
 */
import { inArray, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { PersonItem } from '~/contract/people';
import type { RetentionPeriods } from '~/content/retention';
import type { Config } from './config';
import type { Db, Queryable, Tx } from './db/client';
import type { Links } from './http/links';

/** One person, as every declaration finds them. */
export type Person = {
  /** Trimmed and lower-cased. */
  email: string;
  /** Their submissions (`submissions.email_key = email`). */
  submissionIds: string[];
};

/** What an erasure's consequences may use: the server's settings, its links and the time. */
export type ErasureContext = { config: Config; links: Links; now: Date };

export type PersonRows<Row> = {
  /** The person's rows. Inside erasure's transaction: one statement at a time, on its connection. */
  find(q: Queryable, person: Person): Promise<Row[]>;
  /** A row as the People screen lists it. */
  show(row: Row): PersonItem;
  /** A row as the subject access file gives it (default: the row, every column). */
  export?(row: Row): unknown;
  /**
   * Locks taken before the person's rows are read, so a change under way (a cancellation link)
   * finishes first. Locks are taken in one order by every writer.
   */
  lock?(tx: Tx, person: Person): Promise<void>;
  /** Deletes the rows that do not go with their submission by cascade (default: nothing to do). */
  erase?(tx: Tx, person: Person, rows: Row[]): Promise<void>;
  /**
   * After every declaration has erased, in the same transaction: what erasing causes (a freed
   * masterclass place goes to the first on the waitlist). Answers counts by name.
   */
  afterErase?(tx: Tx, rows: Row[], ctx: ErasureContext): Promise<Record<string, number>>;
};

/** The clock and limits of one retention run, as a rule's statements need them. */
export type RetentionScope = {
  /** The run's time, as a timestamptz. */
  at: SQL;
  /** The run's day in UK time, as a date. */
  ukToday: SQL;
  periods: RetentionPeriods;
  /** Rows one statement may touch. */
  batchSize: number;
  /** Keys the suppression list's hashes. */
  secret: string;
  /** The console's own addresses (lower-cased): never put on the suppression list (decision 030). */
  consoleAddresses: readonly string[];
  /**
   * Deletes the submissions `pick` selects (a query of at most a batch of ids) with everything that
   * hangs off them, in one statement; answers how many went and the .eml files of their e-mails.
   */
  deleteSubmissions(q: Queryable, pick: SQL): Promise<{ deleted: number; files: string[] }>;
};

/**
 * One kind of row retention removes. `submissions`: a query of the ids of at most `batchSize` due
 * submissions, deleted with everything that hangs off them. `sweep`: one batch of its own work,
 * answering how many rows it handled and the .eml files to remove. Either is repeated until a
 * batch comes back short.
 */
export type RetentionRule = {
  /** The name its count has in a run's counts (several rules may add to one). */
  count: string;
  /** What the console's Retention screen and the privacy notice say of it. */
  describe(periods: RetentionPeriods): string;
} & (
  | { submissions(scope: RetentionScope): SQL }
  | { sweep(db: Db, scope: RetentionScope): Promise<{ count: number; files: string[] }> }
);

/** One feature's declaration. */
export type PersonalData<Row = never> = {
  /** The name of its rows in the People screen, the subject access file and erasure's counts. */
  key: string;
  /** The name of its rows in the subject access file, where it differs from `key`. */
  exportAs?: string;
  /** The People screen's heading for its rows. */
  title: string;
  /** Its rows, plural and lower-case, as erasure's answer names them ("newsletter records"). */
  noun: string;
  rows?: PersonRows<Row>;
  retention?: readonly RetentionRule[];
  /** What a run's count of each of its rules is called on the Retention screen. */
  countLabels?: Readonly<Record<string, string>>;
};

/**
 * The rows of `table` whose `column` names one of the person's submissions: how most declarations
 * find theirs.
 */
export async function rowsOfSubmissions<T extends PgTable>(
  q: Queryable,
  table: T,
  column: PgColumn,
  { submissionIds }: Person,
): Promise<T['$inferSelect'][]> {
  if (submissionIds.length === 0) return [];
  return (await q
    .select()
    .from(table as PgTable)
    .where(inArray(column, submissionIds))) as T['$inferSelect'][];
}

/**
 * Declares a feature's personal data; the identity, with the row type checked across the
 * declaration's functions.
 */
export function definePersonalData<Row>(declaration: PersonalData<Row>): PersonalData<Row> {
  return declaration;
}

/** The registry's entries, whatever their row types. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type PersonalDataRegistry = readonly PersonalData<any>[];
