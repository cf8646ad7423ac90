/**
 * Bookings by status (requested, confirmed, declined, cancelled, past), each with its history.
 * Confirm (a choice and a start time), decline and cancel run the same code and send the same
 * e-mails as the links in the owner's e-mail; a confirmed session can be moved to a new day and
 * time, and the applicant gets an updated invite.
 */
import { useId, useState, type FormEvent } from 'react';
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
import { page, useQuery } from '~/components/console/paths';
import { Loaded, useResource } from '~/components/console/data';
import { DateTime } from '~/components/console/dates';
import { ConfirmButton } from '~/components/console/dialog';
import { Field } from '~/components/console/fields';
import { useAction } from '~/components/console/notices';
import { Badge, PageHeading } from '~/components/console/page';
import { ListStatus } from '~/components/console/pager';

type Act = (key: string, path: string, body?: unknown) => Promise<boolean>;

function ConfirmForm({ booking, act, busy }: { booking: BookingSummary; act: Act; busy: boolean }) {
  const [choice, setChoice] = useState<1 | 2>(booking.choices[0]?.choice ?? 1);
  const times = booking.choices.find((c) => c.choice === choice)?.startTimes ?? [];
  const [start, setStart] = useState(times[0]?.value ?? '');
  const id = useId();
  function submit(event: FormEvent) {
    event.preventDefault();
    void act('confirm', `/bookings/${booking.id}/confirm`, { choice, start });
  }
  return (
    <form onSubmit={submit} aria-labelledby={`${id}-h`} className="rounded-lg border border-ink-200 p-4">
      <h4 id={`${id}-h`} className="font-semibold">
        {copy.confirmHeading}
      </h4>
      <div className="mt-2 grid gap-4 sm:grid-cols-2">
        <Field id={`${id}-choice`} label={copy.chooseChoice}>
          {(control) => (
            <select
              {...control}
              className="field-input"
              value={choice}
              onChange={(e) => {
                const next = Number(e.target.value) as 1 | 2;
                setChoice(next);
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
        <Field id={`${id}-start`} label={copy.startTime} required>
          {(control) => (
            <select
              {...control}
              className="field-input"
              value={start}
              onChange={(e) => setStart(e.target.value)}
            >
              {times.map((t) => (
                <option key={t.value} value={t.value}>
                  {t.label}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <button type="submit" className="btn btn-primary mt-1" disabled={busy || !start}>
        {copy.confirm}
      </button>
    </form>
  );
}

function RescheduleForm({ booking, act, busy }: { booking: BookingSummary; act: Act; busy: boolean }) {
  const [options] = useResource<RescheduleOptions>('/bookings/reschedule-options');
  const [date, setDate] = useState(booking.session?.date ?? '');
  const [start, setStart] = useState(booking.session?.start ?? '');
  const id = useId();
  const times = options.state === 'ready' ? options.data.startTimes : [];
  function submit(event: FormEvent) {
    event.preventDefault();
    void act('reschedule', `/bookings/${booking.id}/reschedule`, { date, start });
  }
  return (
    <form onSubmit={submit} aria-labelledby={`${id}-h`} className="rounded-lg border border-ink-200 p-4">
      <h4 id={`${id}-h`} className="font-semibold">
        {copy.rescheduleHeading}
      </h4>
      <div className="mt-2 grid gap-4 sm:grid-cols-2">
        <Field id={`${id}-date`} label={copy.rescheduleDate} required>
          {(control) => (
            <input
              {...control}
              type="date"
              className="field-input"
              min={ukToday(new Date())}
              value={date}
              onChange={(e) => setDate(e.target.value)}
            />
          )}
        </Field>
        <Field id={`${id}-start`} label={copy.rescheduleStart} required>
          {(control) => (
            <select
              {...control}
              className="field-input"
              value={times.some((t) => t.value === start) ? start : ''}
              onChange={(e) => setStart(e.target.value)}
            >
              <option value="" disabled>
                {options.state === 'loading' ? consoleCopy.loading : copy.startTime}
              </option>
              {times.map((t) => (
                <option key={t.value} value={t.value}>
                  {t.label}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <button type="submit" className="btn btn-primary mt-1" disabled={busy || !date || !start}>
        {copy.rescheduleButton}
      </button>
    </form>
  );
}

function BookingCard({ booking, act, busy }: { booking: BookingSummary; act: Act; busy: boolean }) {
  const headingId = useId();
  const status = booking.past ? 'past' : booking.status;
  return (
    <article aria-labelledby={headingId} className="card">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 id={headingId} className="text-lg font-semibold break-words">
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
            <dd className="break-words">{booking.company}</dd>
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
        ) : (
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
          <ol className="mt-2 space-y-1 border-l-2 border-ink-200 pl-3">
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

      {booking.status === 'requested' ? (
        <div className="mt-4 space-y-3">
          <ConfirmForm booking={booking} act={act} busy={busy} />
          <ConfirmButton
            label={copy.decline}
            title={copy.confirmDeclineTitle}
            text={copy.confirmDeclineText}
            cancelLabel={copy.keep}
            describedBy={headingId}
            disabled={busy}
            onConfirm={() => void act('decline', `/bookings/${booking.id}/decline`)}
          />
        </div>
      ) : null}
      {booking.status === 'confirmed' && !booking.past ? (
        <div className="mt-4 space-y-3">
          <RescheduleForm booking={booking} act={act} busy={busy} />
          <ConfirmButton
            label={copy.cancel}
            title={copy.confirmCancelTitle}
            text={copy.confirmCancelText}
            cancelLabel={copy.keep}
            describedBy={headingId}
            disabled={busy}
            onConfirm={() => void act('cancel', `/bookings/${booking.id}/cancel`)}
          />
        </div>
      ) : null}
    </article>
  );
}

export function BookingsPage() {
  const [params] = useQuery();
  const requested = params.get('view');
  const view: BookingView = (BOOKING_VIEWS as readonly string[]).includes(requested ?? '')
    ? (requested as BookingView)
    : 'requested';
  const [list, reload] = useResource<BookingList>(`/bookings?view=${view}`);
  const { busy, run } = useAction();

  const act: Act = async (key, path, body = {}) => {
    const answer = await run(
      key,
      () => post<BookingActAnswer>(path, body),
      (data) => data.message,
    );
    if (answer) reload();
    return !!answer;
  };

  return (
    <>
      <PageHeading title={copy.title}>{copy.title}</PageHeading>
      <nav aria-label={copy.viewsLabel} className="mt-4">
        <ul className="flex flex-wrap gap-2">
          {BOOKING_VIEWS.map((v) => (
            <li key={v}>
              <Link
                to={{ search: `?view=${v}` }}
                aria-current={v === view ? 'page' : undefined}
                className={
                  'block rounded-full border px-3 py-1.5 text-sm font-medium ' +
                  (v === view
                    ? 'border-ink-900 bg-ink-900 text-white'
                    : 'border-ink-300 bg-white text-ink-800 hover:bg-ink-100')
                }
              >
                {copy.views[v]}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <h2 className="sr-only">{copy.views[view]}</h2>
      <ListStatus resource={list} empty={copy.empty(copy.views[view] ?? view)} />
      <Loaded resource={list} reload={reload}>
        {(data) => (
          <div className="mt-2 grid gap-4">
            {data.items.map((booking) => (
              <BookingCard key={booking.id} booking={booking} act={act} busy={busy !== null} />
            ))}
          </div>
        )}
      </Loaded>
    </>
  );
}
