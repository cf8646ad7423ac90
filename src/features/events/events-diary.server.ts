/**
 * The masterclasses' entries in the owner's diary (src/server/kit/diary.ts): every published
 * masterclass, with the UID and SEQUENCE of its public calendar file; one cancelled after it was
 * published stays, cancelled. Drafts were never public and are not in the diary.
 */
import { and, asc, gte, inArray, isNotNull, lt } from 'drizzle-orm';
import { DIARY_MAX_ENTRIES, type DiarySource } from '~/server/kit/diary';
import { london } from './event-ics';
import { eventUid, whereText } from './events-emails.server';
import { events } from './tables.server';

export const eventsDiary: DiarySource = async ({ db, publicUrl, since, until, organizer, consoleUrl }) => {
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
  }));
};
