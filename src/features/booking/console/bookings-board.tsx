/**
 * Bookings by status (requested, confirmed, declined, cancelled, past), each with its history.
 * Confirm (a choice and a start time), decline and cancel run the same code and send the same
 * e-mails as the links in the owner's e-mail; a confirmed session can be moved to a new day and
 * time, and the applicant gets an updated invite.
 */
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { bookingsCopy as copy, consoleCopy } from '~/content/console';
import {
  BOOKING_VIEWS,
  type BookingActAnswer,
  type BookingList,
  type BookingSummary,
  type BookingView,
  type RescheduleOptions,
} from '../booking-console-contract';
import { ukToday } from '../booking-dates';
import { post } from '~/components/console/http';
import { page } from '~/components/console/paths';
import { Loaded, useResource } from '~/components/console/data';
import { DateTime } from '~/components/console/dates';
import { ConfirmButton } from '~/components/console/dialog';
import { Field } from '~/components/console/fields';
import { useAction } from '~/components/console/notices';
import { Badge, PageHeading } from '~/components/console/page';
import { ListStatus } from '~/components/console/pager';
import { QueryTabs, useQueryChoice } from '~/components/console/tabs';

/** What an action came to: done, or refused; a refusal for a time that clashes with the diary names it. */
type ActResult = { done: boolean; clash?: string };
type Act = (key: string, path: string, body?: unknown) => Promise<ActResult>;

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

type FormProps = { booking: BookingSummary; act: Act; busy: boolean; of: string };

