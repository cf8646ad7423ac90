/**
 * The two-step booking wizard of the /book page (spec sections 2, 4, 5 and 8). Step 1 picks
 * the format and up to two date/time choices; step 2 takes the contact details; one request
 * (with an idempotency key) books. On success the form gives way to 'Booking Confirmed!' with
 * the reference, and whatever the page placed below the form (What's Included, the FAQ) goes.
 */
import { CalendarCheck } from 'lucide-react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Controller, useForm, type Control, type FieldPath } from 'react-hook-form';
import { toast } from '~/components/toast/toast-store';
import {
  SESSION_TIMES,
  SESSION_TYPES,
  bookingCopy as copy,
  bookingLimits,
  sessionTypeDescriptions,
  sessionTypeLabels,
} from '~/content/booking';
import { onDemand, resolverOnDemand } from '~/lib/on-demand';
import { useBrowserValue } from '~/lib/use-browser-value';
import { useFormGuard } from '~/lib/use-form-guard';
import { HoneypotField } from '~/components/ui/honeypot-field';
import { BOOKING_FORM_TYPE, submitBooking } from './booking-api';
import { earliestBookableDate, latestBookableDate } from './booking-dates';
import { ChoiceGroup, Field, type Choice } from './booking-fields';
import type { BookingFormValues, BookingRequest } from './booking-schema';
import { STEP1_FIELDS } from './booking-steps';

// The schema and zod load when the visitor first focuses a field, at the latest when a step is
// checked (decision 013): the page hydrates without them.
// A chunk that could not be fetched is fetched again next time, and counts as a failed request.
const loadValidation = onDemand(() => import('./booking-validation'));
const resolver = resolverOnDemand<BookingFormValues, unknown, BookingRequest>(() =>
  loadValidation().then((m) => m.bookingResolver),
);

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

const sessionTypeOptions = SESSION_TYPES.map((value) => ({
  value,
  label: sessionTypeLabels[value],
  description: sessionTypeDescriptions[value],
}));
const timeOptions = SESSION_TIMES.map((value) => ({ value, label: copy.step1.timeOption(value) }));

const readEarliest = () => earliestBookableDate(new Date());
const readLatest = () => latestBookableDate(new Date());

/**
 * The allowed date range, read from the visitor's clock after hydration (the prerendered HTML
 * was made at build time, when 'tomorrow' was another day).
 */
