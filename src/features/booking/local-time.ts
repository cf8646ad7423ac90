/**
 * A UK half-day in the visitor's own time zone, for a browser set to another zone (decision 036):
 * 'Tue 4:00 am to 7:00 am EST'. Undefined where the browser keeps UK time at that moment.
 */
import { ukOffsetMinutes, ukWallTimeToInstant } from '~/lib/uk-dates';

export function localTimeOf(date: string, window: { start: string; end: string }): string | undefined {
  const start = ukWallTimeToInstant(date, window.start);
  const end = ukWallTimeToInstant(date, window.end);
  if (
    -start.getTimezoneOffset() === ukOffsetMinutes(start) &&
    -end.getTimezoneOffset() === ukOffsetMinutes(end)
  )
    return undefined;
  const day = new Intl.DateTimeFormat('en-GB', {
    weekday: 'short',
    hour: 'numeric',
    minute: '2-digit',
    hour12: true,
  });
  const time = new Intl.DateTimeFormat('en-GB', {
    hour: 'numeric',
    minute: '2-digit',
    hour12: true,
    timeZoneName: 'short',
  });
  return `${day.format(start)} to ${time.format(end)}`;
}
