/**
 * iCalendar (RFC 5545) files of a masterclass, in Europe/London with the zone's own VTIMEZONE:
 * - PUBLISH: the public '+ Calendar' file (no attendee, no joining link), UID of the event;
 * - REQUEST: an attendee's invitation, and every update of it (the same UID per registration and
 *   a higher SEQUENCE, so the calendar moves the entry it has);
 * - CANCEL: the event was cancelled (the same UID, a higher SEQUENCE).
 */
import { UK_TIME_ZONE } from '~/content/booking';
import { escapeText, foldLine, localDateTime, LONDON_VTIMEZONE, paramValue, utcStamp } from '~/lib/ics';
import { partsInLondon } from '~/lib/uk-dates';

export type EventIcs = {
  method: 'PUBLISH' | 'REQUEST' | 'CANCEL';
  uid: string;
  sequence: number;
  startsAt: Date;
  endsAt: Date;
  summary: string;
  description: string;
  location: string;
  url?: string;
  organizer: { name: string; email: string };
  /** REQUEST and CANCEL: the registered person. */
  attendee?: { name: string; email: string };
  stamp: Date;
  productId: string;
};

const pad = (n: number) => String(n).padStart(2, '0');

/** An instant as UK wall-clock date and time. */
function ukLocal(instant: Date): string {
  const p = partsInLondon(instant);
  return localDateTime(`${p.year}-${pad(p.month!)}-${pad(p.day!)}`, `${pad(p.hour!)}:${pad(p.minute!)}`);
}

export function buildEventIcs(event: EventIcs): string {
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
    `DTSTART;TZID=${UK_TIME_ZONE}:${ukLocal(event.startsAt)}`,
    `DTEND;TZID=${UK_TIME_ZONE}:${ukLocal(event.endsAt)}`,
    `SUMMARY:${escapeText(event.summary)}`,
    `DESCRIPTION:${escapeText(event.description)}`,
    `LOCATION:${escapeText(event.location)}`,
    ...(event.url ? [`URL:${event.url}`] : []),
    `ORGANIZER;CN=${paramValue(event.organizer.name)}:mailto:${event.organizer.email}`,
    ...(event.attendee
      ? [
          `ATTENDEE;CN=${paramValue(event.attendee.name)};ROLE=REQ-PARTICIPANT;PARTSTAT=${
            cancelled ? 'DECLINED' : 'ACCEPTED'
          };RSVP=FALSE:mailto:${event.attendee.email}`,
        ]
      : []),
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
