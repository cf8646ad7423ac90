/**
 * The owner's calendar expanded in a process of its own (`calendar-worker.ts`, decision 037,
 * addendum), with three limits, so that no calendar entry can hold up or bring down the server:
 * a wall-clock time (the process is killed when it is passed: ical.js loops for ever on some
 * impossible rules), a memory ceiling (V8's old space; the process dies, not the server), and the
 * occurrences the whole feed may yield (`MAX_OCCURRENCES_PER_FEED`). A feed that trips one fails
 * as an unreadable feed does, with a sentence naming the limit (`FeedTooLarge`).
 */
import {
  FeedTooLarge,
  MAX_OCCURRENCES_PER_FEED,
  NotACalendar,
  type ExpandedFeed,
} from '~/features/booking/calendar-feed-expand';
import { JobCrashed, JobTimeout, programBeside, workerProcess } from '../kit/worker-process';

export type CalendarJob = {
  ics: string;
  range: { from: string; to: string };
  maxOccurrences: number;
};

export type CalendarLimits = {
  /** How long one expansion may take, in ms. */
  timeMs: number;
  /** The process's V8 heap (old space), in MB. */
  memoryMb: number;
  /** The occurrences the whole feed may yield. */
  occurrences: number;
};

/**
 * A feed of some thousand events takes well under a second; 20 s is room for the largest real
 * calendars on a slow, busy machine. 256 MB is four times what a 10 MB feed (the fetch's limit)
 * needs parsed one series at a time.
 */
export const CALENDAR_LIMITS: CalendarLimits = {
  timeMs: 20_000,
  memoryMb: 256,
  occurrences: MAX_OCCURRENCES_PER_FEED,
};

/** How long the process is kept after an expansion; the next is due minutes later, so not long. */
const IDLE_MS = 5_000;

export type CalendarExpansion = {
  expand(ics: string, range: { from: string; to: string }): Promise<ExpandedFeed>;
  stop(): Promise<void>;
};

export function calendarExpansion(limits: Partial<CalendarLimits> = {}): CalendarExpansion {
  const { timeMs, memoryMb, occurrences } = { ...CALENDAR_LIMITS, ...limits };
  const work = workerProcess<CalendarJob, ExpandedFeed>(
    programBeside(import.meta.url, 'calendar-worker'),
    'calendar',
    IDLE_MS,
    { execArgv: [`--max-old-space-size=${memoryMb}`], jobTimeoutMs: timeMs },
  );
  return {
    async expand(ics, range) {
      try {
        return await work.run({ ics, range, maxOccurrences: occurrences });
      } catch (error) {
        throw asFeedError(error, { timeMs, memoryMb });
      }
    },
    stop: () => work.stop(),
  };
}

/** The error of the calendar's process as the feature knows it: NotACalendar, FeedTooLarge, or as it came. */
function asFeedError(
  error: unknown,
  { timeMs, memoryMb }: Pick<CalendarLimits, 'timeMs' | 'memoryMb'>,
): unknown {
  if (!(error instanceof Error)) return error;
  if (error instanceof JobTimeout)
    return new FeedTooLarge(
      `The calendar took longer than ${timeMs / 1000} seconds to read, so its reading was stopped: an event that repeats by a rule no date can meet (for example on 30 February) does this. Delete or correct it in your calendar.`,
    );
  if (error instanceof JobCrashed)
    return new FeedTooLarge(
      // V8 aborts the process when its heap is full.
      error.signal === 'SIGABRT' || error.code === 134
        ? `Reading the calendar needed more than the ${memoryMb} MB of memory it may use, so it was stopped: a calendar of very many events, or an event with very many exceptions, does this.`
        : 'The process reading the calendar stopped before it finished; it is tried again in a few minutes.',
    );
  if (error.name === 'NotACalendar') return new NotACalendar(error.message);
  if (error.name === 'FeedTooLarge') return new FeedTooLarge(error.message);
  return error;
}
