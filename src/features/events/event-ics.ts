/**
 * iCalendar (RFC 5545) files of a masterclass, in Europe/London (`buildLondonIcs`):
 * - PUBLISH: the public '+ Calendar' file (no attendee, no joining link), UID of the event;
 * - REQUEST: an attendee's invitation, and every update of it (the same UID per registration and
 *   a higher SEQUENCE, so the calendar moves the entry it has);
 * - CANCEL: the event was cancelled (the same UID, a higher SEQUENCE).
 */
import { buildLondonIcs, type LondonIcs, type LondonTime } from '~/lib/ics';
import { ukClockOf, ukDateOf } from './event-times';

export type EventIcs = Omit<LondonIcs, 'start' | 'end' | 'attendee'> & {
  startsAt: Date;
  endsAt: Date;
  /** REQUEST and CANCEL: the registered person (who holds a place: ACCEPTED). */
  attendee?: { name: string; email: string };
};

/** An instant as the UK wall-clock date and time a calendar file names. */
export const london = (instant: Date): LondonTime => ({ date: ukDateOf(instant), time: ukClockOf(instant) });

export function buildEventIcs({ startsAt, endsAt, attendee, ...event }: EventIcs): string {
  return buildLondonIcs({
    ...event,
    start: london(startsAt),
    end: london(endsAt),
    attendee: attendee ? { ...attendee, partstat: 'ACCEPTED' } : undefined,
  });
}
