/**
 * The newsletter's issues on the server (decision 046): drafts, their preview, what the console
 * shows of them, and pausing, resuming and cancelling one that goes out. Starting one and writing
 * its recipients is ./issue-sending.server.ts.
 */
import { randomUUID } from 'node:crypto';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { articlePath } from '~/content/articles';
import { newsletterIssuePath } from '~/content/routes';
import { ukLocalInput } from '~/lib/uk-dates';
import type { Db, Queryable } from '~/server/kit/db/client';
import type { Links } from '~/server/kit/http/links';
import { cancelMailing, holdMailing, mailingCounts, releaseMailing } from '~/server/kit/mail/mailing';
import { renderIssueEmail, fillUnsubscribe } from './issue-email.server';
import type {
  IssueDetail,
  IssueInput,
  IssuePreview,
  IssueProgress,
  IssueStatus,
  IssueSummary,
} from './issues-console-contract';
import { newsletterIssues } from './tables.server';

/** What the issues need of the server: its links and settings. */
export type IssueDeps = {
  db: Db;
  links: Links;
  publicUrl: string;
  /** The footer's postal address (NEWSLETTER_POSTAL_ADDRESS). */
  postalAddress: readonly string[];
  /** The business's name and office address (Business details), when NEWSLETTER_POSTAL_ADDRESS is not set. */
  businessAddress?: (db: Queryable) => Promise<readonly string[] | null>;
  /**
   * The mailto of a reader's List-Unsubscribe, when the bounce listener can receive it
   * (BOUNCE_DOMAIN); absent: the https address alone.
   */
  unsubscribeMailto?: (subscriberId: string) => string;
  /** Where "Send a test" goes: the console's own addresses. */
  testAddresses: readonly string[];
  wakeOutbox(): void;
};

/** Writes the owner's action to the audit log, in the action's own transaction. */
export type RecordAction = (tx: Queryable, detail?: Record<string, number>) => Promise<void>;

export const ISSUE_KIND = 'newsletter.issue';
export const ISSUE_TEST_KIND = 'newsletter.test';

/** Why an action was refused, as the console says it (409 unless said otherwise). */
export class IssueRefusal extends Error {
  constructor(
    message: string,
    readonly status: 400 | 404 | 409 = 409,
  ) {
    super(message);
  }
}

const NOT_FOUND = 'There is no such issue.';

type IssueRow = typeof newsletterIssues.$inferSelect;

export const EDITABLE: readonly IssueStatus[] = ['draft', 'scheduled'];

function iso(value: Date | null): string | null {
  return value ? value.toISOString() : null;
}

type Counts = Awaited<ReturnType<typeof mailingCounts>>;

function progressOf(issue: IssueRow, counts: Counts): IssueProgress | null {
  if (issue.startedAt === null) return null;
  const c = counts.get(issue.id)!;
  const rows = c.sent + c.waiting + c.failed + c.suppressed + c.cancelled;
  // Until every recipient is written, the rows written so far.
  return { recipients: issue.recipients ?? rows, ...c, unsubscribed: issue.unsubscribed };
}

function summaryOf(issue: IssueRow, counts: Counts): IssueSummary {
  return {
    id: issue.id,
    subject: issue.subject,
    status: issue.status as IssueStatus,
    scheduledFor: iso(issue.scheduledFor),
    startedAt: iso(issue.startedAt),
    finishedAt: iso(issue.finishedAt),
    createdAt: issue.createdAt.toISOString(),
    updatedAt: issue.updatedAt.toISOString(),
    progress: progressOf(issue, counts),
    sitePath: issue.archivedAt && issue.archiveSlug ? newsletterIssuePath(issue.archiveSlug) : null,
  };
}

export async function detailOf(db: Queryable, issue: IssueRow): Promise<IssueDetail> {
  return {
    ...summaryOf(issue, await mailingCounts(db, issue.startedAt ? [issue.id] : [])),
    preheader: issue.preheader,
    body: issue.body,
    articleSlug: issue.articleSlug,
    // Made here, so that the console's page does not carry the site's article paths.
    articlePath: issue.articleSlug ? articlePath(issue.articleSlug) : null,
    scheduledForLocal: issue.scheduledFor ? ukLocalInput(issue.scheduledFor) : null,
  };
}

export async function find(db: Queryable, id: string): Promise<IssueRow> {
  const [issue] = await db.select().from(newsletterIssues).where(eq(newsletterIssues.id, id));
  if (!issue) throw new IssueRefusal(NOT_FOUND, 404);
  return issue;
}

export async function listIssues(db: Queryable): Promise<IssueSummary[]> {
  const rows = await db
    .select()
    .from(newsletterIssues)
    .orderBy(desc(newsletterIssues.createdAt), desc(newsletterIssues.id))
    .limit(200);
  // One statement counts every issue's rows.
  const counts = await mailingCounts(
    db,
    rows.filter((row) => row.startedAt).map((row) => row.id),
  );
  return rows.map((row) => summaryOf(row, counts));
}

