/**
 * What the signed links do. `inspectLink` says what a link is for (the page shows it before
 * anything happens); `performLink` does it in one transaction: the link's id is stored (a
 * second use finds it and is refused), the booking row is locked and moved to its new status,
 * the change is recorded with its time, and the e-mails it causes are queued.
 */
import { eq } from 'drizzle-orm';
import {
  availabilityCopy,
  bookingActionCopy,
  bookingClashCopy,
  RESCHEDULE_NOTICE_HOURS,
  OWNER_LINK_DAYS,
  SESSION_TIMES,
  sessionTypeLabels,
  SESSION_MINUTES,
  type SessionTime,
} from '~/content/booking';
import { UUID_PATTERN } from '~/lib/patterns';
import type { ServerContext } from '~/server/kit/http/form-handler';
import type { Links } from '~/server/kit/http/links';
import type { Queryable, Tx } from '~/server/kit/db/client';
import { Refusal } from '~/server/kit/http/request-checks';
import { submissions } from '~/server/kit/db/schema';
import { enqueueEmails, type OutgoingEmail } from '~/server/kit/mail/outbox';
import {
  ukWallTimeToInstant,
  addMinutesToClock,
  endOfUkDay,
  formatChoice,
  formatClock,
  formatUkDate,
  latestBookableDate,
  startTimeOption,
  startTimesFor,
  ukToday,
} from './booking-dates';
import { DECLINE_SUGGESTION_REFUSED, RESCHEDULE_DATE_REFUSED } from './booking-console-contract';
import {
  calendarUid,
  cancelledApplicantEmail,
  cancelledOwnerEmail,
  confirmedEmail,
  declinedEmail,
  moveAskedApplicantEmail,
  moveAskedOwnerEmail,
  moveKeptEmail,
  type ApplicantLinks,
  type BookingView,
  type ConfirmedSlot,
} from './booking-emails.server';
import type {
  BookingStatus,
  LinkActAnswer,
  LinkActionName,
  LinkRefusalReason,
  LinkView,
} from './booking-link-api';
import { signLink, verifyLink, type LinkPayload } from './booking-links.server';
import { CANCEL_PATH, RESCHEDULE_PATH, RESPOND_PATH } from './booking-paths';
import type { BookingRequest } from './booking-schema';
import { dropReminder, sessionReminder } from './booking-reminders.server';
import { bookingLinkUses, bookingStatusEvents, bookings } from './tables.server';
import {
  checkRequestIsFree,
  closedReason,
  lockDay,
  readAvailabilitySettings,
  TakenRefusal,
} from './availability.server';
import { isHttpsUrl, MEETING_LINK_REFUSED } from './availability-settings';
import { isIsoDate } from '~/lib/uk-dates';

export type BookingClock = () => Date;

const refusals = bookingActionCopy.refusals;

/**
 * A link that cannot be used, with the status code and the sentence the page shows; answered
 * `{error, reason}` by the API's error handler.
 */
export class LinkRefusal extends Refusal {
  constructor(
    readonly reason: LinkRefusalReason,
    status: number,
    message: string,
  ) {
    super(status, { error: message, reason });
  }
}

export function linkUrl(links: Links, path: string, token: string): string {
  return links.absolute(`${path}?token=${encodeURIComponent(token)}`);
}

/** The last UK day on which the booking could take place: its cancel link works until then. */
export function lastPossibleDay(d: Pick<BookingRequest, 'firstChoiceDate' | 'secondChoiceDate'>): string {
  return d.secondChoiceDate && d.secondChoiceDate > d.firstChoiceDate
    ? d.secondChoiceDate
    : d.firstChoiceDate;
}

type Loaded = { row: typeof bookings.$inferSelect; details: BookingRequest };

