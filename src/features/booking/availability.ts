/**
 * The owner's availability and the half-days it leaves free (decision 036). Pure: the server
 * reads the settings, the holds and the busy times (availability.server.ts) and this module says,
 * for each UK date, whether its morning and its afternoon are free. The same rules answer the
 * public availability the wizard shows and refuse a request whose half-day was taken meanwhile.
 *
 * A half-day is
 * - `closed` when the weekly hours close it, or its date is a day off, a bank holiday of England
 *   and Wales the owner has not opened, inside the minimum notice or beyond the booking window;
 * - `full` when the day has as many sessions (confirmed or held) as the daily cap, when a request
 *   holds it, or when a busy time (a confirmed session, a masterclass, the owner's own calendar) overlaps it;
 * - else `free`.
 * Times are UK wall-clock times: a half-day's instants take the UK offset of its date, so the weeks
 * of the clock changes keep 9am at 9am.
 */
import { BOOKING_HORIZON_DAYS, SESSION_TIMES, sessionTimeWindows, type SessionTime } from '~/content/booking';
import { addDays, isIsoDate, toUtcDate, ukDateOf, ukOffsetMinutes } from '~/lib/uk-dates';

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export type OpenHalves = { morning: boolean; afternoon: boolean };

export const AVAILABILITY_LIMITS = {
  daysOff: 200,
  note: 200,
  /** The longest range one day-off entry may cover (a sabbatical, not a typo of a year). */
  rangeDays: 366,
  openHolidays: 100,
  noticeDays: 30,
  dailyCap: 8,
} as const;

/** What the owner sets on the console's Availability page (availability-settings.ts checks it). */
export type AvailabilitySettings = {
  weekly: Record<Weekday, OpenHalves>;
  daysOff: { from: string; to: string; note: string }[];
  /** Bank holidays the owner opened for sessions (every other one is closed). */
  openHolidays: string[];
  /** Working days of notice: 1 offers nothing before the next working day. */
  noticeDays: number;
  /** How far ahead a visitor may ask, in days from today. */
  windowDays: number;
  /** Most sessions (confirmed and requested) in one day. */
  dailyCap: number;
  /** The meeting link a Zoom session's confirmation offers, '' for none (decision 039). */
  meetingLink: string;
};

const WEEKDAY_HOURS: OpenHalves = { morning: true, afternoon: true };
const CLOSED: OpenHalves = { morning: false, afternoon: false };

/** Monday to Friday, morning and afternoon; bank holidays closed; the next working day on; 12 months. */
export const DEFAULT_AVAILABILITY: AvailabilitySettings = {
  weekly: {
    mon: WEEKDAY_HOURS,
    tue: WEEKDAY_HOURS,
    wed: WEEKDAY_HOURS,
    thu: WEEKDAY_HOURS,
    fri: WEEKDAY_HOURS,
    sat: CLOSED,
    sun: CLOSED,
  },
  daysOff: [],
  openHolidays: [],
  noticeDays: 1,
  windowDays: BOOKING_HORIZON_DAYS,
  dailyCap: 2,
  meetingLink: '',
};

export type HalfDayState = 'free' | 'closed' | 'full';
export type DayAvailability = { date: string } & Record<SessionTime, HalfDayState>;

/** A busy time, as instants (ms): an entry of the owner's diary still on. */
export type BusyTime = { start: number; end: number };

export type AvailabilityInput = {
  settings: AvailabilitySettings;
  now: Date;
  /** Bank holidays of England and Wales (closed unless the settings open them). */
  bankHolidays: ReadonlySet<string>;
  /** Confirmed sessions and other diary entries still on. */
  busy: readonly BusyTime[];
  /** The dates of confirmed sessions, once each session (for the daily cap). */
  sessionDates: readonly string[];
  /** Requests that hold their first choice. */
  holds: readonly { date: string; time: SessionTime }[];
};

/** 'mon' ... 'sun' of a UK date. */
export function weekdayOf(date: string): Weekday {
  return WEEKDAYS[(toUtcDate(date).getUTCDay() + 6) % 7]!;
}

/** A day with open weekly hours that is no bank holiday: what the notice counts. */
function isWorkingDay(date: string, input: AvailabilityInput): boolean {
  const open = input.settings.weekly[weekdayOf(date)];
  return (open.morning || open.afternoon) && !input.bankHolidays.has(date);
}

/** The first date the notice allows: the noticeDays-th working day after today. */
export function firstBookableDate(input: AvailabilityInput): string {
  let date = ukDateOf(input.now);
  // Bounded: a week with no working day (every weekday closed) stops at the window's end.
  for (
    let counted = 0, guard = 0;
    counted < input.settings.noticeDays && guard <= BOOKING_HORIZON_DAYS;
    guard += 1
  ) {
    date = addDays(date, 1);
    if (isWorkingDay(date, input)) counted += 1;
  }
  return date;
}

export function lastBookableDate(input: Pick<AvailabilityInput, 'settings' | 'now'>): string {
  return addDays(ukDateOf(input.now), Math.min(input.settings.windowDays, BOOKING_HORIZON_DAYS));
}

const DAY_MS = 86_400_000;
const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
/** Each half-day's window as minutes after midnight. */
const WINDOWS = SESSION_TIMES.map((time) => ({
  time,
  start: minutesOf(sessionTimeWindows[time].start),
  end: minutesOf(sessionTimeWindows[time].end),
}));

