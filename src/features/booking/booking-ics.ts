/**
 * iCalendar (RFC 5545) invitations for a confirmed session and their cancellation. Times are
 * written in Europe/London with the zone's own VTIMEZONE, so a calendar anywhere shows the
 * session at the right moment on both sides of a clock change. The UID never changes for a
 * booking and SEQUENCE grows with each change, so a later message updates the same entry.
 */
import { UK_TIME_ZONE } from '~/content/booking';
import { escapeText, foldLine, localDateTime, LONDON_VTIMEZONE, paramValue, utcStamp } from '~/lib/ics';

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
  const cancelled = event.method === 'CANCEL';
  const lines = [
    'BEGIN:VCALENDAR',
    `PRODID:${event.productId}`,
    'VERSION:2.0',
    'CALSCALE:GREGORIAN',
    `METHOD:${event.method}`,
    ...LONDON_VTIMEZONE,
    'BEGIN:VEVENT',
    `UID:${event.uid}`,
    `SEQUENCE:${event.sequence}`,
    `DTSTAMP:${utcStamp(event.stamp)}`,
    `DTSTART;TZID=${UK_TIME_ZONE}:${localDateTime(event.date, event.start)}`,
    `DTEND;TZID=${UK_TIME_ZONE}:${localDateTime(event.date, event.end)}`,
    `SUMMARY:${escapeText(event.summary)}`,
    `DESCRIPTION:${escapeText(event.description)}`,
    `LOCATION:${escapeText(event.location)}`,
    `ORGANIZER;CN=${paramValue(event.organizer.name)}:mailto:${event.organizer.email}`,
    `ATTENDEE;CN=${paramValue(event.attendee.name)};ROLE=REQ-PARTICIPANT;PARTSTAT=${
      cancelled ? 'DECLINED' : 'NEEDS-ACTION'
    };RSVP=FALSE:mailto:${event.attendee.email}`,
    `STATUS:${cancelled ? 'CANCELLED' : 'CONFIRMED'}`,
    'TRANSP:OPAQUE',
    ...(cancelled
      ? []
      : [
          'BEGIN:VALARM',
          'ACTION:DISPLAY',
          `DESCRIPTION:${escapeText(event.summary)}`,
          'TRIGGER:-PT30M',
          'END:VALARM',
        ]),
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return lines.map(foldLine).join('\r\n') + '\r\n';
}
