/**
 * The console's masterclass routes and answers, shared by the Events screens in the browser and
 * the feature's console area (events-console.server.ts). Every path is under /api/owner.
 */
import { route } from '~/contract/route';
import { UUID_PATTERN } from '~/lib/patterns';
import { z } from '~/lib/zod';
import { EventInputSchema, EventMessageSchema } from './event-input-schema';
import type { EventMode } from './events-api';

export type { EventMode };

export const EVENT_STATUSES = ['draft', 'published', 'cancelled'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

/**
 * What the owner types to create or change an event (checked by EventInputSchema). Times are UK
 * wall-clock times, `YYYY-MM-DDTHH:MM` (what `<input type="datetime-local">` gives); the server
 * turns them into instants in Europe/London. `registrationOpensAt` empty: open from publication;
 * `registrationClosesAt` empty: closes at the start.
 */
export type EventInput = {
  title: string;
  summary: string;
  startsAt: string;
  endsAt: string;
  mode: EventMode;
  /** Required in person (the address), ignored online. */
  place: string;
  /** Online: the joining link (https), sent only to registered attendees. Ignored in person. */
  joinUrl: string;
  capacity: number;
  registrationOpensAt: string;
  registrationClosesAt: string;
};

/** GET /api/owner/events : every event, the latest start first. */
export type EventSummary = EventInput & {
  id: string;
  status: EventStatus;
  /** The same times as ISO instants. */
  startsAtIso: string;
  endsAtIso: string;
  /** Over (its end has passed). */
  past: boolean;
  registered: number;
  waitlisted: number;
  updatedAt: string;
};
export type EventList = { items: EventSummary[] };

export type Attendee = {
  registrationId: string;
  submissionId: string;
  name: string;
  email: string;
  company: string;
  status: 'registered' | 'waitlisted' | 'cancelled';
  registeredAt: string;
  /** When a waitlisted registration was given a place. */
  promotedAt: string | null;
  cancelledAt: string | null;
};

/** GET /api/owner/events/:id : the event, its attendees (registration order) and its waitlist (in order). */
export type EventDetail = EventSummary & {
  attendees: Attendee[];
  waitlist: Attendee[];
  cancelled: Attendee[];
};

/** A change: the event as it now stands and how many people were e-mailed. */
export type EventChangeAnswer = { event: EventSummary; notified: number };
export type EventMessageAnswer = { ok: true; emails: number };

// --- Routes ----------------------------------------------------------------------------------------

const NOT_FOUND = 'There is no such event.';
const INVALID = 'Please correct the highlighted fields.';

/** An event's id: anything but a UUID names no event (404). */
const event = { params: z.object({ id: z.string().regex(UUID_PATTERN) }), notFound: NOT_FOUND } as const;

export const eventsRoutes = {
  // A helper reads the masterclasses; changing one is the owner's (decision 032).
  list: route<EventList>()({ method: 'GET', path: '/events', role: 'helper' }),
  detail: route<EventDetail>()({ method: 'GET', path: '/events/:id', ...event, role: 'helper' }),
  /** Saves a draft; 400 `{error, fieldErrors}` for what the owner must correct. */
  create: route<EventSummary>()({
    method: 'POST',
    path: '/events',
    body: EventInputSchema,
    invalid: INVALID,
  }),
  /** A change of time e-mails every attendee an updated invitation. */
  update: route<EventChangeAnswer>()({
    method: 'POST',
    path: '/events/:id',
    ...event,
    body: EventInputSchema,
    invalid: INVALID,
  }),
  publish: route<EventChangeAnswer>()({ method: 'POST', path: '/events/:id/publish', ...event }),
  /** METHOD:CANCEL to every attendee; the waitlist told. */
  cancel: route<EventChangeAnswer>()({ method: 'POST', path: '/events/:id/cancel', ...event }),
  /** To every registered attendee. */
  message: route<EventMessageAnswer>()({
    method: 'POST',
    path: '/events/:id/message',
    ...event,
    body: EventMessageSchema,
    invalid: INVALID,
  }),
  /** The attendees, the waitlist and the cancellations (CSV, the console's rules). */
  attendees: route<never>()({
    method: 'GET',
    path: '/exports/events/:id/attendees.csv',
    ...event,
    download: true,
  }),
};
