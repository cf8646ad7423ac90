/**
 * The booking's one request: `formType: 'booking'` with every field, the spam-trap fields,
 * and an Idempotency-Key header so a retry (a lost answer, a double click) books once.
 */
import { FORM_ENDPOINT, postJson } from '~/lib/api-client';
import type { SpamTrapFields } from '~/lib/spam-traps';
import type { PublicAvailability } from './availability';
import type { BookingRequest } from './booking-schema';

export const BOOKING_FORM_TYPE = 'booking';
export const AVAILABILITY_ENDPOINT = '/api/bookings/availability';

export type BookingResult = { id: string; reference: string };

/** The server refused a step-1 choice (a half-day taken since the page loaded): 409, the field named. */
export class ChoiceTaken extends Error {
  constructor(
    message: string,
    readonly fieldErrors: Record<string, string>,
  ) {
    super(message);
  }
}

/** The owner's availability as the wizard shows it (decision 036); null when it could not be read. */
export async function fetchAvailability(from?: string): Promise<PublicAvailability | null> {
  try {
    const url = from ? `${AVAILABILITY_ENDPOINT}?from=${encodeURIComponent(from)}` : AVAILABILITY_ENDPOINT;
    const response = await fetch(url, {
      headers: { Accept: 'application/json' },
      cache: 'no-store',
    });
    if (!response.ok) return null;
    const answer = (await response.json()) as Partial<PublicAvailability>;
    return typeof answer.from === 'string' && typeof answer.halves === 'string'
      ? { from: answer.from, halves: answer.halves }
      : null;
  } catch {
    // Offline or refused: the wizard offers every date, and the server checks the request.
    return null;
  }
}

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
  if (!result.ok) {
    if (result.status === 409 && result.fieldErrors) throw new ChoiceTaken(result.error, result.fieldErrors);
    throw new Error(result.error);
  }
  const { id, reference } = result.data;
  if (typeof id !== 'string' || typeof reference !== 'string')
    throw new Error('The answer had no booking reference.');
  return { id, reference };
}