async function loadBooking(q: Queryable, id: string, lock: boolean): Promise<Loaded | undefined> {
  const query = q
    .select({ row: bookings, fields: submissions.fields })
    .from(bookings)
    .innerJoin(submissions, eq(submissions.id, bookings.submissionId))
    .where(eq(bookings.id, id));
  const [found] = lock ? await query.for('update', { of: bookings }) : await query;
  if (!found) return undefined;
  const fields = typeof found.fields === 'string' ? JSON.parse(found.fields) : found.fields;
  return { row: found.row, details: fields as BookingRequest };
}

async function verified(links: Links, token: unknown, now: Date): Promise<LinkPayload> {
  const result = await verifyLink(links.tokens, token, now);
  if (result.ok && UUID_PATTERN.test(result.payload.b)) return result.payload;
  if (!result.ok && result.reason === 'expired') throw new LinkRefusal('expired', 410, refusals.expired);
  throw new LinkRefusal('invalid', 403, refusals.invalid);
}

/** The choice a confirm link is about, or undefined for other links. */
function chosenWindow(
  action: LinkPayload['a'],
  row: Loaded['row'],
): { date: string; time: SessionTime } | undefined {
  if (action === 'confirm-first')
    return { date: row.firstChoiceDate, time: row.firstChoiceTime as SessionTime };
  if (action === 'confirm-second' && row.secondChoiceDate && row.secondChoiceTime) {
    return { date: row.secondChoiceDate, time: row.secondChoiceTime as SessionTime };
  }
  if (action === 'confirm-move' && row.moveDate && row.moveTime)
    return { date: row.moveDate, time: row.moveTime as SessionTime };
  return undefined;
}

const HOUR_MS = 3600_000;

/** The instant a confirmed slot starts. */
const startOf = (slot: ConfirmedSlot) => ukWallTimeToInstant(slot.date, slot.start).getTime();

/** Refuses a link whose booking has moved on, or whose date has passed. */
function checkState(action: LinkPayload['a'], loaded: Loaded | undefined, now: Date): Loaded {
  if (!loaded) throw new LinkRefusal('invalid', 403, refusals.invalid);
  const { row } = loaded;
  const status = row.status;
  const forConfirmed = action === 'reschedule' || action === 'confirm-move' || action === 'keep-time';
  const open =
    action === 'cancel'
      ? status === 'requested' || status === 'confirmed'
      : forConfirmed
        ? status === 'confirmed'
        : status === 'requested';
  if (!open) throw new LinkRefusal('closed', 409, refusals.closed(status));
  const slot = slotOf(row);
  // A session that has begun can be neither cancelled nor moved by a link.
  if ((action === 'cancel' || action === 'reschedule') && slot && startOf(slot) <= now.getTime())
    throw new LinkRefusal('past', 410, refusals.sessionOver);
  if (action === 'reschedule') {
    if (!slot) throw new LinkRefusal('invalid', 403, refusals.invalid);
    if (startOf(slot) - now.getTime() < RESCHEDULE_NOTICE_HOURS * HOUR_MS)
      throw new LinkRefusal('late', 410, refusals.late);
    if (row.moveDate) throw new LinkRefusal('closed', 409, refusals.moveAsked);
  }
  if ((action === 'confirm-move' || action === 'keep-time') && !row.moveDate)
    throw new LinkRefusal('closed', 409, refusals.noMove);
  if (action === 'confirm-first' || action === 'confirm-second' || action === 'confirm-move') {
    const window = chosenWindow(action, row);
    if (!window) throw new LinkRefusal('invalid', 403, refusals.invalid);
    if (window.date < ukToday(now)) throw new LinkRefusal('past', 410, refusals.past);
  }
  return loaded;
}

function slotOf(row: Loaded['row']): ConfirmedSlot | undefined {
  return row.sessionDate && row.sessionStart && row.sessionEnd
    ? { date: row.sessionDate, start: row.sessionStart, end: row.sessionEnd }
    : undefined;
}

export function slotWords(slot: ConfirmedSlot): string {
  return `${formatUkDate(slot.date)}, ${formatClock(slot.start)}-${formatClock(slot.end)} UK time`;
}

