/**
 * The console's Availability page (availability-console.server.ts): the owner's weekly hours,
 * days off, bank holidays, notice, booking window and daily cap (decision 036). The owner's alone.
 */
import { route } from '~/contract/route';
import type { AvailabilitySettings } from './availability';
import { AvailabilitySettingsSchema } from './availability-settings';

/** A bank holiday of England and Wales inside the booking window, and whether the owner opened it. */
export type BankHolidayRow = { date: string; name: string; open: boolean };

export type AvailabilityAnswer = {
  settings: AvailabilitySettings;
  /** The bank holidays from today to the end of the longest booking window. */
  bankHolidays: BankHolidayRow[];
  /** When the settings were last saved; null: never (the defaults). */
  updatedAt: string | null;
};

export const availabilityRoutes = {
  view: route<AvailabilityAnswer>()({ method: 'GET', path: '/availability' }),
  /** Saves every setting at once; 400 `{error, fieldErrors}` naming the part to correct. */
  save: route<AvailabilityAnswer>()({
    method: 'POST',
    path: '/availability',
    body: AvailabilitySettingsSchema,
    invalid: 'Please correct the highlighted settings.',
  }),
};
