/**
 * The booking wizard's views (see booking-wizard.tsx, which holds their state): step 1, the
 * session format and two date/time choices; step 2, the contact details; and the confirmation.
 * Every field is drawn with the field kit, its errors read out politely as each field is left.
 */
import { CalendarCheck } from 'lucide-react';
import { useEffect, type RefObject } from 'react';
import { isIsoDate } from '~/lib/uk-dates';
import { Controller } from 'react-hook-form';
import { ChoiceField } from '~/components/form/choice-field';
import type { Choice } from '~/components/form/choice-group';
import { Field, SubmitButton, TextFields, type FieldSpec } from '~/components/form/field';
import type { SchemaForm } from '~/components/form/use-schema-form';
import {
  SESSION_TYPES,
  bookingCopy as copy,
  bookingLimits,
  sessionTypeDescriptions,
  sessionTypeLabels,
} from '~/content/booking';
import type { BookingFormValues, BookingRequest } from './booking-schema';
import type { DateBounds } from './booking-wizard';
import { halfDayOptions as timeOptionsOn, type AvailabilityState } from './use-availability';
import { availabilityCopy, sessionTimeWindows, type SessionTime } from '~/content/booking';
import { FreeDatesCalendar } from './free-dates-calendar';
import { formatChoice } from './booking-dates';
import type { STEP1_FIELDS } from './booking-steps';
import { localTimeOf } from './local-time';

type BookingForm = SchemaForm<BookingFormValues, BookingRequest>;

export const STEP_HEADING = 'text-2xl font-bold text-ink-900 outline-none';

const sessionTypeOptions = SESSION_TYPES.map((value) => ({
  value,
  label: sessionTypeLabels[value],
  description: sessionTypeDescriptions[value],
}));

/** The two date/time choices of step 1; the second is optional and can be cleared. */
const CHOICES = [
  { legend: copy.step1.firstChoice, date: 'firstChoiceDate', time: 'firstChoiceTime', required: true },
  { legend: copy.step1.secondChoice, date: 'secondChoiceDate', time: 'secondChoiceTime', required: false },
] as const;

const DETAILS: readonly FieldSpec<keyof BookingFormValues>[] = [
  {
    name: 'firstName',
    label: copy.step2.firstName,
    autoComplete: 'given-name',
    maxLength: bookingLimits.name,
  },
  {
    name: 'lastName',
    label: copy.step2.lastName,
    autoComplete: 'family-name',
    maxLength: bookingLimits.name,
  },
  {
    name: 'email',
    label: copy.step2.email,
    type: 'email',
    autoComplete: 'email',
    maxLength: bookingLimits.email,
  },
  {
    name: 'phone',
    label: copy.step2.phone,
    type: 'tel',
    autoComplete: 'tel',
    placeholder: copy.step2.phonePlaceholder,
    maxLength: bookingLimits.phone,
  },
  {
    name: 'company',
    label: copy.step2.company,
    autoComplete: 'organization',
    maxLength: bookingLimits.company,
  },
  {
    name: 'role',
    label: copy.step2.role,
    autoComplete: 'organization-title',
    maxLength: bookingLimits.role,
  },
  {
    name: 'notes',
    label: copy.step2.notes,
    optionalHint: copy.step2.notesHint,
    rows: 4,
    maxLength: bookingLimits.notes,
    className: 'sm:col-span-2',
  },
];

