/**
 * The booking's one request: `formType: 'booking'` with every field, the spam-trap fields,
 * and an Idempotency-Key header so a retry (a lost answer, a double click) books once.
 */
import { FILL_TIME_FIELD, HONEYPOT_FIELD } from '~/lib/form-guard';
import type { BookingRequest } from './booking-schema';

export const FORM_ENDPOINT = '/api/send-contact-email';

export type BookingResult = { id: string; reference: string };

export async function submitBooking(
  values: BookingRequest,
  options: { idempotencyKey: string; elapsedMs: number; honeypot?: string },
): Promise<BookingResult> {
  const response = await fetch(FORM_ENDPOINT, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Idempotency-Key': options.idempotencyKey },
    body: JSON.stringify({
      formType: 'booking',
      ...values,
      [HONEYPOT_FIELD]: options.honeypot ?? '',
      [FILL_TIME_FIELD]: options.elapsedMs,
    }),
  });
  let payload: unknown;
  try {
    payload = await response.json();
  } catch {
    payload = undefined;
  }
  const body = (typeof payload === 'object' && payload !== null ? payload : {}) as Record<string, unknown>;
  if (!response.ok) {
    throw new Error(typeof body.error === 'string' ? body.error : `The server answered ${response.status}`);
  }
  if (typeof body.id !== 'string' || typeof body.reference !== 'string') {
    throw new Error('The server answer had no booking reference');
  }
  return { id: body.id, reference: body.reference };
}
