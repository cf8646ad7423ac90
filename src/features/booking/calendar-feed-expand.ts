/**
 * The owner's own calendar, read (decision 037): an iCalendar feed's events expanded by ical.js
 * (RRULE, EXDATE, RECURRENCE-ID, events in other time zones, all-day events) into the UK half-days
 * they overlap. Cancelled events and free (TRANSPARENT) ones take nothing. Only the half-days
 * are kept: never an event's title, place or guests.
 *
 * Time zones: a TZID the feed defines (a VTIMEZONE, as Google, Outlook and Apple send) is
 * converted by ical.js; a TZID it does not define is read as an IANA zone by Intl when Intl knows
 * it; anything else (floating times, a zone nobody knows) is read as UK time, the owner's.
 */
import type ICAL from 'ical.js';
import { sessionTimeWindows, type SessionTime } from '~/content/booking';
import { addDays, ukDateOf, ukWallTimeToInstant } from '~/lib/uk-dates';

/** A half-day the owner's calendar shows busy: `YYYY-MM-DD morning` or `YYYY-MM-DD afternoon`. */
export type BusyHalfDay = `${string} ${SessionTime}`;

export const busyHalfDay = (date: string, time: SessionTime): BusyHalfDay => `${date} ${time}`;

export type ExpandedFeed = {
  /** The busy half-days from..to, sorted. */
  busy: BusyHalfDay[];
  /** How many events (series counted once) the feed holds. */
  events: number;
};

/** The occurrences one series may yield: a daily series of years is some thousands; more is a runaway rule. */
const MAX_OCCURRENCES_PER_SERIES = 20_000;

/**
 * The occurrences the whole feed may yield, every series' steps counted, those before the booking
 * window too: some 30 µs each, so about 6 s of work at most. A real calendar takes a fraction of
 * it (20 daily series begun ten years ago are 73,000 steps); 30 series repeating every second from
 * 1970 would take 600,000, and trip it.
 */
export const MAX_OCCURRENCES_PER_FEED = 200_000;

export class NotACalendar extends Error {
  // Its name crosses from the calendar's process (calendar-worker.ts) with its message.
  override name = 'NotACalendar';
}

/** A feed that trips a limit of its expansion; the message names the limit, for the owner. */
export class FeedTooLarge extends Error {
  override name = 'FeedTooLarge';
}

/**
 * ical.js, loaded by the first expansion: a dynamic import stays one in the server's bundle, so a
 * site whose owner set no calendar never loads it (measured: 6 MB of the server's resident memory).
 */
let ical: typeof ICAL;

const TIMES = Object.keys(sessionTimeWindows) as SessionTime[];

const zoneFormatters = new Map<string, Intl.DateTimeFormat | null>();
function zoneFormatter(zone: string): Intl.DateTimeFormat | null {
  if (!zoneFormatters.has(zone)) {
    try {
      zoneFormatters.set(
        zone,
        new Intl.DateTimeFormat('en-GB', {
          timeZone: zone,
          hourCycle: 'h23',
          year: 'numeric',
          month: 'numeric',
          day: 'numeric',
          hour: 'numeric',
          minute: 'numeric',
          second: 'numeric',
        }),
      );
    } catch {
      zoneFormatters.set(zone, null);
    }
  }
  return zoneFormatters.get(zone)!;
}

/** The instant a clock in the IANA zone `format` speaks for shows the wall time `wanted` (ms as if UTC). */
function zonedInstant(format: Intl.DateTimeFormat, wanted: number): number {
  let guess = wanted;
  for (let i = 0; i < 2; i += 1) {
    const p = Object.fromEntries(format.formatToParts(new Date(guess)).map((x) => [x.type, Number(x.value)]));
    const shown = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
    guess += wanted - shown;
  }
  return guess;
}

/** The instant of a date-time of the feed; `tzid` is its property's TZID parameter, if any. */
function instantOf(time: ICAL.Time, tzid: string | undefined): number {
  const zone = time.zone;
  if (zone && zone !== ical.Timezone.localTimezone) return time.toUnixTime() * 1000;
  const wanted = Date.UTC(time.year, time.month - 1, time.day, time.hour, time.minute, time.second);
  const format = tzid ? zoneFormatter(tzid) : null;
  if (format) return zonedInstant(format, wanted);
  const pad = (n: number) => String(n).padStart(2, '0');
  const date = `${time.year}-${pad(time.month)}-${pad(time.day)}`;
  return ukWallTimeToInstant(date, `${pad(time.hour)}:${pad(time.minute)}`).getTime() + time.second * 1000;
}

const dateOf = (time: ICAL.Time) =>
  `${String(time.year).padStart(4, '0')}-${String(time.month).padStart(2, '0')}-${String(time.day).padStart(2, '0')}`;

/** Marks the half-days of the UK dates from..to that an event takes. */
class HalfDays {
  private readonly windows = new Map<string, [number, number][]>();
  readonly busy = new Set<BusyHalfDay>();
  constructor(
    private readonly from: string,
    private readonly to: string,
  ) {}

