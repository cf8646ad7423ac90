/**
 * The event form: "New event" saves a draft; "Edit" changes one (a change of time e-mails every
 * attendee an updated calendar invitation, which the form says before it is saved). The server
 * checks every field (EventInputSchema): its field errors are shown beside each field and listed
 * in a summary that takes focus; its answer is announced in the console's live regions. The
 * fields' lengths and the range of places are the schema's (EVENT_LIMITS).
 */
import {
  useEffect,
  useId,
  useRef,
  useState,
  type FormEvent,
  type InputHTMLAttributes,
  type RefObject,
} from 'react';
import { Link, useNavigate } from 'react-router';
import { eventsCopy as copy } from '~/content/console';
import type {
  EventChangeAnswer,
  EventDetail,
  EventInput,
  EventMode,
  EventSummary,
} from '../events-console-contract';
import { EVENT_LIMITS } from '../event-input-schema';
import { post } from '~/components/console/http';
import { page } from '~/components/console/paths';
import { useResource } from '~/components/console/data';
import { Field } from '~/components/console/fields';
import { useNotify } from '~/components/console/notices';
import { BackLink, ItemPage, PageHeading } from '~/components/console/page';
import {
  EMPTY,
  errorsOf,
  inputOf,
  LABELS,
  ORDER,
  valuesOf,
  wallClock,
  type Errors,
  type Values,
} from './event-form-values';

