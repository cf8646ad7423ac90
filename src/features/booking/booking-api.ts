/**
 * The booking's one request: `formType: 'booking'` with every field, the spam-trap fields,
 * and an Idempotency-Key header so a retry (a lost answer, a double click) books once.
 */
import { FORM_ENDPOINT, postJson } from '~/lib/api-client';
import type { SpamTrapFields } from '~/lib/spam-traps';
import type { BookingRequest } from './booking-schema';

export const BOOKING_FORM_TYPE = 'booking';

export type BookingResult = { id: string; reference: string };

/** Resolves with the booking's reference; rejects with the server's message on any failure. */
export async function submitBooking(
  values: BookingRequest,
  options: { idempotencyKey: string; traps: SpamTrapFields },
): Promise<BookingResult> {
  const result = await postJson<Partial<BookingResult>>(
    FORM_ENDPOINT,
    { formType: BOOKING_FORM_TYPE, ...values, ...options.traps },
    { 'Idempotency-Key': options.idempotencyKey },
  );
  if (!result.ok) throw new Error(result.error);
  const { id, reference } = result.data;
  if (typeof id !== 'string' || typeof reference !== 'string')
    throw new Error('The answer had no booking reference.');
  return { id, reference };
}
