/**
 * A booking request is a lead (decision 040), and where it stands follows the booking: once the
 * owner has answered it (confirmed, declined, moved, kept at its time) or it was cancelled, there
 * is nothing left to do, so it is handled; when the applicant asks to move their session, it needs
 * the owner again, so it is new. Written in the status change's own transaction.
 */
import { eq } from 'drizzle-orm';
import type { LeadState } from '~/contract/lead-states';
import type { Tx } from '~/server/kit/db/client';
import { submissions } from '~/server/kit/db/schema';

/** A booking's status events after its request, as `booking_status_events` records them. */
export type BookingChange =
  'confirmed' | 'declined' | 'cancelled' | 'rescheduled' | 'move-asked' | 'move-kept';

export function leadStateAfter(change: BookingChange): LeadState {
  return change === 'move-asked' ? 'new' : 'handled';
}

export async function leadFollowsBooking(tx: Tx, submissionId: string, change: BookingChange): Promise<void> {
  await tx
    .update(submissions)
    .set({ leadState: leadStateAfter(change) })
    .where(eq(submissions.id, submissionId));
}
