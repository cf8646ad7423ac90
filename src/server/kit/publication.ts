/**
 * The site's publication counter (decision 047): one row (id 1) of `site_publication`. Every
 * change to what the public site shows (an article published, the business's details saved)
 * raises `version` in the transaction of the change; each instance renders its published pages
 * again when it sees a new one. Here, below the features, so that each feature that publishes
 * raises the one counter. `articlesImportedAt` records the one import of the repository's articles.
 */
import { eq, sql } from 'drizzle-orm';
import { bigint, integer, pgTable, timestamp } from 'drizzle-orm/pg-core';
import type { Queryable } from './db/client';

export const sitePublication = pgTable('site_publication', {
  id: integer('id').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
  changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
  articlesImportedAt: timestamp('articles_imported_at', { withTimezone: true }),
});

/** The one row of site_publication. */
export const PUBLICATION = 1;

/** The publication counter (site_publication.version). */
export async function publicationVersion(db: Queryable): Promise<number> {
  const [row] = await db
    .select({ version: sitePublication.version })
    .from(sitePublication)
    .where(eq(sitePublication.id, PUBLICATION));
  return row?.version ?? 0;
}

/**
 * Raises the counter inside the caller's transaction. The row is made if a database somehow
 * lacks it (the migration inserts it).
 */
export async function raisePublicationVersion(tx: Queryable): Promise<void> {
  await tx
    .insert(sitePublication)
    .values({ id: PUBLICATION, version: 1 })
    .onConflictDoUpdate({
      target: sitePublication.id,
      set: { version: sql`${sitePublication.version} + 1`, changedAt: sql`now()` },
    });
}
