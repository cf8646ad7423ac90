/** The fields of the wizard's first step: plain data, so the page needs no schema to know them. */
import type { BookingFormValues } from './booking-schema';

export const STEP1_FIELDS = [
  'sessionType',
  'firstChoiceDate',
  'firstChoiceTime',
  'secondChoiceDate',
  'secondChoiceTime',
] as const satisfies readonly (keyof BookingFormValues)[];
