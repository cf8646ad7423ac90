/**
 * The two-step booking wizard of the /book page (spec sections 2, 4, 5 and 8). Step 1 picks
 * the format and up to two date/time choices; step 2 takes the contact details; one request
 * (with an idempotency key) books. On success the form gives way to 'Booking Confirmed!' with
 * the reference, and whatever the page placed below the form (What's Included, the FAQ) goes.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { FieldPath } from 'react-hook-form';
import { HoneypotField } from '~/components/form/honeypot-field';
import { useSchemaForm, validationOnDemand } from '~/components/form/use-schema-form';
import { dismissToast, toast } from '~/components/toast/toast-store';
import { bookingCopy as copy } from '~/content/booking';
import { useBrowserValue } from '~/lib/use-browser-value';
import { availabilityCopy } from '~/content/booking';
import { BOOKING_FORM_TYPE, ChoiceTaken, submitBooking } from './booking-api';
import { dateState, stateIn, type PublicAvailability } from './availability';
import { useAvailability } from './use-availability';
import { earliestBookableDate, latestBookableDate } from './booking-dates';
import type { BookingFormValues, BookingRequest } from './booking-schema';
import { STEP1_FIELDS } from './booking-steps';
import {
  BookingConfirmed,
  DetailsStep,
  SessionStep,
  STEP_HEADING,
  StepIndicator,
} from './booking-wizard-steps';

// The schema and zod load when the visitor first focuses a field, at the latest when a step is
// checked (decision 013): the page hydrates without them.
// A chunk that could not be fetched is fetched again next time, and counts as a failed request.
const validation = validationOnDemand(() => import('./booking-validation'));

type Step = 1 | 2 | 'confirmed';

const EMPTY: BookingFormValues = {
  sessionType: 'zoom',
  firstChoiceDate: '',
  firstChoiceTime: '' as BookingFormValues['firstChoiceTime'],
  secondChoiceDate: '',
  secondChoiceTime: '',
  firstName: '',
  lastName: '',
  email: '',
  phone: '',
  company: '',
  role: '',
  notes: '',
};

export type DateBounds = { min?: string; max?: string };

const readEarliest = () => earliestBookableDate(new Date());
const readLatest = () => latestBookableDate(new Date());

/**
 * The allowed date range, read from the visitor's clock after hydration (the prerendered HTML
 * was made at build time, when 'tomorrow' was another day).
 */
function useDateBounds(): DateBounds {
  const min = useBrowserValue(readEarliest, undefined);
  const max = useBrowserValue(readLatest, undefined);
  return { min, max };
}

/** What is wrong with a step-1 choice the owner's availability does not offer, as field errors. */
function unavailableChoices(
  values: BookingFormValues,
  availability: PublicAvailability | null,
): Partial<Record<'firstChoiceDate' | 'firstChoiceTime' | 'secondChoiceDate' | 'secondChoiceTime', string>> {
  const errors: ReturnType<typeof unavailableChoices> = {};
  if (!availability) return errors;
  const choices = [
    { date: 'firstChoiceDate', time: 'firstChoiceTime' },
    { date: 'secondChoiceDate', time: 'secondChoiceTime' },
  ] as const;
  for (const choice of choices) {
    const date = values[choice.date];
    const time = values[choice.time];
    if (!date) continue;
    const day = dateState(availability, date);
    if (day === 'closed') errors[choice.date] = availabilityCopy.dateClosed;
    else if (day === 'full') errors[choice.date] = availabilityCopy.dateFull;
    else if (
      time &&
      stateIn(availability, date, time) !== undefined &&
      stateIn(availability, date, time) !== 'free'
    )
      errors[choice.time] = availabilityCopy.timeUnavailable;
  }
  return errors;
}

/** A fresh key per distinct request: a retry of the same values reuses it, an edited request does not. */
function useIdempotencyKey() {
  const last = useRef<{ key: string; body: string } | undefined>(undefined);
  return (values: BookingRequest): string => {
    const body = JSON.stringify(values);
    if (last.current?.body !== body) {
      const bytes = crypto.getRandomValues(new Uint8Array(16));
      last.current = { key: Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join(''), body };
    }
    return last.current.key;
  };
}

