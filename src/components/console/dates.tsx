/** Moments in UK time, as the console writes them. */
import { consoleCopy } from '~/content/console';

const dateTimeFormat = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/** A moment in UK time ("3 Jun 2025, 14:05"). */
export function formatDateTime(iso: string): string {
  return dateTimeFormat.format(new Date(iso));
}

export function DateTime({ iso }: { iso: string | null }) {
  if (!iso) return <>{consoleCopy.none}</>;
  return <time dateTime={iso}>{formatDateTime(iso)}</time>;
}