function ConfirmForm({
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
      <Field label={copy.startTime} required>
        {(control) => (
          <select
            {...control}
            className="field-input"
            value={start}
            onChange={(e) => {
              setStart(e.target.value);
              setClash(undefined);
            }}
          >
            <TimeOptions times={times} />
          </select>
        )}
      </Field>
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

function RescheduleForm({ booking, act, busy, of }: FormProps) {
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
function MoveAskedForm({ booking, act, busy, of }: FormProps) {
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
        <Field label={copy.startTime} required>
          {(control) => (
            <select
              {...control}
              className="field-input"
              value={start}
              onChange={(e) => {
                setStart(e.target.value);
                setClash(undefined);
              }}
            >
              <TimeOptions times={times} />
            </select>
          )}
        </Field>
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

type DeclineWords = { reason: string; suggestDate: string; suggestTime: string };

/** A decline's optional words: the owner's reason, and another half-day to suggest. */
function DeclineNote({ words, onChange }: { words: DeclineWords; onChange(words: DeclineWords): void }) {
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

/**
 * What the owner can do with a booking: a request is confirmed (a choice and a start time) or
 * declined; a confirmed session still to come is moved or cancelled. Declining and cancelling
 * ask once more.
 */
function BookingActions({
  booking,
  act,
  busy,
  describedBy,
  meetingLink,
}: {
  booking: BookingSummary;
  act: Act;
  busy: boolean;
  describedBy: string;
  meetingLink: string;
}) {
  const [words, setWords] = useState<DeclineWords>({ reason: '', suggestDate: '', suggestTime: '' });
  const actions =
    booking.status === 'requested'
      ? {
          form: (
            <ConfirmForm booking={booking} act={act} busy={busy} of={describedBy} meetingLink={meetingLink} />
          ),
          end: 'decline',
          label: copy.decline,
          title: copy.confirmDeclineTitle,
          text: copy.confirmDeclineText,
        }
      : booking.status === 'confirmed' && !booking.past
        ? {
            form: <RescheduleForm booking={booking} act={act} busy={busy} of={describedBy} />,
            end: 'cancel',
            label: copy.cancel,
            title: copy.confirmCancelTitle,
            text: copy.confirmCancelText,
          }
        : null;
  if (!actions) return null;
  const { form, end, label, title, text } = actions;
  return (
    <div className="mt-4 space-y-3">
      {booking.move ? <MoveAskedForm booking={booking} act={act} busy={busy} of={describedBy} /> : null}
      {form}
      {end === 'decline' ? <DeclineNote words={words} onChange={setWords} /> : null}
      <ConfirmButton
        label={label}
        title={title}
        text={text}
        cancelLabel={copy.keep}
        describedBy={describedBy}
        disabled={busy}
        onConfirm={() =>
          void act(end, `/bookings/${booking.id}/${end}`, end === 'decline' ? words : undefined)
        }
      />
    </div>
  );
}

function BookingCard({
  booking,
  act,
  busy,
  meetingLink,
}: {
  booking: BookingSummary;
  act: Act;
  busy: boolean;
  /** The settings' default meeting link, offered when a video session is confirmed. */
  meetingLink: string;
}) {
  const headingId = useId();
  const status = booking.past ? 'past' : booking.status;
  return (
    <article aria-labelledby={headingId} className="card min-w-0">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 id={headingId} className="min-w-0 text-lg font-semibold wrap-anywhere">
          {booking.name || booking.email}{' '}
          <span className="font-normal text-ink-600">({booking.reference})</span>
        </h3>
        <Badge
          tone={booking.status === 'confirmed' ? 'good' : booking.status === 'requested' ? 'warn' : 'neutral'}
        >
          {copy.views[status] ?? status}
        </Badge>
      </div>
      <dl className="mt-3 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
        <div>
          <dt className="font-medium text-ink-700">{copy.email}</dt>
          <dd className="break-all">{booking.email}</dd>
        </div>
        {booking.company ? (
          <div>
            <dt className="font-medium text-ink-700">{copy.company}</dt>
            <dd className="wrap-anywhere">{booking.company}</dd>
          </div>
        ) : null}
        <div>
          <dt className="font-medium text-ink-700">{copy.sessionType}</dt>
          <dd>{booking.sessionType}</dd>
        </div>
        <div>
          <dt className="font-medium text-ink-700">{copy.requestedAt}</dt>
          <dd>
            <DateTime iso={booking.createdAt} />
          </dd>
        </div>
        {booking.session ? (
          <div className="sm:col-span-2">
            <dt className="font-medium text-ink-700">{copy.session}</dt>
            <dd className="font-semibold">{booking.session.label}</dd>
          </div>
        ) : null}
        {booking.move ? (
          <div className="sm:col-span-2">
            <dt className="font-medium text-ink-700">{copy.moveAsked}</dt>
            <dd className="font-semibold">{booking.move.label}</dd>
          </div>
        ) : null}
        {booking.session ? null : (
          <div className="sm:col-span-2">
            <dt className="font-medium text-ink-700">{copy.choices}</dt>
            <dd>
              <ul>
                {booking.choices.map((c) => (
                  <li key={c.choice}>
                    {copy.choice(c.choice)}: {c.label}
                  </li>
                ))}
              </ul>
            </dd>
          </div>
        )}
      </dl>

      {booking.history.length > 0 ? (
        <details className="mt-3 text-sm">
          <summary className="cursor-pointer rounded font-medium text-ink-800">{copy.history}</summary>
          <ol className="mt-2 space-y-1 border-l-2 border-ink-200 pl-3 wrap-anywhere">
            {booking.history.map((event, index) => (
              <li key={`${event.at}-${index}`}>
                <span className="font-medium">{copy.statusWords[event.status] ?? event.status}</span>{' '}
                <DateTime iso={event.at} /> {copy.by} {event.actor}
              </li>
            ))}
          </ol>
        </details>
      ) : null}

      <p className="mt-3 text-sm">
        <Link to={page(`inbox/${booking.submissionId}`)} className="text-link">
          {copy.submission}
        </Link>
      </p>

      <BookingActions
        booking={booking}
        act={act}
        busy={busy}
        describedBy={headingId}
        meetingLink={meetingLink}
      />
    </article>
  );
}

export function BookingsPage() {
  const view: BookingView = useQueryChoice('view', BOOKING_VIEWS, 'requested');
  const [list, reload] = useResource<BookingList>(`/bookings?view=${view}`);
  const { busy, run } = useAction();

  const act: Act = async (key, path, body = {}) => {
    let clash: string | undefined;
    const answer = await run(
      key,
      async () => {
        const result = await post<BookingActAnswer>(path, body);
        // A time that clashes with the diary: 409, the clash as the start time's error.
        if (!result.ok && result.status === 409) clash = result.fieldErrors?.start;
        return result;
      },
      (data) => data.message,
    );
    if (answer) reload();
    return { done: !!answer, clash };
  };

  return (
    <>
      <PageHeading title={copy.title}>{copy.title}</PageHeading>
      <QueryTabs
        label={copy.viewsLabel}
        name="view"
        values={BOOKING_VIEWS}
        words={copy.views}
        current={view}
      />
      <h2 className="sr-only">{copy.views[view]}</h2>
      <ListStatus resource={list} empty={copy.empty(copy.views[view] ?? view)} />
      <Loaded resource={list} reload={reload}>
        {(data) => (
          <div className="mt-2 grid gap-4">
            {data.items.map((booking) => (
              <BookingCard
                key={booking.id}
                booking={booking}
                act={act}
                busy={busy !== null}
                meetingLink={data.meetingLink}
              />
            ))}
          </div>
        )}
      </Loaded>
    </>
  );
}