function useDateBounds(): { min?: string; max?: string } {
  const min = useBrowserValue(readEarliest, undefined);
  const max = useBrowserValue(readLatest, undefined);
  return { min, max };
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
  const stepChanged = useRef(false);
  const keyFor = useIdempotencyKey();
  const { guardFields, honeypotProps } = useFormGuard(BOOKING_FORM_TYPE);
  const bounds = useDateBounds();

  const {
    control,
    register,
    handleSubmit,
    trigger,
    getValues,
    setValue,
    formState: { errors, isSubmitting },
  } = useForm<BookingFormValues, unknown, BookingRequest>({
    resolver,
    mode: 'onTouched',
    defaultValues: EMPTY,
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
    setStep(next);
  }

  async function onContinue() {
    let canContinue;
    try {
      [{ canContinue }] = await Promise.all([loadValidation(), trigger(STEP1_FIELDS)]);
    } catch {
      toast({ title: copy.toasts.failure, variant: 'destructive' });
      return;
    }
    if (canContinue(getValues(), new Date())) goTo(2);
    else toast({ title: copy.toasts.incompleteStep, variant: 'destructive' });
  }

  async function onValid(values: BookingRequest) {
    try {
      const result = await submitBooking(values, {
        idempotencyKey: keyFor(values),
        guard: await guardFields(),
      });
      setReference(result.reference);
      goTo('confirmed');
      toast({ title: copy.toasts.success });
    } catch (error) {
      console.error('Booking submission failed:', error instanceof Error ? error.message : error);
      toast({ title: copy.toasts.failure, variant: 'destructive' });
    }
  }

  function onInvalid(fieldErrors: Partial<Record<FieldPath<BookingFormValues>, unknown>>) {
    // A step-1 value can turn invalid while the visitor is on step 2 (a date that became today overnight).
    if (STEP1_FIELDS.some((name) => fieldErrors[name])) {
      goTo(1);
      toast({ title: copy.toasts.incompleteStep, variant: 'destructive' });
    }
  }

  const headingClass = 'text-2xl font-bold text-ink-900 outline-none';

  if (step === 'confirmed') {
    return (
      <section
        data-testid="booking-confirmed"
        aria-labelledby="booking-confirmed-heading"
        className="card text-center sm:p-10"
      >
        <CalendarCheck aria-hidden="true" className="mx-auto size-12 text-success-700" />
        <h2 id="booking-confirmed-heading" ref={headingRef} tabIndex={-1} className={`mt-4 ${headingClass}`}>
          {copy.confirmed.heading}
        </h2>
        <p className="mt-3 text-ink-700">{copy.confirmed.intro}</p>
        <p className="mt-6 text-sm text-ink-700">{copy.confirmed.referenceLabel}</p>
        <p
          data-testid="booking-reference"
          className="mt-1 font-mono text-2xl font-bold tracking-wider text-ink-900"
        >
          {reference}
        </p>
        <h3 className="mt-8 text-lg font-semibold text-ink-900">{copy.confirmed.nextStepsHeading}</h3>
        <ol className="mx-auto mt-4 grid max-w-md list-decimal gap-2 pl-6 text-left text-ink-800">
          {copy.confirmed.nextSteps.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ol>
      </section>
    );
  }

  return (
    <>
      <form
        noValidate
        aria-labelledby="booking-step-heading"
        className="card sm:p-8"
        onFocus={() => void loadValidation().catch(() => {})}
        onSubmit={(event) => {
          // Enter in a step-1 field continues rather than submitting half a form.
          if (step === 1) {
            event.preventDefault();
            void onContinue();
            return;
          }
          handleSubmit(
            onValid,
            onInvalid,
          )(event).catch(() => {
            toast({ title: copy.toasts.failure, variant: 'destructive' });
          });
        }}
      >
        <StepIndicator step={step} />
        <h2 id="booking-step-heading" ref={headingRef} tabIndex={-1} className={`mt-2 ${headingClass}`}>
          {step === 1 ? copy.step1.heading : copy.step2.heading}
        </h2>

        {step === 1 ? (
          <div className="mt-6 grid gap-6">
            <RadioField
              control={control}
              name="sessionType"
              legend={copy.step1.sessionTypeLegend}
              options={sessionTypeOptions}
              columns={3}
            />

            <fieldset className="grid gap-2">
              <legend className="text-lg font-semibold text-ink-900">{copy.step1.firstChoice}</legend>
              <Field label={copy.step1.dateLabel} error={errors.firstChoiceDate?.message}>
                {(props) => (
                  <input
                    {...props}
                    {...register('firstChoiceDate')}
                    type="date"
                    min={bounds.min}
                    max={bounds.max}
                    aria-required="true"
                    className="field-input sm:max-w-xs"
                  />
                )}
              </Field>
              <RadioField
                control={control}
                name="firstChoiceTime"
                legend={copy.step1.timeLegend}
                options={timeOptions}
                columns={2}
              />
            </fieldset>

            <fieldset className="grid gap-2">
              <legend className="text-lg font-semibold text-ink-900">{copy.step1.secondChoice}</legend>
              <Field label={copy.step1.dateLabel} error={errors.secondChoiceDate?.message}>
                {(props) => (
                  <input
                    {...props}
                    {...register('secondChoiceDate')}
                    type="date"
                    min={bounds.min}
                    max={bounds.max}
                    className="field-input sm:max-w-xs"
                  />
                )}
              </Field>
              <RadioField
                control={control}
                name="secondChoiceTime"
                legend={copy.step1.timeLegend}
                options={timeOptions}
                columns={2}
              />
              <div>
                <button
                  type="button"
                  className="text-sm font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800"
                  onClick={() => {
                    setValue('secondChoiceDate', '');
                    setValue('secondChoiceTime', '');
                    void trigger(['secondChoiceDate', 'secondChoiceTime']);
                  }}
                >
                  {copy.step1.clearSecondChoice}
                </button>
              </div>
            </fieldset>

            <div className="flex justify-end">
              <button type="submit" className="btn btn-primary w-full sm:w-auto">
                {copy.step1.continue}
              </button>
            </div>
          </div>
        ) : (
          <div className="mt-6 grid gap-x-5 gap-y-2 sm:grid-cols-2">
            <Field label={copy.step2.firstName} error={errors.firstName?.message}>
              {(props) => (
                <input
                  {...props}
                  {...register('firstName')}
                  autoComplete="given-name"
                  maxLength={bookingLimits.name}
                  aria-required="true"
                  className="field-input"
                />
              )}
            </Field>
            <Field label={copy.step2.lastName} error={errors.lastName?.message}>
              {(props) => (
                <input
                  {...props}
                  {...register('lastName')}
                  autoComplete="family-name"
                  maxLength={bookingLimits.name}
                  aria-required="true"
                  className="field-input"
                />
              )}
            </Field>
            <Field label={copy.step2.email} error={errors.email?.message}>
              {(props) => (
                <input
                  {...props}
                  {...register('email')}
                  type="email"
                  autoComplete="email"
                  maxLength={bookingLimits.email}
                  aria-required="true"
                  className="field-input"
                />
              )}
            </Field>
            <Field label={copy.step2.phone} error={errors.phone?.message}>
              {(props) => (
                <input
                  {...props}
                  {...register('phone')}
                  type="tel"
                  autoComplete="tel"
                  placeholder={copy.step2.phonePlaceholder}
                  maxLength={bookingLimits.phone}
                  aria-required="true"
                  className="field-input"
                />
              )}
            </Field>
            <Field label={copy.step2.company} error={errors.company?.message}>
              {(props) => (
                <input
                  {...props}
                  {...register('company')}
                  autoComplete="organization"
                  maxLength={bookingLimits.company}
                  aria-required="true"
                  className="field-input"
                />
              )}
            </Field>
            <Field label={copy.step2.role} error={errors.role?.message}>
              {(props) => (
                <input
                  {...props}
                  {...register('role')}
                  autoComplete="organization-title"
                  maxLength={bookingLimits.role}
                  aria-required="true"
                  className="field-input"
                />
              )}
            </Field>
            <Field
              label={copy.step2.notes}
              hint={copy.step2.notesHint}
              error={errors.notes?.message}
              className="sm:col-span-2"
            >
              {(props) => (
                <textarea
                  {...props}
                  {...register('notes')}
                  rows={4}
                  maxLength={bookingLimits.notes}
                  className="field-input"
                />
              )}
            </Field>
            <div className="flex flex-col-reverse gap-3 sm:col-span-2 sm:flex-row sm:justify-between">
              <button
                type="button"
                className="btn btn-secondary"
                disabled={isSubmitting}
                onClick={() => goTo(1)}
              >
                {copy.step2.back}
              </button>
              <button type="submit" className="btn btn-primary" disabled={isSubmitting}>
                {isSubmitting ? copy.step2.submitting : copy.step2.submit}
              </button>
            </div>
          </div>
        )}
        {/* The spam trap: off-screen, out of the tab order, hidden from assistive technology. */}
        <HoneypotField inputProps={honeypotProps} />
      </form>
      {belowForm}
    </>
  );
}

/**
 * A radio group bound to the form. Controlled (checked from the form's value) rather than
 * registered: registered radio refs go stale when React re-attaches their callbacks, and the
 * form then reads no selection.
 */
function RadioField({
  control,
  name,
  legend,
  options,
  columns,
}: {
  control: Control<BookingFormValues, unknown, BookingRequest>;
  name: 'sessionType' | 'firstChoiceTime' | 'secondChoiceTime';
  legend: string;
  options: readonly Choice[];
  columns: 2 | 3;
}) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <ChoiceGroup
          legend={legend}
          options={options}
          columns={columns}
          error={fieldState.error?.message}
          inputProps={(option, index) => ({
            name: field.name,
            checked: field.value === option.value,
            onChange: () => field.onChange(option.value),
            onBlur: field.onBlur,
            // Lets the form move focus to the group when it is invalid.
            ref: index === 0 ? field.ref : undefined,
          })}
        />
      )}
    />
  );
}

function StepIndicator({ step }: { step: 1 | 2 }) {
  return (
    <div className="flex items-center gap-3">
      <p className="eyebrow">{copy.stepLabel(step)}</p>
      <div aria-hidden="true" className="flex flex-1 gap-2">
        <span className="h-1.5 flex-1 rounded-full bg-brand-700" />
        <span className={`h-1.5 flex-1 rounded-full ${step === 2 ? 'bg-brand-700' : 'bg-ink-200'}`} />
      </div>
    </div>
  );
}
