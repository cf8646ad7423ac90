/**
 * A minimal RFC 5545 calendar writer for the site's events, used at build time. Times are
 * written in UTC (no VTIMEZONE needed); the calendar app shows them in the reader's zone.
 */
import { escapeText, foldLine, utcStamp } from '../src/lib/ics';

export type CalendarEvent = {
  uid: string;
  /** ISO 8601 with an offset or Z. */
  startsAt: string;
  endsAt: string;
  /** When the event details last changed: DTSTAMP, so the file is reproducible. */
  updatedAt: string;
  title: string;
  description: string;
  location: string;
  url: string;
  organizer: { name: string; email: string };
};

/** 2025-07-10T19:00:00+01:00 -> 20250710T180000Z */
export function icsUtc(iso: string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new Error(`Not a date: ${iso}`);
  return utcStamp(new Date(ms));
}

/** One public event as a `METHOD:PUBLISH` calendar file (the masterclass), times in UTC. */
export function buildPublishedEventIcs(event: CalendarEvent, prodId: string): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:${prodId}`,
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'BEGIN:VEVENT',
    `UID:${event.uid}`,
    `DTSTAMP:${icsUtc(event.updatedAt)}`,
    `DTSTART:${icsUtc(event.startsAt)}`,
    `DTEND:${icsUtc(event.endsAt)}`,
    `SUMMARY:${escapeText(event.title)}`,
    `DESCRIPTION:${escapeText(event.description)}`,
    `LOCATION:${escapeText(event.location)}`,
    `URL:${event.url}`,
    `ORGANIZER;CN="${event.organizer.name.replace(/"/g, '')}":mailto:${event.organizer.email}`,
    'STATUS:CONFIRMED',
    'TRANSP:OPAQUE',
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return lines.map(foldLine).join('\r\n') + '\r\n';
}
