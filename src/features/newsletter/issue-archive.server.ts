/**
 * The newsletter's archive on the site (issue #26 item 6): an issue that has been sent may be put
 * on the site at `/newsletter/<slug>`, listed at `/newsletter`, in the sitemap and in its own Atom
 * feed, rendered at publication and served from memory as the owner's articles are (decision 047).
 * Only the issue's own text goes there: a reader's personal links (unsubscribe) are added to each
 * e-mail when it is sent and are never part of it.
 *
 * Putting an issue on the site or taking it off raises the publication counter in the action's
 * transaction, with its audit row; the console's area then tells the site to render again.
 */
import { and, desc, eq, isNotNull, sql } from 'drizzle-orm';
import { titleSlug } from '~/lib/title-slug';
import { ukDateOf } from '~/lib/uk-dates';
import type { Db, Queryable } from '~/server/kit/db/client';
import { raisePublicationVersion } from '~/server/kit/publication';
import type { IssueDetail } from './issues-console-contract';
import { detailOf, find, IssueRefusal, type RecordAction } from './issues.server';
import { newsletterIssues } from './tables.server';

/** An issue on the site's archive, as its page is made from it. */
export type ArchivedIssueText = {
  slug: string;
  subject: string;
  preheader: string;
  /** The UK day it was sent, YYYY-MM-DD. */
  date: string;
  /** Its Markdown, as written. */
  body: string;
};

/** Puts a sent issue on the site; its address is made the first time and kept after. */
export async function putOnSite(db: Db, id: string, record: RecordAction): Promise<IssueDetail> {
  const row = await db.transaction(async (tx) => {
    const [issue] = await tx
      .select({ subject: newsletterIssues.subject, slug: newsletterIssues.archiveSlug })
      .from(newsletterIssues)
      .where(and(eq(newsletterIssues.id, id), eq(newsletterIssues.status, 'sent')))
      .for('update');
    if (!issue) return undefined;
    const [put] = await tx
      .update(newsletterIssues)
      .set({
        archiveSlug: issue.slug ?? titleSlug(issue.subject, id, 'issue'),
        archivedAt: sql`coalesce(${newsletterIssues.archivedAt}, now())`,
        updatedAt: sql`now()`,
      })
      .where(eq(newsletterIssues.id, id))
      .returning();
    await raisePublicationVersion(tx);
    await record(tx);
    return put;
  });
  if (!row) {
    await find(db, id);
    throw new IssueRefusal('Only an issue that has been sent can be put on the site.');
  }
  return detailOf(db, row);
}

/** Takes an issue off the site: its page and its line of the list are gone at the next render. */
export async function takeOffSite(db: Db, id: string, record: RecordAction): Promise<IssueDetail> {
  const row = await db.transaction(async (tx) => {
    const [taken] = await tx
      .update(newsletterIssues)
      .set({ archivedAt: null, updatedAt: sql`now()` })
      .where(and(eq(newsletterIssues.id, id), isNotNull(newsletterIssues.archivedAt)))
      .returning();
    if (!taken) return undefined;
    await raisePublicationVersion(tx);
    await record(tx);
    return taken;
  });
  if (!row) {
    await find(db, id);
    throw new IssueRefusal('This issue is not on the site.');
  }
  return detailOf(db, row);
}

/** The issues on the site, newest sent first: what the published pages are made from. */
export async function archivedIssueTexts(db: Queryable): Promise<ArchivedIssueText[]> {
  const rows = await db
    .select({
      slug: newsletterIssues.archiveSlug,
      subject: newsletterIssues.subject,
      preheader: newsletterIssues.preheader,
      // A sent issue has finished; its start stands in should a row lack the time.
      finishedAt: newsletterIssues.finishedAt,
      startedAt: newsletterIssues.startedAt,
      body: newsletterIssues.body,
    })
    .from(newsletterIssues)
    .where(and(isNotNull(newsletterIssues.archivedAt), eq(newsletterIssues.status, 'sent')))
    .orderBy(sql`${newsletterIssues.finishedAt} desc nulls last`, desc(newsletterIssues.id));
  return rows.map(({ slug, subject, preheader, finishedAt, startedAt, body }) => ({
    slug: slug!,
    subject,
    preheader,
    date: ukDateOf(finishedAt ?? startedAt ?? new Date()),
    body,
  }));
}
