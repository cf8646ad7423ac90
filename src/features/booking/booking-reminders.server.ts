/**
 * A confirmed session's reminder (decision 038): an outbox row due REMINDER_HOURS_BEFORE the
 * start and not sent once REMINDER_GRACE_HOURS late; dropped when the session is cancelled,
 * queued anew when it moves (booking-decisions.server.ts and booking-moves.server.ts call both in
 * their transactions).
 */
import { and, eq } from 'drizzle-orm';
import { REMINDER_GRACE_HOURS, REMINDER_HOURS_BEFORE } from '~/content/booking';
import type { Queryable } from '~/server/kit/db/client';
import { outbox } from '~/server/kit/db/schema';
import type { OutgoingEmail } from '~/server/kit/mail/outbox';
import { ukWallTimeToInstant } from './booking-dates';
import { reminderEmail, REMINDER_KIND, type BookingView, type ConfirmedSlot } from './booking-emails.server';

const HOUR_MS = 3600_000;

/**
 * The session's reminder (decision 038): due REMINDER_HOURS_BEFORE its start, not sent once
 * REMINDER_GRACE_HOURS have passed since; none when that time is already past (a session
 * confirmed or moved within the last day before it).
 */
export function sessionReminder(
  view: BookingView,
  slot: ConfirmedSlot,
  o: { to: string; replyTo: string; cancelUrl: string },
  now: Date,
): OutgoingEmail[] {
  const sendAt = new Date(
    ukWallTimeToInstant(slot.date, slot.start).getTime() - REMINDER_HOURS_BEFORE * HOUR_MS,
  );
  if (sendAt.getTime() <= now.getTime()) return [];
  const notAfter = new Date(sendAt.getTime() + REMINDER_GRACE_HOURS * HOUR_MS);
  return [reminderEmail(view, slot, { ...o, sendAt, notAfter })];
}

/** Removes the booking's reminder not yet sent (the session is cancelled, or moved and reminded anew). */
export async function dropReminder(tx: Queryable, submissionId: string): Promise<void> {
  await tx
    .delete(outbox)
    .where(
      and(
        eq(outbox.submissionId, submissionId),
        eq(outbox.kind, REMINDER_KIND),
        eq(outbox.status, 'pending'),
      ),
    );
}
