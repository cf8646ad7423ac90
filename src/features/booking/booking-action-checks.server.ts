/**
 * What every action on a booking starts from, whether a signed link, the owner's console or a
 * move: the booking loaded (locked inside the action's transaction), checked for the action (its
 * status, its dates, the notice a move needs), a new time checked against the owner's diary and
 * availability, the refusals they answer with, and the types the actions share.
 */
import { eq } from 'drizzle-orm';
import {
  bookingActionCopy,
  bookingClashCopy,
  RESCHEDULE_NOTICE_HOURS,
  type SessionTime,
} from '~/content/booking';
import type { ServerContext } from '~/server/kit/http/form-handler';
import type { Queryable, Tx } from '~/server/kit/db/client';
import { Refusal } from '~/server/kit/http/request-checks';
import { submissions } from '~/server/kit/db/schema';
import { ukWallTimeToInstant, formatClock, formatUkDate, ukToday } from './booking-dates';
import { calendarUid, type ConfirmedSlot } from './booking-emails.server';
import type { BookingStatus, LinkActAnswer, LinkRefusalReason } from './booking-link-api';
import type { LinkPayload } from './booking-links.server';
import type { BookingRequest } from './booking-schema';
import { bookings } from './tables.server';
import { closedReason } from './availability.server';

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

export type Loaded = { row: typeof bookings.$inferSelect; details: BookingRequest };

export async function loadBooking(q: Queryable, id: string, lock: boolean): Promise<Loaded | undefined> {
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

/** The choice a confirm link is about, or undefined for other links. */
export function chosenWindow(
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
export function checkState(action: LinkPayload['a'], loaded: Loaded | undefined, now: Date): Loaded {
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

export function slotOf(row: Loaded['row']): ConfirmedSlot | undefined {
  return row.sessionDate && row.sessionStart && row.sessionEnd
    ? { date: row.sessionDate, start: row.sessionStart, end: row.sessionEnd }
    : undefined;
}

export function slotWords(slot: ConfirmedSlot): string {
  return `${formatUkDate(slot.date)}, ${formatClock(slot.start)}-${formatClock(slot.end)} UK time`;
}

export type PerformContext = Pick<ServerContext, 'config' | 'db' | 'links' | 'diary'>;

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
export async function checkClash(
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
