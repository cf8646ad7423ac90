/**
 * The console's Availability page (availability-console.server.ts): the owner's weekly hours,
 * days off, bank holidays, notice, booking window and daily cap (decision 036). The owner's alone.
 */
import { route } from '~/contract/route';
import { z } from '~/lib/zod';
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
  calendar: CalendarFeedStatus;
};

/** The owner's own calendar (decision 037), as the Availability page shows it. */
export type CalendarFeedStatus = {
  /** The secret address, masked (its host and last four characters); null: none set. */
  address: string | null;
  /** Events in the last good copy (a recurring series counts once), and the busy half-days it closes. */
  events: number;
  busyHalfDays: number;
  lastGoodAt: string | null;
  lastAttemptAt: string | null;
  /** The last fetch's error, for the owner; null when the last fetch was good. */
  error: string | null;
};

/** What the owner pastes: the calendar's secret address, or nothing to remove it. */
export const CalendarAddressSchema = z.strictObject({
  address: z
    .string()
    .trim()
    .max(2000, 'That address is too long to be a calendar address.')
    .refine((value) => {
      if (value === '') return true;
      try {
        return ['https:', 'http:', 'webcal:', 'webcals:'].includes(new URL(value).protocol);
      } catch {
        return false;
      }
    }, 'Paste the secret address of your calendar, starting with https:// or webcal://.'),
});

export const availabilityRoutes = {
  view: route<AvailabilityAnswer>()({ method: 'GET', path: '/availability' }),
  /** Saves every setting at once; 400 `{error, fieldErrors}` naming the part to correct. */
  save: route<AvailabilityAnswer>()({
    method: 'POST',
    path: '/availability',
    body: AvailabilitySettingsSchema,
    invalid: 'Please correct the highlighted settings.',
  }),
  /** Sets the calendar's address (and reads it at once), or removes it with an empty address. */
  calendar: route<AvailabilityAnswer>()({
    method: 'POST',
    path: '/availability/calendar',
    body: CalendarAddressSchema,
  }),
  /** Reads the calendar now. */
  refreshCalendar: route<AvailabilityAnswer>()({ method: 'POST', path: '/availability/calendar/refresh' }),
};
