/**
 * A masterclass's times as UK readers read them, whatever the reader's or the server's zone:
 * 'Thursday 10 July 2025', '19:00-20:30 BST'. Used by the card, the e-mails and the console.
 */
import { formatLongDate, ukClockOf, ukDateOf, ukLocalInput, ukOffsetMinutes } from '~/lib/uk-dates';

export { ukClockOf, ukDateOf, ukLocalInput };

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

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
