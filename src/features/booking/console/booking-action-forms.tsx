/**
 * The forms of the owner's actions on a booking (the Bookings board, bookings-board.tsx):
 * confirm a choice at a start time (with a Zoom session's meeting link), reschedule a session,
 * answer a move the applicant asked for, and the optional words of a decline. A time that clashes
 * with the diary is named under the form, with the way to insist.
 */
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { bookingsCopy as copy, consoleCopy } from '~/content/console';
import { useResource } from '~/components/console/data';
import { ConfirmButton } from '~/components/console/dialog';
import { Field } from '~/components/console/fields';
import type { BookingSummary, RescheduleOptions } from '../booking-console-contract';
import { ukToday } from '../booking-dates';

/** What an action came to: done, or refused; a refusal for a time that clashes with the diary names it. */
export type ActResult = { done: boolean; clash?: string };
export type Act = (key: string, path: string, body?: unknown) => Promise<ActResult>;

/**
 * A form of an action on the booking: its heading, its fields side by side, its button. It is
 * named by its heading and the booking's (`of`, the card heading's id), so the forms of several
 * cards on one page have names of their own.
 */
function ActForm({
  heading,
  of,
  button,
  disabled,
  onSubmit,
  clash,
  children,
}: {
  heading: string;
  of: string;
  button: string;
  disabled: boolean;
  onSubmit: () => void;
  /** The server refused the time as a clash with the diary: the sentence, and the way to insist. */
  clash?: { text: string; button: string; onInsist: () => void };
  children: ReactNode;
}) {
  const id = useId();
  const clashId = useId();
  function submit(event: FormEvent) {
    event.preventDefault();
    onSubmit();
  }
  return (
    <form onSubmit={submit} aria-labelledby={`${id} ${of}`} className="rounded-lg border border-ink-200 p-4">
      <h4 id={id} className="font-semibold">
        {heading}
      </h4>
      <div className="mt-2 grid gap-4 sm:grid-cols-2">{children}</div>
      {clash ? (
        <p id={clashId} className="mt-1 mb-3 text-danger-700" data-testid="booking-clash">
          {clash.text}
        </p>
      ) : null}
      <div className="mt-1 flex flex-wrap gap-3">
        <button type="submit" className="btn btn-primary" disabled={disabled}>
          {button}
        </button>
        {clash ? (
          <button
            type="button"
            className="btn btn-secondary"
            aria-describedby={clashId}
            disabled={disabled}
            onClick={clash.onInsist}
          >
            {clash.button}
          </button>
        ) : null}
      </div>
    </form>
  );
}

/** A start time's options. */
function TimeOptions({ times }: { times: readonly { value: string; label: string }[] }) {
  return times.map((t) => (
    <option key={t.value} value={t.value}>
      {t.label}
    </option>
  ));
}

/** The start time of a session inside a window (confirming a choice, or the half-day an applicant asked to move to). */
function StartTimeField({
  times,
  value,
  onChange,
}: {
  times: readonly { value: string; label: string }[];
  value: string;
  onChange(value: string): void;
}) {
  return (
    <Field label={copy.startTime} required>
      {(control) => (
        <select {...control} className="field-input" value={value} onChange={(e) => onChange(e.target.value)}>
          <TimeOptions times={times} />
        </select>
      )}
    </Field>
  );
}

export type FormProps = { booking: BookingSummary; act: Act; busy: boolean; of: string };

export function ConfirmForm({
  booking,
  act,
  busy,
  of,
  meetingLink: defaultLink,
}: FormProps & { meetingLink: string }) {
  const [choice, setChoice] = useState<1 | 2>(booking.choices[0]?.choice ?? 1);
  const times = booking.choices.find((c) => c.choice === choice)?.startTimes ?? [];
  const [start, setStart] = useState(times[0]?.value ?? '');
  const [meetingLink, setMeetingLink] = useState(defaultLink);
  const [clash, setClash] = useState<string>();
  const confirm = (insist: boolean) =>
    void act('confirm', `/bookings/${booking.id}/confirm`, {
      choice,
      start,
      ...(booking.video ? { meetingLink } : {}),
      ...(insist ? { insist } : {}),
    }).then((result) => setClash(result.clash));
  return (
    <ActForm
      heading={copy.confirmHeading}
      of={of}
      button={copy.confirm}
      disabled={busy || !start}
      onSubmit={() => confirm(false)}
      clash={clash ? { text: clash, button: copy.confirmAnyway, onInsist: () => confirm(true) } : undefined}
    >
      <Field label={copy.chooseChoice}>
        {(control) => (
          <select
            {...control}
            className="field-input"
            value={choice}
            onChange={(e) => {
              const next = Number(e.target.value) as 1 | 2;
              setChoice(next);
              setClash(undefined);
              setStart(booking.choices.find((c) => c.choice === next)?.startTimes[0]?.value ?? '');
            }}
          >
            {booking.choices.map((c) => (
              <option key={c.choice} value={c.choice}>
                {copy.choice(c.choice)}: {c.label}
              </option>
            ))}
          </select>
        )}
      </Field>
      <StartTimeField
        times={times}
        value={start}
        onChange={(value) => {
          setStart(value);
          setClash(undefined);
        }}
      />
      {booking.video ? (
        <Field label={copy.meetingLink} hint={copy.meetingLinkHint} className="sm:col-span-2">
          {(control) => (
            <input
              {...control}
              type="url"
              className="field-input"
              maxLength={500}
              value={meetingLink}
              onChange={(e) => setMeetingLink(e.target.value)}
            />
          )}
        </Field>
      ) : null}
    </ActForm>
  );
}