function ErrorSummary({
  error,
  errors,
  others,
  ids,
  summaryRef,
}: {
  error: string;
  errors: Errors;
  others: string[];
  ids: Record<keyof EventInput, string>;
  summaryRef: RefObject<HTMLDivElement | null>;
}) {
  const listed = ORDER.filter((name) => errors[name]);
  return (
    <div
      ref={summaryRef}
      tabIndex={-1}
      className="mt-6 rounded-lg border-2 border-danger-700 bg-white p-4 outline-none focus-visible:ring-2 focus-visible:ring-danger-700"
    >
      <h2 className="font-bold text-danger-700">{copy.problem}</h2>
      <p className="mt-1 text-ink-900">{error}</p>
      {listed.length + others.length > 0 ? (
        <ul className="mt-2 list-disc space-y-1 pl-5">
          {listed.map((name) => (
            <li key={name}>
              <a
                href={`#${ids[name]}`}
                className="text-link text-danger-700"
                onClick={(e) => {
                  // Focus the field without a history entry (the router would count a new address).
                  e.preventDefault();
                  const target = document.getElementById(ids[name]);
                  target?.focus();
                  target?.scrollIntoView({ block: 'center' });
                }}
              >
                {LABELS[name]}: {errors[name]}
              </a>
            </li>
          ))}
          {others.map((text) => (
            <li key={text} className="text-danger-700">
              {text}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/**
 * The form's state: the values typed, the server's errors and the summary of them (which takes
 * focus), each field's id, and `submit`, which saves and then opens the event's page.
 */
function useEventForm(event: EventDetail | undefined) {
  const navigate = useNavigate();
  const notify = useNotify();
  const [values, setValues] = useState<Values>(() => (event ? valuesOf(event) : EMPTY));
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<{ error: string; others: string[] } | null>(null);
  const [sending, setSending] = useState(false);
  const summaryRef = useRef<HTMLDivElement>(null);
  // The summary takes focus once it is on the page: after an await, React renders the update in a
  // later task, so a focus call made next to the setState (or in the next frame) can find no summary.
  useEffect(() => {
    if (failure) summaryRef.current?.focus();
  }, [failure]);
  const id = useId();
  const ids = Object.fromEntries(ORDER.map((name) => [name, `${id}-${name}`])) as Record<
    keyof EventInput,
    string
  >;

  const set = (name: keyof Values) => (e: { target: { value: string } }) => {
    const value = e.target.value;
    setValues((v) => ({ ...v, [name]: value }));
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (sending) return;
    setSending(true);
    // No notify(null) here: a success navigates away with its notice in the navigation's state,
    // and a pending clear would be applied after that notice (the old one is replaced either way).
    const input = inputOf(values);
    const result = event
      ? await post<EventChangeAnswer>(`/events/${encodeURIComponent(event.id)}`, input)
      : await post<EventSummary>('/events', input);
    setSending(false);
    if (!result.ok) {
      // 401 has already sent the console back to the sign-in page.
      if (result.status === 401) return;
      const [fieldErrors, others] = errorsOf(result.fieldErrors);
      setErrors(fieldErrors);
      setFailure({ error: result.error, others });
      notify({ tone: 'error', text: result.error });
      return;
    }
    setErrors({});
    setFailure(null);
    const saved: EventSummary = 'event' in result.data ? result.data.event : result.data;
    const text = event
      ? copy.saved + copy.notified((result.data as EventChangeAnswer).notified ?? 0)
      : copy.created;
    void navigate(page(`events/${encodeURIComponent(saved.id)}`), {
      state: { notice: { tone: 'success', text } },
    });
  }

  return { values, setValues, errors, failure, sending, summaryRef, id, ids, set, submit };
}

type EventFormState = ReturnType<typeof useEventForm>;

/**
 * One field of the form: its label, hint and the server's error for it, and the input (a
 * textarea for `rows`) bound to the form's value of `name`, its id the one the summary links to.
 */
function EventField({
  form,
  name,
  hint,
  required,
  className,
  rows,
  ...input
}: {
  form: EventFormState;
  name: Exclude<keyof EventInput, 'mode'>;
  hint?: string;
  required?: boolean;
  className?: string;
  rows?: number;
} & Pick<
  InputHTMLAttributes<HTMLInputElement>,
  'type' | 'maxLength' | 'min' | 'max' | 'step' | 'inputMode' | 'autoComplete'
>) {
  return (
    <Field
      id={form.ids[name]}
      label={LABELS[name]}
      hint={hint}
      error={form.errors[name]}
      validated
      required={required}
      className={className}
    >
      {(control) =>
        rows ? (
          <textarea
            {...control}
            name={name}
            rows={rows}
            maxLength={input.maxLength}
            value={form.values[name]}
            onChange={form.set(name)}
            className="field-input"
          />
        ) : (
          <input
            {...control}
            {...input}
            name={name}
            value={form.values[name]}
            onChange={form.set(name)}
            className="field-input"
          />
        )
      }
    </Field>
  );
}

/** The form itself, for a new event (`event` absent) or an existing one. */
function EventForm({ event }: { event?: EventDetail }) {
  const form = useEventForm(event);
  const { values, setValues, errors, failure, sending, summaryRef, id, ids, submit } = form;
  const timeChanged =
    !!event && (values.startsAt !== wallClock(event.startsAt) || values.endsAt !== wallClock(event.endsAt));

  return (
    <>
      {event ? (
        <p className="mt-4 rounded-lg border-l-4 border-brand-700 bg-brand-50 px-4 py-3 text-ink-900">
          {copy.timeChangeWarning}
        </p>
      ) : (
        <p className="mt-2 text-ink-700">{copy.formIntro}</p>
      )}
      {failure ? (
        <ErrorSummary
          error={failure.error}
          errors={errors}
          others={failure.others}
          ids={ids}
          summaryRef={summaryRef}
        />
      ) : null}
      <form
        noValidate
        onSubmit={(e) => void submit(e)}
        aria-label={event ? copy.editTitleFallback : copy.newTitle}
        className="card mt-6 grid gap-x-6 gap-y-1 sm:grid-cols-2"
      >
        <EventField
          form={form}
          name="title"
          required
          className="sm:col-span-2"
          type="text"
          maxLength={EVENT_LIMITS.title}
          autoComplete="off"
        />
        <EventField
          form={form}
          name="summary"
          hint={copy.summaryHint}
          required
          className="sm:col-span-2"
          rows={4}
          maxLength={EVENT_LIMITS.summary}
        />
        <EventField form={form} name="startsAt" hint={copy.ukTimeHint} required type="datetime-local" />
        <EventField form={form} name="endsAt" hint={copy.ukTimeHint} required type="datetime-local" />

        <ModeField
          id={ids.mode}
          value={values.mode}
          error={errors.mode}
          onChange={(mode) => setValues((v) => ({ ...v, mode }))}
        />

        {values.mode === 'in-person' ? (
          <EventField
            form={form}
            name="place"
            hint={copy.placeHint}
            required
            type="text"
            maxLength={EVENT_LIMITS.place}
            autoComplete="off"
          />
        ) : (
          <EventField
            form={form}
            name="joinUrl"
            hint={copy.joinUrlHint}
            required
            type="url"
            maxLength={EVENT_LIMITS.joinUrl}
            inputMode="url"
            autoComplete="off"
          />
        )}
        <EventField
          form={form}
          name="capacity"
          hint={copy.capacityHint}
          required
          type="number"
          min={EVENT_LIMITS.capacity.min}
          max={EVENT_LIMITS.capacity.max}
          step={1}
          inputMode="numeric"
        />
        <EventField form={form} name="registrationOpensAt" hint={copy.opensHint} type="datetime-local" />
        <EventField form={form} name="registrationClosesAt" hint={copy.closesHint} type="datetime-local" />

        <div className="sm:col-span-2">
          {event && timeChanged ? (
            <p id={`${id}-time-changed`} className="mb-3 font-semibold text-brand-800">
              {copy.timeChanged(event.registered)}
            </p>
          ) : null}
          <div className="flex flex-wrap gap-3">
            <button
              type="submit"
              className="btn btn-primary"
              disabled={sending}
              aria-describedby={timeChanged ? `${id}-time-changed` : undefined}
            >
              {sending ? copy.saving : event ? copy.save : copy.create}
            </button>
            <Link
              to={event ? page(`events/${encodeURIComponent(event.id)}`) : page('events')}
              className="btn btn-secondary"
            >
              {copy.cancelEdit}
            </Link>
          </div>
        </div>
      </form>
    </>
  );
}

/** Online or in person: two radios in a radio group, the group tied to its error line. */
function ModeField({
  id,
  value,
  error,
  onChange,
}: {
  id: string;
  value: EventMode;
  error: string | undefined;
  onChange: (mode: EventMode) => void;
}) {
  const options: [EventMode, string][] = [
    ['online', copy.online],
    ['in-person', copy.inPerson],
  ];
  return (
    <fieldset
      role="radiogroup"
      aria-labelledby={`${id}-legend`}
      aria-describedby={`${id}-error`}
      aria-invalid={!!error}
      className="sm:col-span-2"
    >
      <legend id={`${id}-legend`} className="field-label">
        {copy.mode}
      </legend>
      <div className="mt-1 flex flex-wrap gap-x-6 gap-y-2">
        {options.map(([mode, label], index) => (
          <label key={mode} className="inline-flex min-h-11 items-center gap-2 text-ink-900">
            <input
              // The first radio carries the group's id: the error summary's link leads to it.
              id={index === 0 ? id : `${id}-${mode}`}
              type="radio"
              name="mode"
              value={mode}
              checked={value === mode}
              onChange={() => onChange(mode)}
              className="size-5 accent-brand-700"
            />
            {label}
          </label>
        ))}
      </div>
      <p id={`${id}-error`} role="alert" className="field-error min-h-5">
        {error}
      </p>
    </fieldset>
  );
}

/** `/owner/events/new` */
export function NewEventPage() {
  return (
    <>
      <BackLink to={page('events')}>{copy.back}</BackLink>
      <PageHeading title={copy.newTitle}>{copy.newTitle}</PageHeading>
      <EventForm />
    </>
  );
}

/** `/owner/events/:id/edit` */
export function EditEventPage({ id }: { id: string }) {
  const [detail, reload] = useResource<EventDetail>(`/events/${encodeURIComponent(id)}`);
  const title = detail.state === 'ready' ? copy.editTitle(detail.data.title) : copy.editTitleFallback;
  return (
    <ItemPage
      back={page(`events/${encodeURIComponent(id)}`)}
      backLabel={copy.backToEvent}
      title={title}
      resource={detail}
      reload={reload}
    >
      {(event) => <EventForm key={event.updatedAt} event={event} />}
    </ItemPage>
  );
}
