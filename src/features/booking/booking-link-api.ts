/**
 * The signed-link pages' side of the booking API: what a link is for (shown before anything
 * is done) and doing it. Types are shared with the server's answers.
 */
import { postJson } from '~/lib/api-client';
import { LINK_ACT_API, LINK_API } from './booking-paths';

export const BOOKING_STATUSES = ['requested', 'confirmed', 'declined', 'cancelled'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

export type LinkActionName =
  'confirm-first' | 'confirm-second' | 'decline' | 'cancel' | 'reschedule' | 'confirm-move' | 'keep-time';

export type LinkView = {
  action: LinkActionName;
  reference: string;
  status: BookingStatus;
  sessionType: string;
  /** The applicant's choices, in UK words. */
  choices: string[];
  /** Owner links only: who asked. */
  applicantName?: string;
  /** Confirm links (and confirm-move): the chosen window and the start times inside it. */
  choice?: { label: string; startTimes: { value: string; label: string }[] };
  /** A confirmed booking's slot, in UK words. */
  session?: string;
  /** The half-day the applicant asked to move to, in UK words (the owner's move links). */
  move?: string;
  /** A Zoom session's confirm link: the meeting link to send, the settings' default ('' for none). */
  meetingLink?: string;
};

export type LinkActAnswer = { status: BookingStatus; message: string };

export type LinkRefusalReason =
  'invalid' | 'expired' | 'used' | 'closed' | 'past' | 'start' | 'late' | 'taken';

export class LinkRequestError extends Error {
  constructor(
    message: string,
    readonly reason: LinkRefusalReason | 'network',
  ) {
    super(message);
  }
}

/**
 * 403 forged, 409 used or closed, 410 expired or past: the link is done for. 400 and 5xx can be
 * tried again, and so can a refusal of the start time (a time that clashes with the owner's
 * diary, 409 with the start time's error): the link is still good for another time.
 */
function refusalOf(status: number, fieldErrors?: Record<string, string>): LinkRefusalReason | 'network' {
  if (fieldErrors?.start) return 'start';
  // The half-day asked for by a reschedule link is taken or not valid: another can be chosen.
  if (fieldErrors?.date) return 'taken';
  if (status === 403) return 'invalid';
  if (status === 409) return 'used';
  if (status === 410) return 'expired';
  if (status === 400) return 'start';
  return 'network';
}

async function post<T>(url: string, body: object, networkMessage: string): Promise<T> {
  const result = await postJson<T>(url, body);
  if (result.ok) return result.data;
  const reason = refusalOf(result.status, result.fieldErrors);
  throw new LinkRequestError(result.status === 0 ? networkMessage : result.error, reason);
}

export function fetchLinkView(token: string, networkMessage: string): Promise<LinkView> {
  return post<LinkView>(LINK_API, { token }, networkMessage);
}

export function actOnLink(
  token: string,
  input: { start?: string; date?: string; time?: string; meetingLink?: string },
  networkMessage: string,
): Promise<LinkActAnswer> {
  return post<LinkActAnswer>(LINK_ACT_API, { token, ...input }, networkMessage);
}
