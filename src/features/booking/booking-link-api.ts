/**
 * The signed-link pages' side of the booking API: what a link is for (shown before anything
 * is done) and doing it. Types are shared with the server's answers.
 */
import { LINK_ACT_API, LINK_API } from './booking-paths';

export const BOOKING_STATUSES = ['requested', 'confirmed', 'declined', 'cancelled'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

export type LinkActionName = 'confirm-first' | 'confirm-second' | 'decline' | 'cancel';

export type LinkView = {
  action: LinkActionName;
  reference: string;
  status: BookingStatus;
  sessionType: string;
  /** The applicant's choices, in UK words. */
  choices: string[];
  /** Owner links only: who asked. */
  applicantName?: string;
  /** Confirm links: the chosen window and the start times inside it. */
  choice?: { label: string; startTimes: { value: string; label: string }[] };
  /** A confirmed booking's slot, in UK words. */
  session?: string;
};

export type LinkActAnswer = { status: BookingStatus; message: string };

export type LinkRefusalReason = 'invalid' | 'expired' | 'used' | 'closed' | 'past' | 'start';

export class LinkRequestError extends Error {
  constructor(
    message: string,
    readonly reason: LinkRefusalReason | 'network',
  ) {
    super(message);
  }
}

async function post<T>(url: string, body: object, networkMessage: string): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch {
    throw new LinkRequestError(networkMessage, 'network');
  }
  const payload = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok) {
    const reason = typeof payload.reason === 'string' ? (payload.reason as LinkRefusalReason) : 'network';
    throw new LinkRequestError(typeof payload.error === 'string' ? payload.error : networkMessage, reason);
  }
  return payload as T;
}

export function fetchLinkView(token: string, networkMessage: string): Promise<LinkView> {
  return post<LinkView>(LINK_API, { token }, networkMessage);
}

export function actOnLink(token: string, start: string | undefined, networkMessage: string): Promise<LinkActAnswer> {
  return post<LinkActAnswer>(LINK_ACT_API, { token, start }, networkMessage);
}