export function RescheduleForm({ booking, act, busy, of }: FormProps) {
  const [options] = useResource<RescheduleOptions>('/bookings/reschedule-options');
  const [date, setDate] = useState(booking.session?.date ?? '');
  const [start, setStart] = useState(booking.session?.start ?? '');
  const times = options.state === 'ready' ? options.data.startTimes : [];
  const [clash, setClash] = useState<string>();
  const move = (insist: boolean) =>
    void act('reschedule', `/bookings/${booking.id}/reschedule`, {
      date,
      start,
      ...(insist ? { insist } : {}),
    }).then((result) => setClash(result.clash));
  return (
    <ActForm
      heading={copy.rescheduleHeading}
      of={of}
      button={copy.rescheduleButton}
      disabled={busy || !date || !start}
      onSubmit={() => move(false)}
      clash={clash ? { text: clash, button: copy.moveAnyway, onInsist: () => move(true) } : undefined}
    >
      <Field label={copy.rescheduleDate} required>
        {(control) => (
          <input
            {...control}
            type="date"
            className="field-input"
            min={ukToday(new Date())}
            value={date}
            onChange={(e) => {
              setDate(e.target.value);
              setClash(undefined);
            }}
          />
        )}
      </Field>
      <Field label={copy.rescheduleStart} required>
        {(control) => (
          <select
            {...control}
            className="field-input"
            value={times.some((t) => t.value === start) ? start : ''}
            onChange={(e) => {
              setStart(e.target.value);
              setClash(undefined);
            }}
          >
            <option value="" disabled>
              {options.state === 'loading' ? consoleCopy.loading : copy.startTime}
            </option>
            <TimeOptions times={times} />
          </select>
        )}
      </Field>
    </ActForm>
  );
}

/**
 * The applicant asked to move their session (decision 039): the owner confirms the new time (a
 * start inside the half-day asked for) or keeps the current one, which tells the applicant.
 */
export function MoveAskedForm({ booking, act, busy, of }: FormProps) {
  const times = booking.move?.startTimes ?? [];
  const [start, setStart] = useState(times[0]?.value ?? '');
  const [clash, setClash] = useState<string>();
  const confirm = (insist: boolean) =>
    void act('confirm-move', `/bookings/${booking.id}/confirm-move`, {
      start,
      ...(insist ? { insist } : {}),
    }).then((result) => setClash(result.clash));
  return (
    <div className="space-y-3">
      <ActForm
        heading={copy.confirmMoveHeading(booking.move?.label ?? '')}
        of={of}
        button={copy.confirmMove}
        disabled={busy || !start}
        onSubmit={() => confirm(false)}
        clash={clash ? { text: clash, button: copy.moveAnyway, onInsist: () => confirm(true) } : undefined}
      >
        <StartTimeField
          times={times}
          value={start}
          onChange={(value) => {
            setStart(value);
            setClash(undefined);
          }}
        />
      </ActForm>
      <ConfirmButton
        label={copy.keepTime}
        title={copy.keepTimeTitle}
        text={copy.keepTimeText}
        cancelLabel={copy.keep}
        describedBy={of}
        disabled={busy}
        onConfirm={() => void act('keep-time', `/bookings/${booking.id}/keep-time`)}
      />
    </div>
  );
}

export type DeclineWords = { reason: string; suggestDate: string; suggestTime: string };

/** A decline's optional words: the owner's reason, and another half-day to suggest. */
export function DeclineNote({
  words,
  onChange,
}: {
  words: DeclineWords;
  onChange(words: DeclineWords): void;
}) {
  const set = (part: Partial<DeclineWords>) => onChange({ ...words, ...part });
  return (
    <details className="rounded-lg border border-ink-200 p-4">
      <summary className="cursor-pointer rounded font-medium text-ink-800">{copy.declineNote}</summary>
      <div className="mt-3 grid gap-x-4 sm:grid-cols-2">
        <Field label={copy.declineReason} hint={copy.declineReasonHint} className="sm:col-span-2">
          {(control) => (
            <textarea
              {...control}
              className="field-input"
              rows={3}
              maxLength={500}
              value={words.reason}
              onChange={(e) => set({ reason: e.target.value })}
            />
          )}
        </Field>
        <Field label={copy.suggestDate}>
          {(control) => (
            <input
              {...control}
              type="date"
              className="field-input"
              min={ukToday(new Date())}
              value={words.suggestDate}
              onChange={(e) => set({ suggestDate: e.target.value })}
            />
          )}
        </Field>
        <Field label={copy.suggestTime}>
          {(control) => (
            <select
              {...control}
              className="field-input"
              value={words.suggestTime}
              onChange={(e) => set({ suggestTime: e.target.value })}
            >
              <option value="">{copy.suggestNone}</option>
              <option value="morning">{copy.suggestMorning}</option>
              <option value="afternoon">{copy.suggestAfternoon}</option>
            </select>
          )}
        </Field>
      </div>
    </details>
  );
}