function choiceWords(row: Loaded['row']): string[] {
  const out = [formatChoice(row.firstChoiceDate, row.firstChoiceTime as SessionTime)];
  if (row.secondChoiceDate && row.secondChoiceTime) {
    out.push(formatChoice(row.secondChoiceDate, row.secondChoiceTime as SessionTime));
  }
  return out;
}

async function alreadyUsed(q: Queryable, tokenId: string): Promise<boolean> {
  const rows = await q
    .select({ id: bookingLinkUses.tokenId })
    .from(bookingLinkUses)
    .where(eq(bookingLinkUses.tokenId, tokenId));
  return rows.length > 0;
}

export async function inspectLink(
  ctx: Pick<ServerContext, 'db' | 'links'>,
  token: unknown,
  now: Date,
): Promise<LinkView> {
  const payload = await verified(ctx.links, token, now);
  if (await alreadyUsed(ctx.db, payload.j)) throw new LinkRefusal('used', 409, refusals.used);
  const { row, details } = checkState(payload.a, await loadBooking(ctx.db, payload.b, false), now);
  const window = chosenWindow(payload.a, row);
  const slot = slotOf(row);
  return {
    action: payload.a,
    reference: row.reference,
    status: row.status,
    sessionType: sessionTypeLabels[details.sessionType],
    choices: choiceWords(row),
    applicantName:
      payload.a === 'cancel' || payload.a === 'reschedule'
        ? undefined
        : `${details.firstName} ${details.lastName}`,
    choice: window
      ? {
          label: formatChoice(window.date, window.time),
          startTimes: startTimesFor(window.time).map(startTimeOption),
        }
      : undefined,
    session: slot ? slotWords(slot) : undefined,
    // A Zoom session's confirm link asks for its meeting link, the settings' default filled in.
    meetingLink:
      window && payload.a !== 'confirm-move' && row.sessionType === 'zoom'
        ? (await readAvailabilitySettings(ctx.db)).meetingLink
        : undefined,
    move: row.moveDate && row.moveTime ? formatChoice(row.moveDate, row.moveTime as SessionTime) : undefined,
  };
}

type PerformContext = Pick<ServerContext, 'config' | 'db' | 'links' | 'diary'>;

/**
 * A session's time that clashes with the owner's diary (another confirmed session, a published
 * masterclass): 409, the clash named as the start time's error (the console offers to insist).
 */
export class ClashRefusal extends Refusal {
  constructor(message: string) {
    super(409, { error: message, reason: 'clash', fieldErrors: { start: message } });
  }
}

/**
 * What `slot` clashes with in the owner's diary, the booking's own entry aside, or else what closes
 * its day or half-day in the owner's availability (decision 036): undefined when nothing; refused
 * when the owner does not insist (`how`: the console's action, or the e-mailed
 * link, which cannot insist); else the clash's label, for the audit row.
 */
async function checkClash(
  tx: Tx,
  ctx: PerformContext,
  row: Loaded['row'],
  slot: ConfirmedSlot,
  how: { insist?: boolean; action: 'confirm' | 'move' | 'link' },
): Promise<string | undefined> {
  const clash = await ctx.diary.clash(tx, slot, calendarUid(row.id, ctx.config.publicUrl));
  if (!clash) {
    // A day or half-day the owner's availability closes (a day off, a bank holiday, weekly hours).
    const closed = await closedReason(tx, slot.date, slot.start);
    if (!closed || how.insist) return closed;
    const day = formatUkDate(slot.date);
    throw new ClashRefusal(
      how.action === 'link'
        ? bookingClashCopy.closedByLink(closed, day)
        : bookingClashCopy.closed(closed, day, how.action),
    );
  }
  if (how.insist) return clash.label;
  const when = `${formatUkDate(clash.start.date)}, ${formatClock(clash.start.time)}-${formatClock(clash.end.time)} UK time`;
  throw new ClashRefusal(
    how.action === 'link'
      ? bookingClashCopy.clashByLink(clash.label, when)
      : bookingClashCopy.clash(clash.label, when, how.action),
  );
}

