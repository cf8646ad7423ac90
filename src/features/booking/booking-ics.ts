/**
 * iCalendar (RFC 5545) invitations for a confirmed session and their cancellation. Times are
 * written in Europe/London with the zone's own VTIMEZONE, so a calendar anywhere shows the
 * session at the right moment on both sides of a clock change. The UID never changes for a
 * booking and SEQUENCE grows with each change, so a later message updates the same entry.
 */
import { buildLondonIcs } from '~/lib/ics';

export type IcsPerson = { name: string; email: string };

export type IcsEvent = {
  method: 'REQUEST' | 'CANCEL';
  uid: string;
  sequence: number;
  /** UK date 'YYYY-MM-DD' and UK wall-clock times 'HH:MM'. */
  date: string;
  start: string;
  end: string;
  summary: string;
  description: string;
  location: string;
  organizer: IcsPerson;
  attendee: IcsPerson;
  /** When this message was made. */
  stamp: Date;
  productId: string;
};

/** A strategy session's calendar message: the invite (`REQUEST`) or its cancellation (`CANCEL`), in UK time. */
export function buildSessionIcs(event: IcsEvent): string {
  const { date, start, end, attendee, ...rest } = event;
  return buildLondonIcs({
    ...rest,
    start: { date, time: start },
    end: { date, time: end },
    attendee: { ...attendee, partstat: 'NEEDS-ACTION' },
  });
}