  private windowsOf(date: string): [number, number][] {
    let w = this.windows.get(date);
    if (!w) {
      w = TIMES.map((t) => [
        ukWallTimeToInstant(date, sessionTimeWindows[t].start).getTime(),
        ukWallTimeToInstant(date, sessionTimeWindows[t].end).getTime(),
      ]);
      this.windows.set(date, w);
    }
    return w;
  }

  /** An all-day event: each date from `first` to the day before `end` (iCalendar's DTEND is exclusive). */
  addDates(first: string, end: string) {
    const last = end > first ? addDays(end, -1) : first;
    for (
      let date = first < this.from ? this.from : first;
      date <= last && date <= this.to;
      date = addDays(date, 1)
    )
      for (const t of TIMES) this.busy.add(busyHalfDay(date, t));
  }

  /** A timed event from `start` to `end` (ms); one without length takes the half-day it falls in. */
  addTimes(start: number, end: number) {
    const firstDate = ukDateOf(new Date(start));
    const lastDate = ukDateOf(new Date(end > start ? end - 1 : start));
    if (lastDate < this.from || firstDate > this.to) return;
    for (
      let date = firstDate < this.from ? this.from : firstDate;
      date <= lastDate && date <= this.to;
      date = addDays(date, 1)
    ) {
      const windows = this.windowsOf(date);
      TIMES.forEach((t, i) => {
        const [ws, we] = windows[i]!;
        const overlaps = end > start ? start < we && end > ws : start >= ws && start < we;
        if (overlaps) this.busy.add(busyHalfDay(date, t));
      });
    }
  }
}

/** Whether an occurrence of this event (the series' or an exception's component) takes time. */
function takesTime(component: ICAL.Component): boolean {
  const status = String(component.getFirstPropertyValue('status') ?? '').toUpperCase();
  const transp = String(component.getFirstPropertyValue('transp') ?? '').toUpperCase();
  return status !== 'CANCELLED' && transp !== 'TRANSPARENT';
}

const tzidOf = (component: ICAL.Component, name: 'dtstart' | 'dtend') => {
  const tzid = component.getFirstProperty(name)?.getParameter('tzid');
  return typeof tzid === 'string' ? tzid : undefined;
};

function addOccurrence(days: HalfDays, component: ICAL.Component, start: ICAL.Time, end: ICAL.Time) {
  if (!takesTime(component)) return;
  if (start.isDate) {
    days.addDates(dateOf(start), dateOf(end));
    return;
  }
  const s = instantOf(start, tzidOf(component, 'dtstart'));
  const e = instantOf(end, tzidOf(component, 'dtend') ?? tzidOf(component, 'dtstart'));
  days.addTimes(s, e < s ? s : e);
}

const UID = /^UID:(.*(?:\r?\n[ \t].*)*)/m;

/**
 * The feed's VEVENT and VTIMEZONE blocks, as text (BEGIN and END lines are never folded), found in
 * one pass over its lines: a BEGIN with no END (a feed cut short, or a crafted one) runs to the
 * feed's end once and is left out, where a lazy regular expression looked for its END from every
 * BEGIN again (32,000 such lines: 5.6 s).
 */
function* blocksOf(ics: string): Generator<{ kind: 'VEVENT' | 'VTIMEZONE'; text: string }> {
  let open: 'VEVENT' | 'VTIMEZONE' | undefined;
  let start = 0;
  let at = 0;
  while (at < ics.length) {
    let end = ics.indexOf('\n', at);
    if (end === -1) end = ics.length;
    const line = ics.slice(at, ics[end - 1] === '\r' ? end - 1 : end);
    if (!open) {
      if (line === 'BEGIN:VEVENT' || line === 'BEGIN:VTIMEZONE') {
        open = line.slice(6) as 'VEVENT' | 'VTIMEZONE';
        start = at;
      }
    } else if (line === `END:${open}`) {
      yield { kind: open, text: ics.slice(start, end) };
      open = undefined;
    } else if (line === 'BEGIN:VEVENT' || line === 'BEGIN:VTIMEZONE') {
      // A block never ends before the next one begins: the unfinished one is left out.
      open = line.slice(6) as 'VEVENT' | 'VTIMEZONE';
      start = at;
    }
    at = end + 1;
  }
}

/** The feed's events grouped by UID (a series with its exceptions), and its time zones, as text. */
function splitFeed(ics: string): { zones: string[]; groups: string[][] } {
  if (!/^\s*BEGIN:VCALENDAR\r?$/m.test(ics.slice(0, 200)) || !/^END:VCALENDAR\r?$/m.test(ics))
    throw new NotACalendar('not a VCALENDAR');
  const zones: string[] = [];
  const byUid = new Map<string, string[]>();
  const groups: string[][] = [];
  for (const block of blocksOf(ics)) {
    if (block.kind === 'VTIMEZONE') {
      zones.push(block.text);
      continue;
    }
    const uid = UID.exec(block.text)?.[1]
      ?.replace(/\r?\n[ \t]/g, '')
      .trim();
    if (!uid) {
      groups.push([block.text]);
      continue;
    }
    const group = byUid.get(uid);
    if (group) group.push(block.text);
    else {
      const fresh = [block.text];
      byUid.set(uid, fresh);
      groups.push(fresh);
    }
  }
  return { zones, groups };
}

