/**
 * Dates and times of the booking flow, always in UK time whatever the visitor's or the
 * server's own zone. Dates travel as 'YYYY-MM-DD' strings (what <input type="date"> gives),
 * start times as 'HH:MM' UK wall-clock time.
 */
import {
  BOOKING_HORIZON_DAYS,
  SESSION_MINUTES,
  START_STEP_MINUTES,
  sessionTimeLabels,
  sessionTimeWindows,
  type SessionTime,
} from '~/content/booking';
import { formatLongDate } from '~/lib/uk-dates';

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

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

function toUtcDate(iso: string): Date {
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

function partsInLondon(instant: Date): Record<string, number> {
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

/** Today's date in the UK at `now`. */
export function ukToday(now: Date): string {
  const p = partsInLondon(now);
  return `${String(p.year).padStart(4, '0')}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
}

/** The earliest date a visitor may ask for: tomorrow, UK time. */
export function earliestBookableDate(now: Date): string {
  return addDays(ukToday(now), 1);
}

export function latestBookableDate(now: Date): string {
  return addDays(ukToday(now), BOOKING_HORIZON_DAYS);
}

/** 'Tuesday 3 March 2026' */
export function formatUkDate(iso: string): string {
  const d = toUtcDate(iso);
  return `${WEEKDAYS[d.getUTCDay()]} ${formatLongDate(iso)}`;
}

/** 'Tuesday 3 March 2026, morning 9am-12pm UK time' */
export function formatChoice(date: string, time: SessionTime): string {
  return `${formatUkDate(date)}, ${time} ${sessionTimeLabels[time]} UK time`;
}

/** '09:15' -> '9:15am', '13:00' -> '1pm' */
export function formatClock(hhmm: string): string {
  const [h, m] = hhmm.split(':').map(Number) as [number, number];
  const suffix = h < 12 ? 'am' : 'pm';
  const hour12 = h % 12 === 0 ? 12 : h % 12;
  return m === 0 ? `${hour12}${suffix}` : `${hour12}:${String(m).padStart(2, '0')}${suffix}`;
}

function minutesOf(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number) as [number, number];
  return h * 60 + m;
}

function clockOf(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** The start times that keep a 45-minute session inside the window: 09:00 ... 11:15 for the morning. */
export function startTimesFor(time: SessionTime): string[] {
  const { start, end } = sessionTimeWindows[time];
  const out: string[] = [];
  for (let t = minutesOf(start); t + SESSION_MINUTES <= minutesOf(end); t += START_STEP_MINUTES)
    out.push(clockOf(t));
  return out;
}

export function addMinutesToClock(hhmm: string, minutes: number): string {
  return clockOf(minutesOf(hhmm) + minutes);
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

/** The end of a UK day, as an instant: a link for a session on that day stays useful until then. */
export function endOfUkDay(date: string): Date {
  return ukWallTimeToInstant(addDays(date, 1), '00:00');
}
