/**
 * What a link and the owner's console do to a booking: `applyAction` moves a locked and checked
 * booking to its new status (a choice confirmed, the request declined, the booking cancelled),
 * records the change and queues the e-mails it causes; a move, asked or settled, is handed to
 * `booking-moves.server.ts`. `performOwnerAction` is the console's way in, without a link.
 */
import { eq } from 'drizzle-orm';
import { bookingActionCopy, SESSION_TIMES, SESSION_MINUTES, type SessionTime } from '~/content/booking';
import { UUID_PATTERN } from '~/lib/patterns';
import type { Queryable, Tx } from '~/server/kit/db/client';
import { Refusal } from '~/server/kit/http/request-checks';
import { enqueueEmails, type OutgoingEmail } from '~/server/kit/mail/outbox';
import { addMinutesToClock, latestBookableDate, startTimesFor, ukToday } from './booking-dates';
import { DECLINE_SUGGESTION_REFUSED } from './booking-console-contract';
import {
  calendarUid,
  cancelledApplicantEmail,
  cancelledOwnerEmail,
  confirmedEmail,
  declinedEmail,
  type BookingView,
} from './booking-emails.server';
import type { BookingStatus, LinkActAnswer, LinkActionName } from './booking-link-api';
import { dropReminder, sessionReminder } from './booking-reminders.server';
import { leadFollowsBooking } from './booking-lead.server';
import { bookingStatusEvents, bookings } from './tables.server';
import { lockDay, readAvailabilitySettings } from './availability.server';
import { isHttpsUrl, MEETING_LINK_REFUSED } from './availability-settings';
import { isIsoDate } from '~/lib/uk-dates';
import {
  checkClash,
  checkState,
  chosenWindow,
  LinkRefusal,
  loadBooking,
  slotOf,
  slotWords,
  type BookingActor,
  type Loaded,
  type OwnerActed,
  type OwnerActionHook,
  type OwnerInput,
  type PerformContext,
} from './booking-action-checks.server';
import { applicantLinks } from './booking-applicant-links.server';
import { askToMove, keepTime, moveSession } from './booking-moves.server';

/**
 * The meeting link of a session being confirmed: none for a session in person; for a Zoom
 * session, the one given, else the default of the settings; refused (400, on the meeting link's
 * field) when there is neither or it is not an https address, so that its invitation never says
 * "to be agreed".
 */
async function meetingLinkFor(q: Queryable, sessionType: string, given: unknown): Promise<string | null> {
  if (sessionType !== 'zoom') return null;
  const typed = typeof given === 'string' ? given.trim() : '';
  const link = typed || (await readAvailabilitySettings(q)).meetingLink;
  if (!link || link.length > 500 || !isHttpsUrl(link)) {
    const error = typed ? MEETING_LINK_REFUSED : bookingActionCopy.meetingLinkMissing;
    throw new Refusal(400, { error, reason: 'start', fieldErrors: { meetingLink: error } });
  }
  return link;
}

/**
 * The owner's console doing what a link does (confirm a choice, decline, cancel): the same
 * checks, the same change, the same e-mails, without a link. Refusals are `LinkRefusal`s.
 * `write` runs last in the same transaction.
 */
export async function performOwnerAction(
  ctx: PerformContext,
  bookingId: string,
  action: LinkActionName,
  input: OwnerInput,
  now: Date,
  write?: OwnerActionHook,
): Promise<OwnerActed> {
  if (!UUID_PATTERN.test(bookingId)) throw new LinkRefusal('invalid', 404, 'There is no such booking.');
  return ctx.db.transaction(async (tx) => {
    const locked = await loadBooking(tx, bookingId, true);
    if (!locked) throw new LinkRefusal('invalid', 404, 'There is no such booking.');
    const loaded = checkState(action, locked, now);
    const { answer, clash } = await applyAction(tx, ctx, loaded, action, input, now, 'owner', 'console');
    const acted = { bookingId, reference: loaded.row.reference, status: answer.status, answer, clash };
    await write?.(tx, acted);
    return acted;
  });
}

/**
 * The owner's reason and suggested half-day of a decline (both optional), checked: a reason of at
 * most 500 characters; a suggestion of a date from today to the booking horizon and a half-day.
 */
function declineWords(
  input: { reason?: unknown; suggestDate?: unknown; suggestTime?: unknown },
  now: Date,
): { reason?: string; suggestion?: { date: string; time: SessionTime } } {
  const reason = typeof input.reason === 'string' ? input.reason.trim().slice(0, 500) : '';
  const date = typeof input.suggestDate === 'string' ? input.suggestDate : '';
  const time = typeof input.suggestTime === 'string' ? input.suggestTime : '';
  if (!date && !time) return reason ? { reason } : {};
  if (
    !isIsoDate(date) ||
    date < ukToday(now) ||
    date > latestBookableDate(now) ||
    !(SESSION_TIMES as readonly string[]).includes(time)
  ) {
    throw new Refusal(400, {
      error: DECLINE_SUGGESTION_REFUSED,
      fieldErrors: { suggestDate: DECLINE_SUGGESTION_REFUSED },
    });
  }
  return { ...(reason ? { reason } : {}), suggestion: { date, time: time as SessionTime } };
}