/** A component of the feed's text, or undefined when it does not parse (that event is left out). */
function componentOf(text: string): ICAL.Component | undefined {
  try {
    return new ical.Component(ical.parse(text) as unknown[]);
  } catch {
    return undefined;
  }
}

/**
 * The busy half-days of the UK dates from..to in the iCalendar text `ics`. Throws NotACalendar
 * when the text is not one; an event that does not parse is left out.
 *
 * The feed is parsed one series at a time (its events and their exceptions, found by UID), each
 * hung for that moment under one calendar that holds the feed's time zones: parsing a feed of
 * thousands of events whole holds all of it in memory at once (measured: the server's peak
 * resident memory rose above its 200 MB budget for a feed of 5,000). `yieldEvery`: after that
 * many series the expansion gives the event loop a turn, so the site's requests are not held up.
 */
export async function expandFeed(
  ics: string,
  range: { from: string; to: string },
  { yieldEvery = 100, maxOccurrences = MAX_OCCURRENCES_PER_FEED } = {},
): Promise<ExpandedFeed> {
  ical ??= (await import('ical.js')).default;
  const { zones, groups } = splitFeed(ics);
  const root = new ical.Component(['vcalendar', [], []]);
  for (const zone of zones) {
    const component = componentOf(zone);
    if (component?.name === 'vtimezone') root.addSubcomponent(component);
  }

  const days = new HalfDays(range.from, range.to);
  // The expansion's limits as ical.js times: the UK dates' first and last instants, with a day
  // on each side for events written in other zones.
  const rangeStart = ical.Time.fromJSDate(ukWallTimeToInstant(addDays(range.from, -1), '00:00'), true);
  const rangeEnd = ical.Time.fromJSDate(ukWallTimeToInstant(addDays(range.to, 2), '00:00'), true);
  const inRange = (event: ICAL.Event) =>
    event.endDate.compare(rangeStart) >= 0 && event.startDate.compare(rangeEnd) <= 0;

  let events = 0;
  let steps = 0;
  const step = () => {
    steps += 1;
    if (steps > maxOccurrences)
      throw new FeedTooLarge(
        `The calendar's repeating events have more than ${maxOccurrences.toLocaleString('en-GB')} occurrences to go through, more than can be read: an event that repeats every second or minute for years does this. Delete or shorten it in your calendar.`,
      );
  };
  for (const [n, group] of groups.entries()) {
    if (n > 0 && n % yieldEvery === 0) await new Promise((resolve) => setImmediate(resolve));
    const components = group.map(componentOf).filter((c) => c?.name === 'vevent') as ICAL.Component[];
    for (const c of components) root.addSubcomponent(c);
    try {
      const dated = components.filter((c) => c.hasProperty('dtstart'));
      const exceptions = dated.filter((c) => c.hasProperty('recurrence-id'));
      const masters = dated.filter((c) => !c.hasProperty('recurrence-id'));
      events += masters.length || (exceptions.length > 0 ? 1 : 0);
      // Every Event is given its exceptions (none, for a single one): without them ical.js looks
      // for them through every event of the calendar.
      for (const master of masters) {
        const event = new ical.Event(master, { exceptions: masters.length === 1 ? exceptions : [] });
        if (!event.isRecurring()) {
          if (inRange(event)) addOccurrence(days, master, event.startDate, event.endDate);
          continue;
        }
        const iterator = event.iterator();
        const seen = new Set<string>();
        for (
          let i = 0, next = iterator.next();
          next && i < MAX_OCCURRENCES_PER_SERIES;
          i += 1, next = iterator.next()
        ) {
          step();
          if (next.compare(rangeEnd) > 0) break;
          const details = event.getOccurrenceDetails(next);
          seen.add(details.recurrenceId.toString());
          if (details.endDate.compare(rangeStart) < 0) continue;
          addOccurrence(days, details.item.component, details.startDate, details.endDate);
        }
        // An exception moved into the range from an occurrence outside it.
        for (const exception of exceptions) {
          const id = exception.getFirstPropertyValue('recurrence-id');
          if (id instanceof ical.Time && seen.has(id.toString())) continue;
          const moved = new ical.Event(exception);
          if (inRange(moved)) addOccurrence(days, exception, moved.startDate, moved.endDate);
        }
      }
      // Exceptions whose series is not in the feed are events of their own.
      if (masters.length === 0)
        for (const exception of exceptions) {
          const event = new ical.Event(exception);
          if (inRange(event)) addOccurrence(days, exception, event.startDate, event.endDate);
        }
    } finally {
      for (const c of components) root.removeSubcomponent(c);
    }
  }
  return { busy: [...days.busy].sort(), events };
}
