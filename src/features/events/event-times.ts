/**
 * A masterclass's times as UK readers read them, whatever the reader's or the server's zone:
 * 'Thursday 10 July 2025', '19:00-20:30 BST'. Used by the card, the e-mails and the console.
 */
import { formatLongDate, partsInLondon, ukDateOf, ukOffsetMinutes } from '~/lib/uk-dates';

export { ukDateOf };

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const pad = (n: number | undefined) => String(n ?? 0).padStart(2, '0');

/** The UK wall-clock time of an instant, 'HH:MM'. */
export function ukClockOf(instant: Date): string {
  const p = partsInLondon(instant);
  return `${pad(p.hour)}:${pad(p.minute)}`;
}

/** 'YYYY-MM-DDTHH:MM' in UK time (what a datetime-local input shows). */
export function ukLocalInput(instant: Date): string {
  return `${ukDateOf(instant)}T${ukClockOf(instant)}`;
}

/** 'Thursday 10 July 2025'. */
export function ukDayLabel(instant: Date): string {
  const date = ukDateOf(instant);
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return `${WEEKDAYS[new Date(Date.UTC(y, m - 1, d)).getUTCDay()]} ${formatLongDate(date)}`;
}

/** 'BST' or 'GMT' at that instant. */
export function ukZoneName(instant: Date): string {
  return ukOffsetMinutes(instant) === 60 ? 'BST' : 'GMT';
}

/** '19:00-20:30 BST'. */
export function ukTimeRange(startsAt: Date, endsAt: Date): string {
  return `${ukClockOf(startsAt)}-${ukClockOf(endsAt)} ${ukZoneName(startsAt)}`;
}

/** 'Thursday 10 July 2025, 19:00-20:30 BST' (an event over two days names both). */
export function ukWhen(startsAt: Date, endsAt: Date): string {
  if (ukDateOf(startsAt) === ukDateOf(endsAt))
    return `${ukDayLabel(startsAt)}, ${ukTimeRange(startsAt, endsAt)}`;
  return `${ukDayLabel(startsAt)} ${ukClockOf(startsAt)} ${ukZoneName(startsAt)} to ${ukDayLabel(endsAt)} ${ukClockOf(endsAt)} ${ukZoneName(endsAt)}`;
}
