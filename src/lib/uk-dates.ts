/** Dates as the site writes them for UK readers, independent of the reader's time zone. */
export const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/** "2025-06-01" -> "1 June 2025". */
export function formatLongDate(iso: string): string {
  const [year, month, day] = iso.split('-').map(Number);
  return `${day} ${MONTHS[(month ?? 1) - 1]} ${year}`;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date in 'YYYY-MM-DD' form (rejects 2026-02-30). */
export function isIsoDate(value: string): boolean {
  const m = ISO_DATE.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return (
    d.getUTCFullYear() === Number(m[1]) &&
    d.getUTCMonth() === Number(m[2]) - 1 &&
    d.getUTCDate() === Number(m[3])
  );
}

export function toUtcDate(iso: string): Date {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d));
}

export function addDays(iso: string, days: number): string {
  const d = toUtcDate(iso);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** 01:00 UTC on the last Sunday of the month (0-based) of `year`, as a timestamp. */
function lastSundayAtOneUtc(year: number, month: number): number {
  const d = new Date(Date.UTC(year, month + 1, 0, 1));
  d.setUTCDate(d.getUTCDate() - d.getUTCDay());
  return d.getTime();
}

/**
 * Minutes UK clocks are ahead of UTC at `instant`: 60 in British Summer Time (from 01:00 UTC on
 * the last Sunday of March to 01:00 UTC on the last Sunday of October, as the Summer Time Order
 * 2002 sets), 0 otherwise. Computed by the rule rather than with an Intl formatter for
 * Europe/London: making one costs some 100 ms of a phone's main thread on the booking page, and
 * a test checks the rule against the time-zone database year by year.
 */
export function ukOffsetMinutes(instant: Date): number {
  const t = instant.getTime();
  const year = instant.getUTCFullYear();
  return t >= lastSundayAtOneUtc(year, 2) && t < lastSundayAtOneUtc(year, 9) ? 60 : 0;
}

/** The UK calendar date of an instant, 'YYYY-MM-DD'. */
export function ukDateOf(instant: Date): string {
  const p = partsInLondon(instant);
  const pad = (n: number | undefined) => String(n ?? 0).padStart(2, '0');
  return `${String(p.year).padStart(4, '0')}-${pad(p.month)}-${pad(p.day)}`;
}

export function partsInLondon(instant: Date): Record<string, number> {
  const uk = new Date(instant.getTime() + ukOffsetMinutes(instant) * 60_000);
  return {
    year: uk.getUTCFullYear(),
    month: uk.getUTCMonth() + 1,
    day: uk.getUTCDate(),
    hour: uk.getUTCHours(),
    minute: uk.getUTCMinutes(),
    second: uk.getUTCSeconds(),
  };
}

/** The UK wall-clock time of an instant, 'HH:MM'. */
export function ukClockOf(instant: Date): string {
  const p = partsInLondon(instant);
  const pad = (n: number | undefined) => String(n ?? 0).padStart(2, '0');
  return `${pad(p.hour)}:${pad(p.minute)}`;
}

/** 'YYYY-MM-DDTHH:MM' in UK time (what a datetime-local input shows). */
export function ukLocalInput(instant: Date): string {
  return `${ukDateOf(instant)}T${ukClockOf(instant)}`;
}

/**
 * The instant at which UK clocks show `date` `hhmm`. Two passes settle the offset (GMT or
 * BST) even across a change; a wall time that does not exist (01:30 on the spring change)
 * lands an hour later, as clocks do. Sessions never start at such hours anyway.
 */
export function ukWallTimeToInstant(date: string, hhmm: string): Date {
  const [y, mo, d] = date.split('-').map(Number) as [number, number, number];
  const [h, mi] = hhmm.split(':').map(Number) as [number, number];
  const wanted = Date.UTC(y, mo - 1, d, h, mi);
  let guess = wanted;
  for (let i = 0; i < 2; i += 1) {
    const p = partsInLondon(new Date(guess));
    const shown = Date.UTC(
      p.year ?? 0,
      (p.month ?? 1) - 1,
      p.day ?? 1,
      p.hour ?? 0,
      p.minute ?? 0,
      p.second ?? 0,
    );
    guess += wanted - shown;
  }
  return new Date(guess);
}

/** The instant a UK calendar day begins: its midnight, GMT or BST. */
export function ukDayStart(date: string): Date {
  return ukWallTimeToInstant(date, '00:00');
}
