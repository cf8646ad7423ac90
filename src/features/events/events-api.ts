/**
 * The masterclasses' public API: its paths and the shapes of its answers, shared by the
 * Resources page (the card and the registration form) and the server. Nothing here ever
 * carries an online event's joining link: that goes only into e-mails to registered attendees.
 */

export const EVENTS_API = '/api/events';
/** GET: the next masterclass, `NextEventAnswer`. */
export const NEXT_EVENT_API = `${EVENTS_API}/next`;
/** The `formType` of a registration sent to the form endpoint. */
export const EVENT_FORM_TYPE = 'masterclass';
/** POST {token}: what a registration's e-mail link is about (`RegistrationLinkView`). */
export const REGISTRATION_LINK_API = `${EVENTS_API}/registration`;
/** POST {token}: cancels that registration (`RegistrationCancelAnswer`). */
export const REGISTRATION_CANCEL_API = `${EVENTS_API}/registration/cancel`;
/** The page behind the cancel link in the e-mails: `/masterclass/cancel?token=...`. */
export const REGISTRATION_CANCEL_PATH = '/masterclass/cancel';

/** GET: one published masterclass by its id, as its own page asks after hydration (`NextEventAnswer`). */
export function eventApiPath(id: string): string {
  return `${EVENTS_API}/${id}`;
}

/** The PUBLISH calendar file of a scheduled, not yet ended event (no joining link in it). */
export function eventCalendarPath(id: string): string {
  return `${EVENTS_API}/${id}/calendar.ics`;
}

export const EVENT_MODES = ['online', 'in-person'] as const;
export type EventMode = (typeof EVENT_MODES)[number];

export type PublicEvent = {
  id: string;
  title: string;
  summary: string;
  /** ISO instants (UTC); the page writes them in UK time. */
  startsAt: string;
  endsAt: string;
  mode: EventMode;
  /** Where it takes place, for an in-person event; null online. */
  place: string | null;
  /** Cancelled by the owner: the card says so and offers neither registration nor a calendar file. */
  cancelled: boolean;
  registration: {
    /** ISO instants: when registration opens and closes (at the latest, the start). */
    opensAt: string;
    closesAt: string;
    /** True when a registration sent now would be accepted (a place or a waitlist entry). */
    open: boolean;
    /** Places not yet taken; 0 means a registration joins the waitlist. */
    placesLeft: number;
  };
  /** `eventCalendarPath(id)`; absent when the event is cancelled. */
  calendarPath: string | null;
};

/**
 * GET /api/events/next: the soonest published event that has not ended (a scheduled one
 * before a cancelled one), or null. Never a draft. Answered `Cache-Control: no-cache`.
 */
export type NextEventAnswer = { event: PublicEvent | null };

/**
 * The registration, sent through the form endpoint as `{formType: 'masterclass', ...}`:
 * eventId, firstName (the name), email, company (role or company), consent (true), plus the
 * spam-trap fields. 200 `RegistrationAnswer`; 409 `{error}` when the event is not open for
 * registration (the sentence says why); 400 `{error, fieldErrors}` for a bad field.
 */
export type RegistrationAnswer = {
  id: string;
  /** `registered`: a place is held; `waitlisted`: the event is full, first come first promoted. */
  status: 'registered' | 'waitlisted';
};

export type RegistrationStatus = 'registered' | 'waitlisted' | 'cancelled';

/** POST /api/events/registration {token}: 200 this; 403 a forged link; 410 the event is over. */
export type RegistrationLinkView = {
  title: string;
  startsAt: string;
  endsAt: string;
  status: RegistrationStatus;
  eventCancelled: boolean;
};

/** POST /api/events/registration/cancel {token}: 200 this (again the same for a second press). */
export type RegistrationCancelAnswer = { status: 'cancelled'; message: string };
