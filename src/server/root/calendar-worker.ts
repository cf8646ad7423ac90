/**
 * The process that reads the owner's calendar (decision 037, addendum): ical.js parses and
 * expands the feed here, never on the server's event loop, so an event whose rule makes ical.js
 * loop for ever, or a feed that takes seconds, holds up only this process, which the server kills
 * at its time limit (`./calendar-expansion.ts`). Started by a fetch, ended a while after it.
 */
import { expandFeed, type ExpandedFeed } from '~/features/booking/calendar-feed-expand';
import { serveJobs } from '../kit/worker-process';
import type { CalendarJob } from './calendar-expansion';

serveJobs<CalendarJob, ExpandedFeed>((job) =>
  expandFeed(job.ics, job.range, {
    yieldEvery: Number.POSITIVE_INFINITY,
    maxOccurrences: job.maxOccurrences,
  }),
);
