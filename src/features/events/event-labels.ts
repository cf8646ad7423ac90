/**
 * The few labels of a masterclass the public pages need beyond `event-times.ts`: one instant in
 * words, and the name a downloaded calendar file is saved under. All in UK time.
 */
import { ukClockOf, ukDateOf, ukDayLabel, ukZoneName } from './event-times';

/** "2026-12-01T09:00:00Z" -> "Tuesday 1 December 2026 at 09:00 GMT". */
export function ukInstantLabel(iso: string): string {
  const instant = new Date(iso);
  return `${ukDayLabel(instant)} at ${ukClockOf(instant)} ${ukZoneName(instant)}`;
}

/** "masterclass-2025-07-10.ics", by the masterclass's UK date. */
export function calendarFileName(startsAt: string): string {
  return `masterclass-${ukDateOf(new Date(startsAt))}.ics`;
}
