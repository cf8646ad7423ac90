/**
 * The owner's diary: every session and masterclass the site holds, as calendar entries. Each
 * feature that puts something in the owner's calendar declares a `DiarySource` in its own folder
 * (its entries, read from its own tables, with the UID and SEQUENCE of the invitations it sends),
 * and the composition root lists them (src/server/root/diary-sources.ts), as it lists the
 * features' personal data. Two things read it:
 * - the calendar subscription (src/server/console/diary.ts), decision 035;
 * - the owner's confirm and move of a session, refused when the time clashes with an entry still
 *   on (`clash`), unless the owner insists.
 */
import type { LondonFeedEntry, LondonTime } from '~/lib/ics';
import { addDays, ukDateOf, ukWallTimeToInstant } from '~/lib/uk-dates';
import type { Queryable } from './db/client';

/** How far back the diary reaches: last quarter's sessions stay, older ones leave the feed. */
export const DIARY_PAST_DAYS = 90;
/** Most entries one source gives: far above a one-person business's year, a bound on the feed's size. */
export const DIARY_MAX_ENTRIES = 2000;

export type DiaryQuery = {
  db: Queryable;
  /** PUBLIC_URL: the invitations' UIDs carry its host name. */
  publicUrl: string;
  /** The first UK date ('YYYY-MM-DD') the diary shows, and its first moment as an instant. */
  sinceDate: string;
  since: Date;
  /** The UK date the diary stops before, and its first moment; absent: no end. */
  untilDate?: string;
  until?: Date;
  /** The organiser the invitations name (the site's name and MAIL_FROM). */
  organizer: { name: string; email: string };
  /** The console's address of a record, for the entry's description (`inbox/<id>`). */
  consoleUrl(path: string): string;
};

/**
 * An entry of the diary: a calendar entry, and what the console calls it when it names a clash
 * ("booking BK-K7WC6H", 'the masterclass "Bitcoin for High Earners"'): no person's name, since the
 * audit log keeps it.
 */
export type DiaryEntry = LondonFeedEntry & {
  label: string;
  /** The console's page of its record, under /owner (`inbox/<id>`, `events/<id>`). */
  consolePath: string;
};

/**
 * The time of an entry still on: all the booking form's availability needs of it. `session`: a
 * strategy session, which counts against the owner's daily cap of sessions.
 */
export type DiaryTime = { start: LondonTime; end: LondonTime; session?: true };

/**
 * One feature's part of the owner's diary: its entries (oldest first, at most DIARY_MAX_ENTRIES),
 * and the times of those still on, read without the words the calendar shows (the booking form's
 * availability reads these on every visit, decision 036).
 */
export type DiarySource = {
  entries(query: DiaryQuery): Promise<DiaryEntry[]>;
  times(query: DiaryQuery): Promise<DiaryTime[]>;
};

/** A session's time: its UK date and its start and end, 'HH:MM'. */
export type Slot = { date: string; start: string; end: string };

export type Diary = {
  /** Every source's entries on the UK days from `sinceDate` to before `untilDate` (no end when absent). */
  entries(db: Queryable, sinceDate: string, untilDate?: string): Promise<DiaryEntry[]>;
  /** The times of every entry still on, on the UK days from `sinceDate` to before `untilDate`. */
  times(db: Queryable, sinceDate: string, untilDate: string): Promise<DiaryTime[]>;
  /** An entry still on (not cancelled) whose time overlaps `slot`, other than the one of `exceptUid`. */
  clash(db: Queryable, slot: Slot, exceptUid?: string): Promise<DiaryEntry | undefined>;
};

const instant = (t: LondonTime) => ukWallTimeToInstant(t.date, t.time).getTime();

export function createDiary(
  sources: readonly DiarySource[],
  context: Pick<DiaryQuery, 'publicUrl' | 'organizer' | 'consoleUrl'>,
): Diary {
  const queryOf = (db: Queryable, sinceDate: string, untilDate?: string): DiaryQuery => ({
    ...context,
    db,
    sinceDate,
    since: ukWallTimeToInstant(sinceDate, '00:00'),
    ...(untilDate ? { untilDate, until: ukWallTimeToInstant(untilDate, '00:00') } : {}),
  });
  const entries: Diary['entries'] = async (db, sinceDate, untilDate) => {
    const query = queryOf(db, sinceDate, untilDate);
    return (await Promise.all(sources.map((source) => source.entries(query)))).flat();
  };
  return {
    entries,
    async times(db, sinceDate, untilDate) {
      const query = queryOf(db, sinceDate, untilDate);
      return (await Promise.all(sources.map((source) => source.times(query)))).flat();
    },
    async clash(db, slot, exceptUid) {
      const from = instant({ date: slot.date, time: slot.start });
      const to = instant({ date: slot.date, time: slot.end });
      // The day before too: an evening masterclass may run past midnight.
      const near = await entries(db, addDays(slot.date, -1), addDays(slot.date, 1));
      return near.find(
        (entry) =>
          !entry.cancelled &&
          entry.uid !== exceptUid &&
          instant(entry.start) < to &&
          instant(entry.end) > from,
      );
    },
  };
}

/** The first UK day the feed shows at `now`: DIARY_PAST_DAYS ago. */
export function diaryStart(now: Date): string {
  return ukDateOf(new Date(now.getTime() - DIARY_PAST_DAYS * 86_400_000));
}
