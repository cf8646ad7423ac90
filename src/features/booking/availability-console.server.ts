/**
 * The Availability area of the owner's console: reads and saves the settings that decide which
 * half-days the booking wizard offers (decision 036). Each save is audited in its transaction,
 * naming the parts that changed.
 */
import { BOOKING_HORIZON_DAYS } from '~/content/booking';
import { audit } from '~/server/kit/audit';
import type { Queryable } from '~/server/kit/db/client';
import type { ConsoleArea } from '~/server/kit/http/owner-routes';
import { addDays, ukDateOf } from '~/lib/uk-dates';
import type { AvailabilitySettings } from './availability';
import { availabilityRoutes, type AvailabilityAnswer } from './availability-console-contract';
import { BANK_HOLIDAYS, readAvailabilitySettings, saveAvailabilitySettings } from './availability.server';
import { bookingAvailability } from './tables.server';

/** The audit's words for each part of the settings. */
const PARTS: Record<keyof AvailabilitySettings, string> = {
  weekly: 'weekly hours',
  daysOff: 'days off',
  openHolidays: 'bank holidays',
  noticeDays: 'notice',
  windowDays: 'booking window',
  dailyCap: 'daily cap',
};

function changedParts(before: AvailabilitySettings, after: AvailabilitySettings): string[] {
  return (Object.keys(PARTS) as (keyof AvailabilitySettings)[])
    .filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]))
    .map((key) => PARTS[key]);
}

async function answer(q: Queryable, now: Date): Promise<AvailabilityAnswer> {
  const settings = await readAvailabilitySettings(q);
  const [row] = await q.select({ updatedAt: bookingAvailability.updatedAt }).from(bookingAvailability);
  const today = ukDateOf(now);
  const until = addDays(today, BOOKING_HORIZON_DAYS);
  const open = new Set(settings.openHolidays);
  const bankHolidays = [...BANK_HOLIDAYS]
    .filter(([date]) => date >= today && date <= until)
    .map(([date, name]) => ({ date, name, open: open.has(date) }));
  return { settings, bankHolidays, updatedAt: row ? row.updatedAt.toISOString() : null };
}

export const availabilityArea: ConsoleArea = (routes, { db, clock }) => {
  routes.on(availabilityRoutes.view, async () => answer(db, clock()));

  routes.on(availabilityRoutes.save, async ({ body, owner }) => {
    const now = clock();
    return db.transaction(async (tx) => {
      const before = await readAvailabilitySettings(tx);
      await saveAvailabilitySettings(tx, body, now);
      const changed = changedParts(before, body);
      if (changed.length > 0)
        await audit(tx, owner.email, 'availability.change', undefined, { changed: changed.join(', ') });
      return answer(tx, now);
    });
  });
};
