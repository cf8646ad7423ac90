/**
 * Dates a test can book (decision 036): a request holds its first-choice half-day, so two tests
 * must not ask for the same one. The dates come from the server's own availability answer (both
 * half-days free), shared out between the workers that run at once by day number (modulo the
 * number of workers); a worker's tests run one after the other and each reads what is still free.
 */
import { expect, test, type APIRequestContext } from '@playwright/test';
import { answerEnd, stateIn, type PublicAvailability } from '../../../src/features/booking/availability';
import { addDays, toUtcDate } from '../../../src/lib/uk-dates';

export async function freeDays(request: APIRequestContext, count: number, skip = 0): Promise<string[]> {
  const { parallelIndex, config } = test.info();
  const workers = Math.max(1, Number(config.workers) || 1);
  const days: string[] = [];
  // A page of the answer at a time (the server gives about three months), until enough are found.
  for (let from = ''; days.length < skip + count;) {
    const res = await request.get(`/api/bookings/availability${from ? `?from=${from}` : ''}`);
    expect(res.status()).toBe(200);
    const answer = (await res.json()) as PublicAvailability;
    if (!answer.halves) throw new Error('no free days left in the booking window');
    for (let date = answer.from; stateIn(answer, date, 'morning') !== undefined; date = addDays(date, 1)) {
      const dayNumber = Math.round(toUtcDate(date).getTime() / 86_400_000);
      if (dayNumber % workers !== parallelIndex % workers) continue;
      if (stateIn(answer, date, 'morning') !== 'free' || stateIn(answer, date, 'afternoon') !== 'free')
        continue;
      days.push(date);
    }
    from = answerEnd(answer);
  }
  return days.slice(skip, skip + count);
}