export function BookingWizard({ belowForm }: { belowForm?: ReactNode }) {
  const [step, setStep] = useState<Step>(1);
  const [reference, setReference] = useState('');
  const headingRef = useRef<HTMLHeadingElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const stepChanged = useRef(false);
  const keyFor = useIdempotencyKey();
  const bounds = useDateBounds();
  const [availability, reloadAvailability] = useAvailability();
  // Each field is checked as the visitor leaves it, and its error read out politely.
  const form = useSchemaForm({
    formType: BOOKING_FORM_TYPE,
    validation,
    defaultValues: EMPTY,
    mode: 'onTouched',
  });

  // After a step change: back to the top of the page, and focus on the new heading so a
  // screen reader announces where the visitor now is.
  useEffect(() => {
    if (!stepChanged.current) return;
    stepChanged.current = false;
    window.scrollTo({ top: 0 });
    headingRef.current?.focus({ preventScroll: true });
  }, [step]);

  function goTo(next: Step) {
    stepChanged.current = true;
    // A toast of the step left (step 1's "fill in all required fields") does not follow the visitor.
    dismissToast();
    setStep(next);
  }

  const failed = () => toast({ title: copy.toasts.failure, variant: 'destructive' });

  async function onContinue() {
    let canContinue;
    try {
      [{ canContinue }] = await Promise.all([validation.load(), form.trigger(STEP1_FIELDS)]);
    } catch {
      failed();
      return;
    }
    const unavailable = unavailableChoices(form.getValues(), availability.answer);
    form.showFieldErrors(unavailable);
    if (canContinue(form.getValues(), new Date()) && Object.keys(unavailable).length === 0) goTo(2);
    else {
      toast({ title: copy.toasts.incompleteStep, variant: 'destructive' });
      focusFirstError();
    }
  }

  /**
   * Focus on step 1's first field in error, in the middle of the screen (clear of the fixed
   * header, at any width), so its message is where the eye and a screen reader are.
   */
  function focusFirstError() {
    // Once React has drawn the errors just set.
    requestAnimationFrame(() => {
      const name = STEP1_FIELDS.find((field) => form.getFieldState(field).error);
      const fields = name ? formRef.current?.querySelectorAll<HTMLElement>(`[name="${name}"]`) : undefined;
      if (!fields || fields.length === 0) return;
      // A group of options: the one chosen, or the first that may be chosen.
      const target =
        [...fields].find((f) => (f as HTMLInputElement).checked) ??
        [...fields].find((f) => !(f as HTMLInputElement).disabled) ??
        fields[0]!;
      target.focus({ preventScroll: true });
      target.scrollIntoView({ block: 'center' });
    });
  }

  async function onValid(values: BookingRequest) {
    try {
      const result = await submitBooking(values, {
        idempotencyKey: keyFor(values),
        traps: await form.trapFields(),
      });
      setReference(result.reference);
      goTo('confirmed');
      toast({ title: copy.toasts.success });
    } catch (error) {
      if (error instanceof ChoiceTaken) {
        // Taken since the page loaded: back to step 1, every value kept, the choice to change named.
        goTo(1);
        form.showFieldErrors(error.fieldErrors);
        reloadAvailability();
        toast({ title: error.message, variant: 'destructive' });
        return;
      }
      console.error('Booking submission failed:', error instanceof Error ? error.message : error);
      failed();
    }
  }

  function onInvalid(fieldErrors: Partial<Record<FieldPath<BookingFormValues>, unknown>>) {
    // A step-1 value can turn invalid while the visitor is on step 2 (a date that became today overnight).
    if (STEP1_FIELDS.some((name) => fieldErrors[name])) {
      goTo(1);
      toast({ title: copy.toasts.incompleteStep, variant: 'destructive' });
    }
  }

  if (step === 'confirmed')
    return <BookingConfirmed reference={reference} headingRef={headingRef} values={form.getValues()} />;

  return (
    <>
      <form
        ref={formRef}
        {...form.formProps}
        onSubmit={(event) => {
          // Enter in a step-1 field continues rather than submitting half a form.
          if (step === 2) return form.submit(event, onValid, failed, onInvalid);
          event.preventDefault();
          void onContinue();
        }}
        aria-labelledby="booking-step-heading"
        className="card sm:p-8"
      >
        <StepIndicator step={step} />
        <h2 id="booking-step-heading" ref={headingRef} tabIndex={-1} className={`mt-2 ${STEP_HEADING}`}>
          {step === 1 ? copy.step1.heading : copy.step2.heading}
        </h2>
        {step === 1 ? (
          <SessionStep form={form} bounds={bounds} availability={availability} />
        ) : (
          <DetailsStep form={form} onBack={() => goTo(1)} />
        )}
        {/* The spam trap: off-screen, out of the tab order, hidden from assistive technology. */}
        <HoneypotField inputProps={form.honeypotProps} />
      </form>
      {belowForm}
    </>
  );
}
