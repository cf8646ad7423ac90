/**
 * The schema of the owner's availability settings (decision 036): what the console's Availability
 * page may save, checked at the edge. Apart from availability.ts, whose rules the booking page
 * reads, so that zod stays out of that page's first load (decision 013).
 */
import { BOOKING_HORIZON_DAYS } from '~/content/booking';
import { isIsoDate, toUtcDate } from '~/lib/uk-dates';
import { z } from '~/lib/zod';
import { AVAILABILITY_LIMITS, WEEKDAYS, type AvailabilitySettings, type Weekday } from './availability';

const isoDate = z.string().refine(isIsoDate, 'Please enter a date as day, month and year');

const DayOffSchema = z
  .object({
    from: isoDate,
    to: isoDate,
    note: z
      .string()
      .trim()
      .max(AVAILABILITY_LIMITS.note, `Please keep the note under ${AVAILABILITY_LIMITS.note} characters`),
  })
  .refine((d) => d.from <= d.to, { message: 'The last day off must be on or after the first', path: ['to'] })
  .refine(
    (d) =>
      toUtcDate(d.to).getTime() - toUtcDate(d.from).getTime() < AVAILABILITY_LIMITS.rangeDays * 86_400_000,
    {
      message: `One entry can cover at most ${AVAILABILITY_LIMITS.rangeDays} days`,
      path: ['to'],
    },
  );

const HalvesSchema = z.object({ morning: z.boolean(), afternoon: z.boolean() });

export const MEETING_LINK_REFUSED = 'Please paste the meeting link as a full web address (https://…).';

export function isHttpsUrl(value: string): boolean {
  try {
    return new URL(value).protocol === 'https:';
  } catch {
    return false;
  }
}

/** A video session's meeting link: an https address of at most 500 characters, or '' for none. */
const MeetingLinkSchema = z
  .string()
  .trim()
  .max(500, 'Please keep the meeting link under 500 characters.')
  .refine((value) => value === '' || isHttpsUrl(value), MEETING_LINK_REFUSED);

/** What the owner sets on the console's Availability page; the server checks it with this schema. */
export const AvailabilitySettingsSchema = z.object({
  weekly: z.object(
    Object.fromEntries(WEEKDAYS.map((d) => [d, HalvesSchema])) as Record<Weekday, typeof HalvesSchema>,
  ),
  daysOff: z
    .array(DayOffSchema)
    .max(AVAILABILITY_LIMITS.daysOff, `At most ${AVAILABILITY_LIMITS.daysOff} days off`),
  /** Bank holidays the owner opened for sessions (every other one is closed). */
  openHolidays: z
    .array(isoDate)
    .max(AVAILABILITY_LIMITS.openHolidays)
    .transform((dates) => [...new Set(dates)].sort()),
  /** Working days of notice: 1 offers nothing before the next working day. */
  noticeDays: z
    .number()
    .int('Please enter a whole number of days')
    .min(1, 'The notice is at least one working day')
    .max(
      AVAILABILITY_LIMITS.noticeDays,
      `The notice is at most ${AVAILABILITY_LIMITS.noticeDays} working days`,
    ),
  /** How far ahead a visitor may ask, in days from today. */
  windowDays: z
    .number()
    .int('Please enter a whole number of days')
    .min(7, 'The booking window is at least 7 days')
    .max(BOOKING_HORIZON_DAYS, `The booking window is at most ${BOOKING_HORIZON_DAYS} days (12 months)`),
  /** Most sessions (confirmed and requested) in one day. */
  dailyCap: z
    .number()
    .int('Please enter a whole number of sessions')
    .min(1, 'The daily cap is at least one session')
    .max(AVAILABILITY_LIMITS.dailyCap, `The daily cap is at most ${AVAILABILITY_LIMITS.dailyCap} sessions`),
  /** The meeting link a Zoom session's confirmation offers: '' or an https address. */
  meetingLink: MeetingLinkSchema,
});

// The schema gives exactly the settings' type.
/** The weekdays' names, as the Availability page and the owner's refusals write them. */
export const WEEKDAY_NAMES: Record<Weekday, string> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
};

const settingsTypeMatches: z.output<typeof AvailabilitySettingsSchema> extends AvailabilitySettings
  ? AvailabilitySettings extends z.output<typeof AvailabilitySettingsSchema>
    ? true
    : false
  : false = true;
void settingsTypeMatches;