export function StepIndicator({ step }: { step: 1 | 2 }) {
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

/** Step 1: the session format, then the first and second choice of date and time. */
export function SessionStep({
  form,
  bounds,
  availability,
}: {
  form: BookingForm;
  bounds: DateBounds;
  availability: AvailabilityState;
}) {
  const chosen = form.watch(['firstChoiceDate', 'firstChoiceTime', 'secondChoiceDate', 'secondChoiceTime']);
  const [firstDate, , secondDate] = chosen;
  const { lookAhead } = availability;
  // A date typed beyond what has been read: read up to it, so its half-days say whether they are free.
  useEffect(() => {
    for (const date of [firstDate, secondDate]) if (date && isIsoDate(date)) lookAhead(date);
  }, [firstDate, secondDate, lookAhead]);
  return (
    <div className="mt-6 grid gap-6">
      <RadioField
        form={form}
        name="sessionType"
        legend={copy.step1.sessionTypeLegend}
        options={sessionTypeOptions}
        columns={3}
      />
      {CHOICES.map((choice, index) => {
        const date = chosen[index * 2] ?? '';
        const time = chosen[index * 2 + 1] as SessionTime | '';
        const local = date && time ? localTimeOf(date, sessionTimeWindows[time]) : undefined;
        return (
          <fieldset key={choice.date} className="grid gap-2">
            <legend className="text-lg font-semibold text-ink-900">{choice.legend}</legend>
            <Field
              label={copy.step1.dateLabel}
              error={form.errorOf(choice.date)}
              required={choice.required}
              announce="polite"
            >
              {(control) => (
                <input
                  {...control}
                  {...form.register(choice.date)}
                  type="date"
                  min={bounds.min}
                  max={bounds.max}
                  className="field-input sm:max-w-xs"
                />
              )}
            </Field>
            <FreeDatesCalendar
              availability={availability.answer}
              onMonth={lookAhead}
              value={date}
              min={bounds.min}
              max={bounds.max}
              label={choice.legend}
              onPick={(picked) =>
                form.setValue(choice.date, picked, {
                  shouldValidate: true,
                  shouldTouch: true,
                  shouldDirty: true,
                })
              }
            />
            <RadioField
              form={form}
              name={choice.time}
              legend={copy.step1.timeLegend}
              options={timeOptionsOn(date, availability.answer)}
              columns={2}
            />
            {local ? <p className="text-sm text-ink-700">{availabilityCopy.localTime(local)}</p> : null}
            {choice.required ? null : (
              <div>
                <button
                  type="button"
                  className="text-sm font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800"
                  onClick={() => {
                    form.setValue(choice.date, '');
                    form.setValue(choice.time, '');
                    void form.trigger([choice.date, choice.time]);
                  }}
                >
                  {copy.step1.clearSecondChoice}
                </button>
              </div>
            )}
          </fieldset>
        );
      })}
      <div className="flex justify-end">
        <button type="submit" className="btn btn-primary w-full sm:w-auto">
          {copy.step1.continue}
        </button>
      </div>
    </div>
  );
}

/** The chosen half-days in words: 'First choice: Tuesday 3 March 2026, morning 9am-12pm UK time'. */
export function ChosenHalfDays({
  values,
}: {
  values: Pick<BookingFormValues, (typeof STEP1_FIELDS)[number]>;
}) {
  const rows = CHOICES.flatMap((choice) => {
    const date = values[choice.date];
    const time = values[choice.time];
    return date && time
      ? [`${choice.legend.replace(' (optional)', '')}: ${formatChoice(date, time as SessionTime)}`]
      : [];
  });
  return (
    <ul className="mt-2 grid gap-1 text-ink-800">
      {rows.map((row) => (
        <li key={row}>{row}</li>
      ))}
    </ul>
  );
}

/** Step 2: the contact details, Back (values kept) and the booking's one request. */
export function DetailsStep({ form, onBack }: { form: BookingForm; onBack: () => void }) {
  const busy = form.formState.isSubmitting;
  return (
    <div className="mt-6 grid gap-x-5 gap-y-2 sm:grid-cols-2">
      <div className="mb-4 rounded-lg bg-ink-50 p-4 sm:col-span-2">
        <p className="font-medium text-ink-900">{copy.step2.askingFor}</p>
        <ChosenHalfDays values={form.getValues()} />
        <p className="mt-2 text-sm text-ink-700">{copy.step2.requestNote}</p>
      </div>
      <TextFields fields={DETAILS} errorOf={form.errorOf} bind={form.register} announce="polite" />
      <div className="flex flex-col-reverse gap-3 sm:col-span-2 sm:flex-row sm:justify-between">
        <button type="button" className="btn btn-secondary" disabled={busy} onClick={onBack}>
          {copy.step2.back}
        </button>
        <SubmitButton busy={busy} copy={copy.step2} className="" />
      </div>
    </div>
  );
}

export function BookingConfirmed({
  reference,
  headingRef,
  values,
}: {
  reference: string;
  headingRef: RefObject<HTMLHeadingElement | null>;
  values: Pick<BookingFormValues, (typeof STEP1_FIELDS)[number]>;
}) {
  return (
    <section
      data-testid="booking-confirmed"
      aria-labelledby="booking-confirmed-heading"
      className="card text-center sm:p-10"
    >
      <CalendarCheck aria-hidden="true" className="mx-auto size-12 text-success-700" />
      <h2 id="booking-confirmed-heading" ref={headingRef} tabIndex={-1} className={`mt-4 ${STEP_HEADING}`}>
        {copy.confirmed.heading}
      </h2>
      <p className="mt-3 text-ink-700">{copy.confirmed.intro}</p>
      <div className="mx-auto mt-4 max-w-md text-left">
        <p className="font-medium text-ink-900">{copy.confirmed.choicesHeading}</p>
        <ChosenHalfDays values={values} />
      </div>
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

/**
 * A radio group bound to the form. Controlled (checked from the form's value) rather than
 * registered: registered radio refs go stale when React re-attaches their callbacks, and the
 * form then reads no selection.
 */
function RadioField({
  form,
  name,
  legend,
  options,
  columns,
}: {
  form: BookingForm;
  name: 'sessionType' | 'firstChoiceTime' | 'secondChoiceTime';
  legend: string;
  options: readonly Choice[];
  columns: 2 | 3;
}) {
  return (
    <Controller
      control={form.control}
      name={name}
      render={({ field, fieldState }) => (
        <ChoiceField
          legend={legend}
          options={options}
          columns={columns}
          error={fieldState.error?.message}
          announce="polite"
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