export async function issueDetail(db: Queryable, id: string): Promise<IssueDetail> {
  return detailOf(db, await find(db, id));
}

export async function createIssue(
  db: Db,
  input: IssueInput & { articleSlug?: string },
  record: (id: string) => RecordAction,
): Promise<IssueDetail> {
  const id = randomUUID();
  const issue = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(newsletterIssues)
      .values({
        id,
        subject: input.subject,
        preheader: input.preheader ?? '',
        body: input.body,
        articleSlug: input.articleSlug ?? null,
      })
      .returning();
    await record(id)(tx);
    return row!;
  });
  return detailOf(db, issue);
}

export async function updateIssue(
  db: Db,
  id: string,
  input: IssueInput,
  record: RecordAction,
): Promise<IssueDetail> {
  const issue = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(newsletterIssues)
      .set({
        subject: input.subject,
        preheader: input.preheader ?? '',
        body: input.body,
        updatedAt: sql`now()`,
      })
      .where(and(eq(newsletterIssues.id, id), inArray(newsletterIssues.status, [...EDITABLE])))
      .returning();
    if (row) await record(tx);
    return row;
  });
  if (!issue) {
    await find(db, id);
    throw new IssueRefusal('This issue has gone out (or is going out) and can no longer be changed.');
  }
  return detailOf(db, issue);
}

/**
 * The footer's address: NEWSLETTER_POSTAL_ADDRESS when it is set, otherwise the business's name and
 * office address as the owner set them (Business details), read with `db` (the caller's transaction).
 */
export async function footerOf(
  deps: Pick<IssueDeps, 'publicUrl' | 'postalAddress' | 'businessAddress' | 'db'>,
  db: Queryable = deps.db,
) {
  const postalAddress = deps.postalAddress.length
    ? deps.postalAddress
    : ((await deps.businessAddress?.(db)) ?? []);
  return { postalAddress, siteUrl: deps.publicUrl };
}

/** The issue's e-mail exactly as a subscriber receives it, with an example unsubscribe link. */
export async function previewIssue(deps: IssueDeps, id: string): Promise<IssuePreview> {
  const issue = await find(deps.db, id);
  const rendered = await renderIssueEmail(issue, await footerOf(deps));
  const example = deps.links.absolute('/newsletter/unsubscribe?token=example');
  return { subject: issue.subject, preheader: issue.preheader, ...fillUnsubscribe(rendered, example) };
}

/** Moves the issue from one status to another, or refuses with `refusal`. */
async function move(
  db: Db,
  id: string,
  from: readonly IssueStatus[],
  to: IssueStatus,
  refusal: string,
  record: RecordAction,
  then?: (tx: Queryable) => Promise<unknown>,
): Promise<IssueDetail> {
  const row = await db.transaction(async (tx) => {
    const [moved] = await tx
      .update(newsletterIssues)
      .set({
        status: to,
        updatedAt: sql`now()`,
        ...(to === 'draft' ? { scheduledFor: null } : {}),
        ...(to === 'cancelled' ? { finishedAt: sql`now()` } : {}),
      })
      .where(and(eq(newsletterIssues.id, id), inArray(newsletterIssues.status, [...from])))
      .returning();
    if (moved) {
      await then?.(tx);
      await record(tx);
    }
    return moved;
  });
  if (!row) {
    await find(db, id);
    throw new IssueRefusal(refusal);
  }
  return detailOf(db, row);
}

export const unscheduleIssue = (db: Db, id: string, record: RecordAction) =>
  move(db, id, ['scheduled'], 'draft', 'Only a scheduled issue can be unscheduled.', record);

/** Stops between messages: the rows not yet handed to the relay are held. */
export const pauseIssue = (db: Db, id: string, record: RecordAction) =>
  move(db, id, ['sending'], 'paused', 'Only an issue that is going out can be paused.', record, (tx) =>
    holdMailing(tx, id),
  );

export async function resumeIssue(deps: IssueDeps, id: string, record: RecordAction): Promise<IssueDetail> {
  const detail = await move(
    deps.db,
    id,
    ['paused'],
    'sending',
    'Only a paused issue can be resumed.',
    record,
    (tx) => releaseMailing(tx, id),
  );
  deps.wakeOutbox();
  return detail;
}

/** Nobody not yet sent the issue receives it. */
export const cancelIssue = (db: Db, id: string, record: RecordAction) =>
  move(
    db,
    id,
    ['scheduled', 'sending', 'paused'],
    'cancelled',
    'This issue can no longer be cancelled: it has gone out, or was cancelled already.',
    record,
    (tx) => cancelMailing(tx, id),
  );
