/**
 * The owner's diary: one calendar subscription (webcal) that shows, in the owner's own calendar,
 * every session and masterclass the site holds. Each feature that puts something in the owner's
 * calendar declares a `DiarySource` in its own folder (its entries, read from its own tables,
 * with the UID and SEQUENCE of the invitations it sends), and the composition root lists them
 * (src/server/root/diary-sources.ts), as it lists the features' personal data. The feed itself,
 * its secret address and the console's page are src/server/console/diary.ts.
 */
import type { LondonFeedEntry } from '~/lib/ics';
import type { Queryable } from './db/client';

/** How far back the diary reaches: last quarter's sessions stay, older ones leave the feed. */
export const DIARY_PAST_DAYS = 90;
/** Most entries one source gives: far above a one-person business's year, a bound on the feed's size. */
export const DIARY_MAX_ENTRIES = 2000;

export type DiaryQuery = {
  db: Queryable;
  /** PUBLIC_URL: the invitations' UIDs carry its host name. */
  publicUrl: string;
  /** The first UK date ('YYYY-MM-DD') the diary shows, and the same moment as an instant. */
  sinceDate: string;
  since: Date;
  /** The organiser the invitations name (the site's name and MAIL_FROM). */
  organizer: { name: string; email: string };
  /** The console's address of a record, for the entry's description (`/owner/...`). */
  consoleUrl(path: string): string;
};

/** One feature's entries in the owner's diary, oldest first, at most DIARY_MAX_ENTRIES. */
export type DiarySource = (query: DiaryQuery) => Promise<LondonFeedEntry[]>;