/**
 * The availability of each UK date from `from` to `to` (both included). Dates advance as whole
 * UTC days, and a half-day's instants are its wall-clock minutes less the UK offset at the date's
 * noon: the clocks change at 01:00 UTC on a Sunday, so one offset holds from 9am to 5pm (the tests
 * set busy times with ukWallTimeToInstant in the weeks of both changes). Busy times are
 * searched by a sorted sweep, so a year of days against thousands of events stays linear.
 */
export function availabilityBetween(input: AvailabilityInput, from: string, to: string): DayAvailability[] {
  const { settings } = input;
  const first = firstBookableDate(input);
  const last = lastBookableDate(input);
  const opened = new Set(settings.openHolidays);
  const perDay = new Map<string, number>();
  for (const date of input.sessionDates) perDay.set(date, (perDay.get(date) ?? 0) + 1);
  const held = new Set<string>();
  for (const hold of input.holds) {
    perDay.set(hold.date, (perDay.get(hold.date) ?? 0) + 1);
    held.add(`${hold.date} ${hold.time}`);
  }
  const daysOff = [...settings.daysOff].sort((a, b) => a.from.localeCompare(b.from));
  const busy = [...input.busy].sort((a, b) => a.start - b.start);
  // Busy times sorted by start; `cursor` skips those that ended before the current half-day.
  let cursor = 0;
  const overlapsBusy = (start: number, end: number): boolean => {
    while (cursor < busy.length && busy[cursor]!.end <= start) cursor += 1;
    for (let i = cursor; i < busy.length && busy[i]!.start < end; i += 1) {
      if (busy[i]!.end > start) return true;
    }
    return false;
  };

  const days: DayAvailability[] = [];
  const end = toUtcDate(to).getTime();
  for (let midnight = toUtcDate(from).getTime(); midnight <= end; midnight += DAY_MS) {
    const day = new Date(midnight);
    const date = day.toISOString().slice(0, 10);
    const open = settings.weekly[WEEKDAYS[(day.getUTCDay() + 6) % 7]!];
    const closedDay =
      date < first ||
      date > last ||
      daysOff.some((d) => d.from <= date && date <= d.to) ||
      (input.bankHolidays.has(date) && !opened.has(date));
    const capped = (perDay.get(date) ?? 0) >= settings.dailyCap;
    const offset = ukOffsetMinutes(new Date(midnight + DAY_MS / 2)) * 60_000;
    const result = { date } as DayAvailability;
    for (const w of WINDOWS) {
      if (closedDay || !open[w.time]) result[w.time] = 'closed';
      else if (
        capped ||
        held.has(`${date} ${w.time}`) ||
        overlapsBusy(midnight + w.start * 60_000 - offset, midnight + w.end * 60_000 - offset)
      )
        result[w.time] = 'full';
      else result[w.time] = 'free';
    }
    days.push(result);
  }
  return days;
}

/** The days one public answer covers: the wizard asks for the next page as the visitor looks ahead. */
export const AVAILABILITY_PAGE_DAYS = 92;

/** The public answer's letters: one per half-day, morning then afternoon, from the first date on. */
const LETTER: Record<HalfDayState, string> = { free: 'f', closed: 'c', full: 'b' };
const STATE: Record<string, HalfDayState> = { f: 'free', c: 'closed', b: 'full' };

/** The public answer: free or not of each half-day, no reason in detail (never an event's title). */
export type PublicAvailability = { from: string; halves: string };

export function encodeAvailability(days: readonly DayAvailability[]): PublicAvailability {
  return {
    from: days[0]?.date ?? '',
    halves: days.map((d) => SESSION_TIMES.map((t) => LETTER[d[t]]).join('')).join(''),
  };
}

/** The date after the last one an answer covers. */
export function answerEnd(answer: PublicAvailability): string {
  return answer.from ? addDays(answer.from, answer.halves.length / SESSION_TIMES.length) : '';
}

/** Two answers, the second starting where the first ends, as one. */
export function joinAnswers(a: PublicAvailability, b: PublicAvailability): PublicAvailability {
  return b.from === answerEnd(a) ? { from: a.from, halves: a.halves + b.halves } : a;
}

/** The state of a half-day in a public answer; undefined outside it (the wizard then offers it). */
export function stateIn(
  answer: PublicAvailability,
  date: string,
  time: SessionTime,
): HalfDayState | undefined {
  if (!answer.from || !isIsoDate(date) || date < answer.from) return undefined;
  const index = Math.round((toUtcDate(date).getTime() - toUtcDate(answer.from).getTime()) / 86_400_000);
  return STATE[answer.halves[index * SESSION_TIMES.length + SESSION_TIMES.indexOf(time)] ?? ''];
}

/** A date's state for the calendar: free when a half-day is free; else full or closed. */
export function dateState(answer: PublicAvailability | null, date: string): HalfDayState | undefined {
  if (!answer) return undefined;
  const halves = SESSION_TIMES.map((t) => stateIn(answer, date, t));
  if (halves.some((h) => h === undefined)) return undefined;
  if (halves.includes('free')) return 'free';
  return halves.includes('full') ? 'full' : 'closed';
}
