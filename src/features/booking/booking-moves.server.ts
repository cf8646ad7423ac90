/**
 * Moving a confirmed session: the owner's Move from the console (`rescheduleBooking`), the
 * applicant asking for another half-day by their reschedule link, and the owner's answer to that
 * ask (confirm the new time, which moves the session, or keep the current one). A session that
 * moves keeps its calendar entry (the same UID, a higher SEQUENCE) and gets new applicant links.
 */
import { eq } from 'drizzle-orm';
import {
  availabilityCopy,
  bookingActionCopy,
  OWNER_LINK_DAYS,
  SESSION_TIMES,
  SESSION_MINUTES,
  type SessionTime,
} from '~/content/booking';
import { UUID_PATTERN } from '~/lib/patterns';
import type { Tx } from '~/server/kit/db/client';
import { Refusal } from '~/server/kit/http/request-checks';
import { enqueueEmails } from '~/server/kit/mail/outbox';
import { addMinutesToClock, endOfUkDay, formatChoice, latestBookableDate, ukToday } from './booking-dates';
import { RESCHEDULE_DATE_REFUSED } from './booking-console-contract';
import {
  calendarUid,
  confirmedEmail,
  moveAskedApplicantEmail,
  moveAskedOwnerEmail,
  moveKeptEmail,
  type ConfirmedSlot,
} from './booking-emails.server';
import type { LinkActAnswer } from './booking-link-api';
import { signLink } from './booking-links.server';
import { RESPOND_PATH } from './booking-paths';
import { dropReminder, sessionReminder } from './booking-reminders.server';
import { leadFollowsBooking } from './booking-lead.server';
import { bookingStatusEvents, bookings } from './tables.server';
import { checkRequestIsFree, lockDay, TakenRefusal } from './availability.server';
import { isIsoDate } from '~/lib/uk-dates';
import {
  checkClash,
  LinkRefusal,
  loadBooking,
  slotOf,
  slotWords,
  type BookingActor,
  type Loaded,
  type OwnerActed,
  type OwnerActionHook,
  type PerformContext,
} from './booking-action-checks.server';
import { applicantLinks, linkUrl } from './booking-applicant-links.server';

/**
 * Moves a confirmed session to another day and start time: the applicant gets the invitation
 * again with the same UID and a higher SEQUENCE (calendars update the event in place), and a
 * cancel link valid until the end of the new day. `date` and `start` are as the console's route
 * parses them (a date, and a start time some window offers); the date must be from today to the
 * booking horizon. `write` runs last in the same transaction.
 */
export async function rescheduleBooking(
  ctx: PerformContext,
  bookingId: string,
  { date, start, insist }: { date: string; start: string; insist?: boolean },
  now: Date,
  write?: OwnerActionHook,
): Promise<OwnerActed> {
  if (!UUID_PATTERN.test(bookingId)) throw new LinkRefusal('invalid', 404, 'There is no such booking.');
  if (date < ukToday(now) || date > latestBookableDate(now))
    throw new LinkRefusal('past', 400, RESCHEDULE_DATE_REFUSED);
  return ctx.db.transaction(async (tx) => {
    const loaded = await loadBooking(tx, bookingId, true);
    if (!loaded) throw new LinkRefusal('invalid', 404, 'There is no such booking.');
    const { row } = loaded;
    const current = slotOf(row);
    if (row.status !== 'confirmed' || !current) {
      throw new LinkRefusal('closed', 409, 'Only a confirmed session can be moved.');
    }
    if (current.date < ukToday(now))
      throw new LinkRefusal('past', 409, 'This session has already taken place.');
    const slot = { date, start, end: addMinutesToClock(start, SESSION_MINUTES) };
    const { clash, message } = await moveSession(tx, ctx, loaded, slot, { insist, action: 'move' }, now);
    const acted: OwnerActed = {
      bookingId,
      reference: row.reference,
      status: 'confirmed',
      answer: { status: 'confirmed', message },
      clash,
    };
    await write?.(tx, acted);
    return acted;
  });
}

/**
 * Moves a locked confirmed session to `slot`: checked against the diary and the availability
 * (the owner may insist from the console), the same calendar entry with a higher SEQUENCE, new
 * applicant links, its reminder queued anew, and any move the applicant asked for settled. The
 * owner's Move and the confirmation of a move the applicant asked for share it.
 */