export type BookingActor = 'owner' | 'applicant';

/** What an action may be given: a start time, insisting, a new half-day, a decline's words. */
export type OwnerInput = {
  start?: unknown;
  insist?: boolean;
  date?: unknown;
  time?: unknown;
  reason?: unknown;
  suggestDate?: unknown;
  suggestTime?: unknown;
  /** A Zoom session's meeting link, given on confirming (else the settings' default). */
  meetingLink?: unknown;
};

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

/** The applicant's cancel and reschedule links of a session on `date`: both work until that day ends. */
async function applicantLinks(links: Links, bookingId: string, date: string): Promise<ApplicantLinks> {
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

export async function performLink(
  ctx: PerformContext,
  token: unknown,
  input: OwnerInput,
  now: Date,
): Promise<{ bookingId: string; status: BookingStatus; answer: LinkActAnswer }> {
  const payload = await verified(ctx.links, token, now);

  return ctx.db.transaction(async (tx) => {
    const locked = await loadBooking(tx, payload.b, true);
    if (!locked) throw new LinkRefusal('invalid', 403, refusals.invalid);
    const used = await tx
      .insert(bookingLinkUses)
      .values({ tokenId: payload.j, bookingId: payload.b, action: payload.a, usedAt: now })
      .onConflictDoNothing()
      .returning({ id: bookingLinkUses.tokenId });
    if (used.length === 0) throw new LinkRefusal('used', 409, refusals.used);
    const loaded = checkState(payload.a, locked, now);
    const actor = payload.a === 'cancel' || payload.a === 'reschedule' ? 'applicant' : 'owner';
    const { answer } = await applyAction(tx, ctx, loaded, payload.a, input, now, actor, 'link');
    return { bookingId: loaded.row.id, status: answer.status, answer };
  });
}

/** What an owner's action did: the booking, its reference, its new status and the sentence shown. */
export type OwnerActed = {
  bookingId: string;
  reference: string;
  status: BookingStatus;
  answer: LinkActAnswer;
  /** The owner insisted on a time that clashes with this entry of the diary (its label). */
  clash?: string;
};

/** Runs last inside an owner's action's transaction (the console's audit row). */
export type OwnerActionHook = (tx: Tx, acted: OwnerActed) => Promise<void>;

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
async function moveSession(
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

const DAY_MS = 24 * HOUR_MS;

/**
 * The applicant asks to move their confirmed session to a free half-day (their reschedule
 * link): checked against the availability under the lock of its day, as a request is, and held
 * as a request is; the session stays where it is until the owner confirms the new time or keeps
 * the current one. The owner gets the links to do either; the applicant, word that it is asked.
 */
async function askToMove(
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

/** The owner keeps the session where it is: the move asked for is cleared and the applicant told. */
async function keepTime(tx: Tx, ctx: PerformContext, loaded: Loaded, now: Date, actor: BookingActor) {
  const { row, details } = loaded;
  const asked = { date: row.moveDate!, time: row.moveTime as SessionTime };
  await tx
    .update(bookings)
    .set({ moveDate: null, moveTime: null, moveAskedAt: null, updatedAt: now })
    .where(eq(bookings.id, row.id));
  await tx.insert(bookingStatusEvents).values({ bookingId: row.id, status: 'move-kept', at: now, actor });
  await enqueueEmails(tx, row.submissionId, [
    moveKeptEmail({ id: row.id, reference: row.reference, details }, slotOf(row)!, asked, {
      to: details.email,
      replyTo: ctx.config.ownerEmail,
    }),
  ]);
}

/**
 * Moves a locked and checked booking to its new status, records the change with its time and
 * actor, and queues the e-mails it causes: what a link and the console share.
 */
async function applyAction(
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
  await enqueueEmails(tx, row.submissionId, emails);
  return { answer: { status, message }, clash };
}
