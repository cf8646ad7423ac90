/**
 * RFC 5545 building blocks shared by every calendar file the site makes: the booking invites
 * (features/booking) and the masterclasses' files (features/events).
 */
import { UK_TIME_ZONE } from '~/content/booking';

/** TEXT values (RFC 5545 3.3.11): backslash, semicolon, comma and newlines escaped. */
export function escapeText(value: string): string {
  return (
    value
      .replace(/\r\n?/g, '\n')
      .replace(/\\/g, '\\\\')
      .replace(/;/g, '\\;')
      .replace(/,/g, '\\,')
      .replace(/\n/g, '\\n')
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '')
  );
}

/** Lines longer than 75 octets are folded (RFC 5545 3.1) without splitting a UTF-8 character. */
export function foldLine(line: string): string {
  const encoder = new TextEncoder();
  if (encoder.encode(line).length <= 75) return line;
  const out: string[] = [];
  let current = '';
  let bytes = 0;
  for (const ch of line) {
    const size = encoder.encode(ch).length;
    // Continuation lines start with a space, which counts towards their 75 octets.
    const limit = out.length === 0 ? 75 : 74;
    if (bytes + size > limit) {
      out.push(current);
      current = '';
      bytes = 0;
    }
    current += ch;
    bytes += size;
  }
  out.push(current);
  return out.join('\r\n ');
}

/** An instant in the UTC form iCalendar uses: 20250710T180000Z. */
export function utcStamp(instant: Date): string {
  return instant
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

// Europe/London since 1996: BST from the last Sunday of March 01:00 GMT to the last Sunday of October.
const LONDON_VTIMEZONE = [
  'BEGIN:VTIMEZONE',
  `TZID:${UK_TIME_ZONE}`,
  'BEGIN:DAYLIGHT',
  'TZOFFSETFROM:+0000',
  'TZOFFSETTO:+0100',
  'TZNAME:BST',
  'DTSTART:19810329T010000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
  'END:DAYLIGHT',
  'BEGIN:STANDARD',
  'TZOFFSETFROM:+0100',
  'TZOFFSETTO:+0000',
  'TZNAME:GMT',
  'DTSTART:19961027T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
  'END:STANDARD',
  'END:VTIMEZONE',
];

/** A parameter value (CN=...): quoted, with the characters a quoted string cannot hold removed. */
function paramValue(value: string): string {
  // eslint-disable-next-line no-control-regex
  return `"${value.replace(/["\u0000-\u001f\u007f]/g, '')}"`;
}

function localDateTime(date: string, hhmm: string): string {
  return `${date.replace(/-/g, '')}T${hhmm.replace(':', '')}00`;
}

/** A UK wall-clock time: 'YYYY-MM-DD' and 'HH:MM'. */
export type LondonTime = { date: string; time: string };

export type LondonIcs = {
  method: 'PUBLISH' | 'REQUEST' | 'CANCEL';
  uid: string;
  sequence: number;
  start: LondonTime;
  end: LondonTime;
  summary: string;
  description: string;
  location: string;
  url?: string;
  organizer: { name: string; email: string };
  /** REQUEST and CANCEL: the person invited, and how their part stands in a REQUEST. */
  attendee?: { name: string; email: string; partstat: 'NEEDS-ACTION' | 'ACCEPTED' };
  /** When this message was made. */
  stamp: Date;
  productId: string;
};

/** One VEVENT in Europe/London; `cancelled` makes it STATUS:CANCELLED (its attendee declined, no alarm). */
function londonEventLines(event: Omit<LondonIcs, 'method' | 'productId'>, cancelled: boolean): string[] {
  return [
    'BEGIN:VEVENT',
    `UID:${event.uid}`,
    `SEQUENCE:${event.sequence}`,
    `DTSTAMP:${utcStamp(event.stamp)}`,
    `DTSTART;TZID=${UK_TIME_ZONE}:${localDateTime(event.start.date, event.start.time)}`,
    `DTEND;TZID=${UK_TIME_ZONE}:${localDateTime(event.end.date, event.end.time)}`,
    `SUMMARY:${escapeText(event.summary)}`,
    `DESCRIPTION:${escapeText(event.description)}`,
    `LOCATION:${escapeText(event.location)}`,
    ...(event.url ? [`URL:${event.url}`] : []),
    `ORGANIZER;CN=${paramValue(event.organizer.name)}:mailto:${event.organizer.email}`,
    ...(event.attendee
      ? [
          `ATTENDEE;CN=${paramValue(event.attendee.name)};ROLE=REQ-PARTICIPANT;PARTSTAT=${
            cancelled ? 'DECLINED' : event.attendee.partstat
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
  ];
}

/** A VCALENDAR of `events` with the London VTIMEZONE; `header` lines follow VERSION (METHOD, a name). */
function londonCalendar(productId: string, header: string[], events: string[][]): string {
  const lines = [
    'BEGIN:VCALENDAR',
    `PRODID:${productId}`,
    'VERSION:2.0',
    'CALSCALE:GREGORIAN',
    ...header,
    ...LONDON_VTIMEZONE,
    ...events.flat(),
    'END:VCALENDAR',
  ];
  return lines.map(foldLine).join('\r\n') + '\r\n';
}

/**
 * One event's calendar file in Europe/London, with the zone's own VTIMEZONE so a calendar
 * anywhere shows it at the right moment on both sides of a clock change. A later message with
 * the same UID and a higher SEQUENCE updates (or, with CANCEL, removes) the same entry.
 */
export function buildLondonIcs(event: LondonIcs): string {
  const { method, productId, ...rest } = event;
  return londonCalendar(productId, [`METHOD:${method}`], [londonEventLines(rest, method === 'CANCEL')]);
}

/** An entry of a calendar subscription: an event as a calendar file has it, and whether it is off. */
export type LondonFeedEntry = Omit<LondonIcs, 'method' | 'productId' | 'attendee'> & { cancelled: boolean };

/**
 * A calendar subscription (webcal) in Europe/London: no METHOD (RFC 5545: a published calendar,
 * not a message), the calendar's name, and one VEVENT per entry. An entry keeps the UID and
 * SEQUENCE of the invitations about it, so a calendar that has both shows one event, and a
 * cancelled one stays as STATUS:CANCELLED instead of vanishing.
 */
export function buildLondonFeed(feed: {
  productId: string;
  name: string;
  entries: readonly LondonFeedEntry[];
}): string {
  return londonCalendar(
    feed.productId,
    [`X-WR-CALNAME:${escapeText(feed.name)}`, `X-WR-TIMEZONE:${UK_TIME_ZONE}`],
    feed.entries.map(({ cancelled, ...entry }) => londonEventLines(entry, cancelled)),
  );
}
