/**
 * Dates and times of the booking flow, always in UK time whatever the visitor's or the
 * server's own zone. Dates travel as 'YYYY-MM-DD' strings (what <input type="date"> gives),
 * start times as 'HH:MM' UK wall-clock time.
 */
import {
  BOOKING_HORIZON_DAYS,
  SESSION_MINUTES,
  SESSION_TIMES,
  START_STEP_MINUTES,
  sessionTimeLabels,
  sessionTimeWindows,
  type SessionTime,
} from '~/content/booking';
import {
  addDays,
  formatLongDate,
  isIsoDate,
  toUtcDate,
  ukDateOf,
  ukOffsetMinutes,
  ukWallTimeToInstant,
} from '~/lib/uk-dates';

export { addDays, isIsoDate, ukOffsetMinutes, ukWallTimeToInstant };

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** Today's date in the UK at `now`. */
export function ukToday(now: Date): string {
  return ukDateOf(now);
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

/** Every start time a session can have (and be moved to): the quarter hours of every window. */
export const SESSION_START_TIMES: readonly string[] = [...new Set(SESSION_TIMES.flatMap(startTimesFor))];

/** A start time as the console offers it: '09:15' -> '9:15am-10am'. */
export function startTimeOption(value: string): { value: string; label: string } {
  return { value, label: `${formatClock(value)}-${formatClock(addMinutesToClock(value, SESSION_MINUTES))}` };
}

/** The end of a UK day, as an instant: a link for a session on that day stays useful until then. */
export function endOfUkDay(date: string): Date {
  return ukWallTimeToInstant(addDays(date, 1), '00:00');
}
