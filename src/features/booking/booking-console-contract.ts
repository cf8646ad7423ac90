/**
 * The bookings board's routes in the owner's console and the answers the browser reads, shared by
 * the board (the console's Bookings screen) and the server that answers it
 * (booking-console.server.ts). Dates and start times are checked with the booking feature's own
 * rules (booking-dates.ts): the start times offered are the ones accepted.
 */
import { choiceOf } from '~/contract/query';
import { route } from '~/contract/route';
import { UUID_PATTERN } from '~/lib/patterns';
import { z } from '~/lib/zod';
import { isIsoDate, SESSION_START_TIMES } from './booking-dates';

export const BOOKING_VIEWS = ['requested', 'confirmed', 'declined', 'cancelled', 'past'] as const;
export type BookingView = (typeof BOOKING_VIEWS)[number];

/** GET /api/owner/bookings?view=requested (default) */
export type BookingSummary = {
  id: string;
  reference: string;
  submissionId: string;
  status: 'requested' | 'confirmed' | 'declined' | 'cancelled';
  /** True for a confirmed session whose day is over. */
  past: boolean;
  /** A video (Zoom) session: confirming it asks for the meeting link. */
  video: boolean;
  name: string;
  email: string;
  company: string | null;
  sessionType: string;
  /** The applicant's choices in UK words, with the value the confirm action takes. */
  choices: { choice: 1 | 2; label: string; startTimes: { value: string; label: string }[] }[];
  /** The confirmed slot, in UK words, and its parts. */
  session: { label: string; date: string; start: string } | null;
  /** The half-day the applicant asked to move to (decision 039), with the start times inside it. */
  move: { label: string; startTimes: { value: string; label: string }[] } | null;
  history: { status: string; at: string; actor: string }[];
  createdAt: string;
  /**
   * A request's hold on its first choice (decision 053): until when it closes that half-day to
   * other visitors, or null when it holds nothing; undefined for anything but a request.
   */
  holdUntil?: string | null;
};
export type BookingList = {
  items: BookingSummary[];
  /** The default meeting link of the settings ('' for none), offered when a video session is confirmed. */
  meetingLink: string;
};

/** What confirm, decline, cancel and reschedule answer: the booking's new status and a sentence. */
export type BookingActAnswer = { status: string; message: string };

/** Start times the owner may reschedule to (UK time, quarter hours that keep 45 minutes inside a window). */
export type RescheduleOptions = { startTimes: { value: string; label: string }[] };

// --- Routes ----------------------------------------------------------------------------------------

const VIEW_REFUSED = 'The bookings view is not valid.';
const CHOICE_REFUSED = 'Please choose the first or the second choice.';
const START_OUTSIDE_WINDOW = 'Please choose a start time inside the chosen window.';
const START_NOT_OFFERED = 'Please choose one of the offered start times.';
/** A new date that is not a date, or not from today to the booking horizon (checked on the server's clock). */
export const RESCHEDULE_DATE_REFUSED = 'Please choose a date from today and within the next 12 months.';

/** A start time ('HH:MM', UK time) that some window offers; the chosen window is checked on the server. */
const startTime = (error: string) => z.enum(SESSION_START_TIMES, { error });

/** `?view=`: absent or empty is the requests. */
const viewQuery = z.object({
  view: choiceOf(BOOKING_VIEWS, VIEW_REFUSED).transform((view): BookingView => view ?? 'requested'),
});

const booking = z.object({ id: z.string().regex(UUID_PATTERN) });
const NO_SUCH_BOOKING = 'There is no such booking.';

/** true: the owner confirms or moves to a time that clashes with their diary all the same (audited). */
const insist = z.boolean({ error: 'The request is not valid.' }).optional();

/** The choice confirmed and the session's start inside its window. */
const confirmBody = z.object(
  {
    choice: z.literal([1, 2], { error: CHOICE_REFUSED }),
    start: startTime(START_OUTSIDE_WINDOW),
    insist,
    meetingLink: z.string().max(500, 'Please keep the meeting link under 500 characters.').optional(),
  },
  { error: CHOICE_REFUSED },
);

/** A decline's suggested half-day that is not one: a date from today to the horizon, and morning or afternoon. */
export const DECLINE_SUGGESTION_REFUSED =
  'To suggest another time, choose a date from today and within the next 12 months, and morning or afternoon.';

/** A decline may carry the owner's reason and another half-day to suggest (both optional). */
const declineBody = z
  .object({
    reason: z.string().max(500, 'Please keep the reason to 500 characters.').optional(),
    suggestDate: z.string().max(10, DECLINE_SUGGESTION_REFUSED).optional(),
    suggestTime: z.enum(['', 'morning', 'afternoon'], { error: DECLINE_SUGGESTION_REFUSED }).optional(),
  })
  .optional();

/** The start of the session inside the half-day the applicant asked to move to. */
const confirmMoveBody = z.object(
  { start: startTime(START_OUTSIDE_WINDOW), insist },
  { error: START_OUTSIDE_WINDOW },
);

/** The new day ('YYYY-MM-DD') and start time of a confirmed session. */
const rescheduleBody = z.object(
  {
    date: z.string({ error: RESCHEDULE_DATE_REFUSED }).refine(isIsoDate, { error: RESCHEDULE_DATE_REFUSED }),
    start: startTime(START_NOT_OFFERED),
    insist,
  },
  { error: RESCHEDULE_DATE_REFUSED },
);

/** A helper answers bookings too (decision 032). */
const act = { params: booking, notFound: NO_SUCH_BOOKING, role: 'helper' } as const;

export const bookingRoutes = {
  list: route<BookingList>()({ method: 'GET', path: '/bookings', query: viewQuery, role: 'helper' }),
  rescheduleOptions: route<RescheduleOptions>()({
    method: 'GET',
    path: '/bookings/reschedule-options',
    role: 'helper',
  }),
  confirm: route<BookingActAnswer>()({
    method: 'POST',
    path: '/bookings/:id/confirm',
    ...act,
    body: confirmBody,
  }),
  decline: route<BookingActAnswer>()({
    method: 'POST',
    path: '/bookings/:id/decline',
    ...act,
    body: declineBody,
  }),
  cancel: route<BookingActAnswer>()({ method: 'POST', path: '/bookings/:id/cancel', ...act }),
  /** Moves a confirmed session; the applicant gets the invitation again. */
  reschedule: route<BookingActAnswer>()({
    method: 'POST',
    path: '/bookings/:id/reschedule',
    ...act,
    body: rescheduleBody,
  }),
  /** Confirms the new time an applicant asked for: the session moves there, as with reschedule. */
  confirmMove: route<BookingActAnswer>()({
    method: 'POST',
    path: '/bookings/:id/confirm-move',
    ...act,
    body: confirmMoveBody,
  }),
  /** Ends a request's hold on its first choice (decision 053); the request stays. */
  releaseHold: route<BookingActAnswer>()({ method: 'POST', path: '/bookings/:id/release-hold', ...act }),
  /** Keeps the session at its current time; the applicant is told. */
  keepTime: route<BookingActAnswer>()({ method: 'POST', path: '/bookings/:id/keep-time', ...act }),
};