/**
 * Moves a locked and checked booking to its new status, records the change with its time and
 * actor, and queues the e-mails it causes: what a link and the console share.
 */
export async function applyAction(
  tx: Tx,
  ctx: PerformContext,
  loaded: Loaded,
  action: LinkActionName,
  input: OwnerInput,
  now: Date,
  actor: BookingActor,
  via: 'console' | 'link',
): Promise<{ answer: LinkActAnswer; clash?: string }> {
  const { config, links } = ctx;
  let clash: string | undefined;
  const { row, details } = loaded;
  if (action === 'reschedule') return { answer: await askToMove(tx, ctx, loaded, input, now) };
  if (action === 'keep-time') {
    await keepTime(tx, ctx, loaded, now, actor);
    return { answer: { status: 'confirmed', message: bookingActionCopy.moveKeptDone } };
  }
  if (action === 'confirm-move') {
    const window = chosenWindow(action, row)!;
    const start = typeof input.start === 'string' ? input.start : '';
    if (!startTimesFor(window.time).includes(start)) {
      throw new LinkRefusal('start', 400, 'Please choose a start time inside the chosen window.');
    }
    const slot = { date: window.date, start, end: addMinutesToClock(start, SESSION_MINUTES) };
    const how = {
      insist: via === 'console' && input.insist === true,
      action: via === 'link' ? 'link' : 'move',
    } as const;
    const moved = await moveSession(tx, ctx, loaded, slot, how, now);
    return { answer: { status: 'confirmed', message: moved.message }, clash: moved.clash };
  }
  const view: BookingView = { id: row.id, reference: row.reference, details, meetingUrl: row.meetingUrl };
  const uid = calendarUid(row.id, config.publicUrl);
  const emails: OutgoingEmail[] = [];
  let status: BookingStatus;
  let message: string;

  if (action === 'confirm-first' || action === 'confirm-second') {
    const window = chosenWindow(action, row)!;
    const start = typeof input.start === 'string' ? input.start : '';
    if (!startTimesFor(window.time).includes(start)) {
      throw new LinkRefusal('start', 400, 'Please choose a start time inside the chosen window.');
    }
    const slot = { date: window.date, start, end: addMinutesToClock(start, SESSION_MINUTES) };
    const meetingUrl = await meetingLinkFor(tx, row.sessionType, input.meetingLink);
    view.meetingUrl = meetingUrl;
    await lockDay(tx, slot.date);
    clash = await checkClash(tx, ctx, row, slot, {
      insist: via === 'console' && input.insist === true,
      action: via === 'link' ? 'link' : 'confirm',
    });
    status = 'confirmed';
    await tx
      .update(bookings)
      .set({
        status,
        confirmedChoice: action === 'confirm-first' ? 1 : 2,
        meetingUrl,
        sessionDate: slot.date,
        sessionStart: slot.start,
        sessionEnd: slot.end,
        calendarSequence: row.calendarSequence,
        updatedAt: now,
      })
      .where(eq(bookings.id, row.id));
    const to = {
      to: details.email,
      replyTo: config.ownerEmail,
      ...(await applicantLinks(links, row.id, slot.date)),
    };
    emails.push(
      confirmedEmail(view, slot, {
        uid,
        sequence: row.calendarSequence,
        organizer: config.mailFrom,
        now,
        ...to,
      }),
      ...sessionReminder(view, slot, to, now),
    );
    message = bookingActionCopy.confirmedDone(slotWords(slot));
  } else if (action === 'decline') {
    status = 'declined';
    await tx.update(bookings).set({ status, updatedAt: now }).where(eq(bookings.id, row.id));
    emails.push(
      declinedEmail(view, {
        to: details.email,
        replyTo: config.ownerEmail,
        bookUrl: links.absolute('/book'),
        ...declineWords(input, now),
      }),
    );
    message = bookingActionCopy.declinedDone;
  } else {
    status = 'cancelled';
    const slot = row.status === 'confirmed' ? slotOf(row) : undefined;
    // A cancellation of an invite must carry a higher SEQUENCE than the invite it replaces.
    const sequence = slot ? row.calendarSequence + 1 : row.calendarSequence;
    await tx
      .update(bookings)
      .set({
        status,
        calendarSequence: sequence,
        moveDate: null,
        moveTime: null,
        moveAskedAt: null,
        updatedAt: now,
      })
      .where(eq(bookings.id, row.id));
    await dropReminder(tx, row.submissionId);
    emails.push(
      cancelledApplicantEmail(view, slot, {
        uid,
        sequence,
        organizer: config.mailFrom,
        now,
        to: details.email,
        replyTo: config.ownerEmail,
        bookUrl: links.absolute('/book'),
      }),
    );
    // The owner is told when the applicant cancels; a cancellation the owner made needs no e-mail to them.
    if (actor === 'applicant') emails.push(cancelledOwnerEmail(view, slot, { to: config.ownerEmail }));
    message = actor === 'applicant' ? bookingActionCopy.cancelledDone : bookingActionCopy.ownerCancelledDone;
  }

  await tx.insert(bookingStatusEvents).values({ bookingId: row.id, status, at: now, actor });
  await leadFollowsBooking(tx, row.submissionId, status);
  await enqueueEmails(tx, row.submissionId, emails);
  return { answer: { status, message }, clash };
}
