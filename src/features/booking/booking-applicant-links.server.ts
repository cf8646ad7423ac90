/**
 * Where a booking's signed links point: a link's address, the day until which the applicant's
 * cancel link of a request works, and the cancel and reschedule links a confirmed session's
 * e-mails carry.
 */
import type { Links } from '~/server/kit/http/links';
import { endOfUkDay } from './booking-dates';
import type { ApplicantLinks } from './booking-emails.server';
import { signLink } from './booking-links.server';
import { CANCEL_PATH, RESCHEDULE_PATH } from './booking-paths';
import type { BookingRequest } from './booking-schema';

export function linkUrl(links: Links, path: string, token: string): string {
  return links.absolute(`${path}?token=${encodeURIComponent(token)}`);
}

/** The last UK day on which the booking could take place: its cancel link works until then. */
export function lastPossibleDay(d: Pick<BookingRequest, 'firstChoiceDate' | 'secondChoiceDate'>): string {
  return d.secondChoiceDate && d.secondChoiceDate > d.firstChoiceDate
    ? d.secondChoiceDate
    : d.firstChoiceDate;
}

/** The applicant's cancel and reschedule links of a session on `date`: both work until that day ends. */
export async function applicantLinks(links: Links, bookingId: string, date: string): Promise<ApplicantLinks> {
  const expiresAt = endOfUkDay(date);
  const [cancel, reschedule] = await Promise.all([
    signLink(links.tokens, { bookingId, action: 'cancel', expiresAt }),
    signLink(links.tokens, { bookingId, action: 'reschedule', expiresAt }),
  ]);
  return {
    cancelUrl: linkUrl(links, CANCEL_PATH, cancel.token),
    rescheduleUrl: linkUrl(links, RESCHEDULE_PATH, reschedule.token),
  };
}
