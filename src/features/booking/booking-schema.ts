/**
 * The booking request: one schema for the wizard and the server. The rules and messages are
 * the spec's validation table (section 5); beyond it, a date must be from tomorrow (UK time)
 * to a year ahead, and a second choice must name a different slot from the first.
 */
import { z } from '~/lib/zod';
import { SESSION_TIMES, SESSION_TYPES, bookingLimits, bookingMessages as msg } from '~/content/booking';
import { earliestBookableDate, isIsoDate, latestBookableDate } from './booking-dates';

// Single-line fields end up in e-mail subjects and headers: control characters become spaces.
const singleLine = (max: number, missing: string) =>
  z
    .string({ error: missing })
    // eslint-disable-next-line no-control-regex
    .transform((s) => s.replace(/[\u0000-\u001f\u007f]/g, ' ').trim())
    .pipe(z.string().max(max, msg.tooLong(max)));

const atLeastTwo = (max: number, message: string) =>
  singleLine(max, message).pipe(z.string().min(2, message));

/** The step-1 date rules against `now`: tomorrow (UK) at the earliest, a year ahead at the latest. */
export function dateIssue(value: string, now: Date): string | undefined {
  if (value === '') return msg.date;
  if (!isIsoDate(value)) return msg.dateInvalid;
  if (value < earliestBookableDate(now)) return msg.dateNotFuture;
  if (value > latestBookableDate(now)) return msg.dateTooFar;
  return undefined;
}

function dateField(now: () => Date, optional: boolean) {
  return z.string({ error: msg.date }).superRefine((value, ctx) => {
    if (optional && value === '') return;
    const issue = dateIssue(value, now());
    if (issue) ctx.addIssue({ code: 'custom', message: issue });
  });
}

const sessionTime = z.enum(SESSION_TIMES, { error: msg.time });

function step1Shape(now: () => Date) {
  return {
    sessionType: z.enum(SESSION_TYPES, { error: msg.sessionType }),
    firstChoiceDate: dateField(now, false),
    firstChoiceTime: sessionTime,
    secondChoiceDate: dateField(now, true).optional().default(''),
    // The form keeps an unanswered radio group as ''.
    secondChoiceTime: z
      .union([sessionTime, z.literal('')])
      .optional()
      .default(''),
  };
}

const step2Shape = {
  firstName: atLeastTwo(bookingLimits.name, msg.firstName),
  lastName: atLeastTwo(bookingLimits.name, msg.lastName),
  email: singleLine(bookingLimits.email, msg.email).pipe(z.email({ error: msg.email })),
  phone: singleLine(bookingLimits.phone, msg.phoneLength)
    .pipe(z.string().regex(/^\+?[\d\s]*$/, msg.phoneFormat))
    .pipe(z.string().min(10, msg.phoneLength)),
  company: atLeastTwo(bookingLimits.company, msg.company),
  role: atLeastTwo(bookingLimits.role, msg.role),
  notes: z
    .string({ error: msg.tooLong(bookingLimits.notes) })
    // eslint-disable-next-line no-control-regex
    .transform((s) => s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '').trim())
    .pipe(z.string().max(bookingLimits.notes, msg.tooLong(bookingLimits.notes)))
    .optional()
    .default(''),
};

type SecondChoiceInput = {
  firstChoiceDate?: unknown;
  firstChoiceTime?: unknown;
  secondChoiceDate?: unknown;
  secondChoiceTime?: unknown;
};

/**
 * The second choice is a pair: a date without a time (or the reverse) is incomplete, and the
 * pair must differ from the first choice. Runs even while other fields are still invalid, so
 * the visitor sees it when leaving the field, not only at the end.
 */
function checkSecondChoice(v: SecondChoiceInput, ctx: z.RefinementCtx): void {
  const date = typeof v.secondChoiceDate === 'string' ? v.secondChoiceDate : '';
  const time = typeof v.secondChoiceTime === 'string' ? v.secondChoiceTime : '';
  if (date !== '' && time === '')
    ctx.addIssue({ code: 'custom', path: ['secondChoiceTime'], message: msg.time });
  if (date === '' && time !== '')
    ctx.addIssue({ code: 'custom', path: ['secondChoiceDate'], message: msg.date });
  if (date !== '' && date === v.firstChoiceDate && time !== '' && time === v.firstChoiceTime) {
    ctx.addIssue({ code: 'custom', path: ['secondChoiceDate'], message: msg.secondSameAsFirst });
  }
}

const always = { when: () => true };

/** Step 1 alone: what 'Continue to Contact Details' requires. */
export function createStep1Schema(now: () => Date = () => new Date()) {
  return z.object(step1Shape(now)).check(z.superRefine(checkSecondChoice, always));
}

export function createBookingSchema(now: () => Date = () => new Date()) {
  return z.object({ ...step1Shape(now), ...step2Shape }).check(z.superRefine(checkSecondChoice, always));
}

/** Validates against the clock at the moment of each parse. */
export const BookingSchema = createBookingSchema();
export const Step1Schema = createStep1Schema();

/** What the wizard's fields hold (every value a string; radios unanswered are ''). */
export type BookingFormValues = z.input<typeof BookingSchema>;
/** A valid booking request, cleaned. */
export type BookingRequest = z.output<typeof BookingSchema>;

import type { STEP1_FIELDS } from './booking-steps';

/**
 * The spec's gate: step 2 opens only when session type, first-choice date and time are
 * filled and valid (and, ours, a second choice given is complete and different).
 */
export function canContinue(
  values: Partial<Record<(typeof STEP1_FIELDS)[number], string>>,
  now: Date,
): boolean {
  return createStep1Schema(() => now).safeParse(values).success;
}
