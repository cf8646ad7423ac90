/**
 * The masterclasses' entries in the owner's diary (src/server/kit/diary.ts): every published
 * masterclass, with the UID and SEQUENCE of its public calendar file; one cancelled after it was
 * published stays, cancelled. Drafts were never public and are not in the diary.
 */
import { and, asc, eq, gte, inArray, isNotNull, lt } from 'drizzle-orm';
import { DIARY_MAX_ENTRIES, type DiaryEntry, type DiaryQuery, type DiarySource } from '~/server/kit/diary';
import { london } from './event-ics';
import { eventUid, whereText } from './events-emails.server';
import { events } from './tables.server';

async function entries({
  db,
  publicUrl,
  since,
  until,
  organizer,
  consoleUrl,
}: DiaryQuery): Promise<DiaryEntry[]> {
  const rows = await db
    .select()
    .from(events)
    .where(
      and(
        inArray(events.status, ['published', 'cancelled']),
        isNotNull(events.publishedAt),
        gte(events.endsAt, since),
        until ? lt(events.startsAt, until) : undefined,
      ),
    )
    .orderBy(asc(events.startsAt))
    .limit(DIARY_MAX_ENTRIES);
  return rows.map((event) => ({
    uid: eventUid(event.id, publicUrl),
    sequence: event.calendarSequence,
    stamp: event.updatedAt,
    start: london(event.startsAt),
    end: london(event.endsAt),
    summary: `Masterclass: ${event.title}`,
    description: `${event.summary}\n\nIn the console: ${consoleUrl(`events/${event.id}`)}`,
    location: whereText(event),
    organizer,
    cancelled: event.status === 'cancelled',
    label: `the masterclass “${event.title}”`,
    consolePath: `events/${event.id}`,
  }));
}

export const eventsDiary: DiarySource = {
  entries,
  // Published masterclasses' times alone.
  async times({ db, since, until }) {
    const rows = await db
      .select({ startsAt: events.startsAt, endsAt: events.endsAt })
      .from(events)
      .where(
        and(
          eq(events.status, 'published'),
          isNotNull(events.publishedAt),
          gte(events.endsAt, since),
          until ? lt(events.startsAt, until) : undefined,
        ),
      )
      .limit(DIARY_MAX_ENTRIES);
    return rows.map((event) => ({ start: london(event.startsAt), end: london(event.endsAt) }));
  },
};