export async function moveSession(
  tx: Tx,
  ctx: PerformContext,
  loaded: Loaded,
  slot: ConfirmedSlot,
  how: { insist?: boolean; action: 'move' | 'link' },
  now: Date,
): Promise<{ clash?: string; message: string }> {
  const { config, links } = ctx;
  const { row, details } = loaded;
  await lockDay(tx, slot.date);
  const clash = await checkClash(tx, ctx, row, slot, how);
  const sequence = row.calendarSequence + 1;
  await tx
    .update(bookings)
    .set({
      sessionDate: slot.date,
      sessionStart: slot.start,
      sessionEnd: slot.end,
      calendarSequence: sequence,
      moveDate: null,
      moveTime: null,
      moveAskedAt: null,
      updatedAt: now,
    })
    .where(eq(bookings.id, row.id));
  await tx
    .insert(bookingStatusEvents)
    .values({ bookingId: row.id, status: 'rescheduled', at: now, actor: 'owner' });
  await leadFollowsBooking(tx, row.submissionId, 'rescheduled');
  const view = { id: row.id, reference: row.reference, details, meetingUrl: row.meetingUrl };
  const to = {
    to: details.email,
    replyTo: config.ownerEmail,
    ...(await applicantLinks(links, row.id, slot.date)),
  };
  await dropReminder(tx, row.submissionId);
  await enqueueEmails(tx, row.submissionId, [
    confirmedEmail(view, slot, {
      uid: calendarUid(row.id, config.publicUrl),
      sequence,
      organizer: config.mailFrom,
      now,
      ...to,
      rescheduled: true,
    }),
    ...sessionReminder(view, slot, to, now),
  ]);
  return { clash, message: bookingActionCopy.rescheduledDone(slotWords(slot)) };
}

const DAY_MS = 24 * 3600_000;

/**
 * The applicant asks to move their confirmed session to a free half-day (their reschedule
 * link): checked against the availability under the lock of its day, as a request is, and held
 * as a request is; the session stays where it is until the owner confirms the new time or keeps
 * the current one. The owner gets the links to do either; the applicant, word that it is asked.
 */
export async function askToMove(
  tx: Tx,
  ctx: PerformContext,
  loaded: Loaded,
  input: { date?: unknown; time?: unknown },
  now: Date,
): Promise<LinkActAnswer> {
  const { config, links } = ctx;
  const { row, details } = loaded;
  const date = typeof input.date === 'string' && isIsoDate(input.date) ? input.date : '';
  const time = (SESSION_TIMES as readonly unknown[]).includes(input.time)
    ? (input.time as SessionTime)
    : undefined;
  if (!date || !time) {
    const error = bookingActionCopy.rescheduleChoiceMissing;
    throw new Refusal(400, { error, reason: 'taken', fieldErrors: { date: error } });
  }
  try {
    await checkRequestIsFree(
      tx,
      ctx.diary,
      { firstChoiceDate: date, firstChoiceTime: time, secondChoiceDate: '', secondChoiceTime: '' },
      now,
    );
  } catch (error) {
    if (!(error instanceof TakenRefusal)) throw error;
    throw new Refusal(409, {
      error: availabilityCopy.taken,
      reason: 'taken',
      fieldErrors: { date: availabilityCopy.taken },
    });
  }
  const current = slotOf(row)!;
  const asked = { date, time };
  await tx
    .update(bookings)
    .set({ moveDate: date, moveTime: time, moveAskedAt: now, updatedAt: now })
    .where(eq(bookings.id, row.id));
  await tx
    .insert(bookingStatusEvents)
    .values({ bookingId: row.id, status: 'move-asked', at: now, actor: 'applicant' });
  await leadFollowsBooking(tx, row.submissionId, 'move-asked');
  const ownerExpiry = new Date(now.getTime() + OWNER_LINK_DAYS * DAY_MS);
  const confirmExpiry = endOfUkDay(date) < ownerExpiry ? endOfUkDay(date) : ownerExpiry;
  const [confirmMove, keepTime] = await Promise.all([
    signLink(links.tokens, { bookingId: row.id, action: 'confirm-move', expiresAt: confirmExpiry }),
    signLink(links.tokens, { bookingId: row.id, action: 'keep-time', expiresAt: ownerExpiry }),
  ]);
  const view = { id: row.id, reference: row.reference, details, meetingUrl: row.meetingUrl };
  await enqueueEmails(tx, row.submissionId, [
    moveAskedOwnerEmail(view, current, asked, {
      to: config.ownerEmail,
      confirmMoveUrl: linkUrl(links, RESPOND_PATH, confirmMove.token),
      keepTimeUrl: linkUrl(links, RESPOND_PATH, keepTime.token),
    }),
    moveAskedApplicantEmail(view, current, asked, { to: details.email, replyTo: config.ownerEmail }),
  ]);
  return {
    status: 'confirmed',
    message: bookingActionCopy.moveAskedDone(formatChoice(date, time), slotWords(current)),
  };
}

/** The owner keeps the session where it is: the move asked for is cleared and the applicant told. */
export async function keepTime(tx: Tx, ctx: PerformContext, loaded: Loaded, now: Date, actor: BookingActor) {
  const { row, details } = loaded;
  const asked = { date: row.moveDate!, time: row.moveTime as SessionTime };
  await tx
    .update(bookings)
    .set({ moveDate: null, moveTime: null, moveAskedAt: null, updatedAt: now })
    .where(eq(bookings.id, row.id));
  await tx.insert(bookingStatusEvents).values({ bookingId: row.id, status: 'move-kept', at: now, actor });
  await leadFollowsBooking(tx, row.submissionId, 'move-kept');
  await enqueueEmails(tx, row.submissionId, [
    moveKeptEmail({ id: row.id, reference: row.reference, details }, slotOf(row)!, asked, {
      to: details.email,
      replyTo: ctx.config.ownerEmail,
    }),
  ]);
}
