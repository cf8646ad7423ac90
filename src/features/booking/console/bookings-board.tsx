/**
 * Bookings by status (requested, confirmed, declined, cancelled, past), each with its history.
 * Confirm (a choice and a start time), decline and cancel run the same code and send the same
 * e-mails as the links in the owner's e-mail; a confirmed session can be moved to a new day and
 * time, and the applicant gets an updated invite.
 */
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { bookingsCopy as copy } from '~/content/console';
import {
  BOOKING_VIEWS,
  type BookingActAnswer,
  type BookingList,
  type BookingSummary,
  type BookingView,
} from '../booking-console-contract';
import { post } from '~/components/console/http';
import {
  ConfirmForm,
  DeclineNote,
  MoveAskedForm,
  RescheduleForm,
  type Act,
  type DeclineWords,
} from './booking-action-forms';
import { page } from '~/components/console/paths';
import { Loaded, useResource } from '~/components/console/data';
import { DateTime } from '~/components/console/dates';
import { ConfirmButton } from '~/components/console/dialog';
import { useAction } from '~/components/console/notices';
import { Badge, PageHeading } from '~/components/console/page';
import { ListStatus } from '~/components/console/pager';
import { QueryTabs, useQueryChoice } from '~/components/console/tabs';

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
      <div className="flex flex-wrap gap-3">
        {booking.holdUntil ? (
          <ConfirmButton
            label={copy.releaseHold}
            title={copy.confirmReleaseTitle}
            text={copy.confirmReleaseText}
            cancelLabel={copy.keep}
            describedBy={describedBy}
            disabled={busy}
            onConfirm={() => void act('release-hold', `/bookings/${booking.id}/release-hold`)}
          />
        ) : null}
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
        {booking.holdUntil !== undefined ? (
          <div className="sm:col-span-2">
            <dt className="font-medium text-ink-700">{copy.hold}</dt>
            <dd>
              {booking.holdUntil ? (
                <>
                  {copy.holdUntil(booking.choices[0]?.label ?? '')} <DateTime iso={booking.holdUntil} />
                </>
              ) : (
                copy.notHeld
              )}
            </dd>
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
