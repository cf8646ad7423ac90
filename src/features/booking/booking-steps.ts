/** The fields of each step of the wizard: plain data, so the page needs no schema to know them. */
import type { BookingFormValues } from './booking-schema';

export const STEP1_FIELDS = [
  'sessionType',
  'firstChoiceDate',
  'firstChoiceTime',
  'secondChoiceDate',
  'secondChoiceTime',
] as const satisfies readonly (keyof BookingFormValues)[];

export const STEP2_FIELDS = [
  'firstName',
  'lastName',
  'email',
  'phone',
  'company',
  'role',
  'notes',
] as const satisfies readonly (keyof BookingFormValues)[];
