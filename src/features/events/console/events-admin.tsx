/**
 * Events (masterclasses): every event with its status and places; one event's page with its
 * details, Publish (a draft), Edit, Cancel event (after a confirmation that says who is
 * e-mailed), its attendees and waitlist in order, their CSV, and a short message to every
 * registered attendee through the outbox. Times are UK time; names and words the visitors typed
 * are shown as text. The form is in event-form.tsx.
 */
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { consoleCopy, eventsCopy as copy } from '~/content/console';
import { OWNER_API } from '~/contract/console';
import type {
  Attendee,
  EventChangeAnswer,
  EventDetail,
  EventList,
  EventMessageAnswer,
  EventSummary,
} from '../events-console-contract';
import { eventsRoutes } from '../events-console-contract';
import { post } from '~/components/console/http';
import { page } from '~/components/console/paths';
import { useResource } from '~/components/console/data';
import { DateTime } from '~/components/console/dates';
import { ConfirmButton } from '~/components/console/dialog';
import { IfMayUse } from '~/components/console/role';
import { DownloadLink } from '~/components/console/download';
import { Field, SubmitButton, TextField } from '~/components/console/fields';
import { useAction, useNotify } from '~/components/console/notices';
import { Badge, DetailRow, IfAny, ItemPage, PageHeading, Section } from '~/components/console/page';
import { LoadedList } from '~/components/console/pager';
import { DataTable, numeric, rowTh, td } from '~/components/console/table';

// --- Times and status ---------------------------------------------------------------------------

const UK = 'Europe/London';
const dayFormat = new Intl.DateTimeFormat('en-GB', {
  timeZone: UK,
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
});
const timeFormat = new Intl.DateTimeFormat('en-GB', {
  timeZone: UK,
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** An event's times in UK words: "Thu, 10 Jul 2025, 18:00 to 19:30" (both dates when it spans days). */
export function EventWhen({ startsAt, endsAt }: { startsAt: string; endsAt: string }) {
  const start = new Date(startsAt);
  const end = new Date(endsAt);
  if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime())) return <>{consoleCopy.none}</>;
  const sameDay = dayFormat.format(start) === dayFormat.format(end);
  return (
    <>
      <time dateTime={startsAt}>
        {dayFormat.format(start)}, {timeFormat.format(start)}
      </time>{' '}
      {copy.to}{' '}
      <time dateTime={endsAt}>
        {sameDay ? '' : `${dayFormat.format(end)}, `}
        {timeFormat.format(end)}
      </time>
    </>
  );
}

type ShownStatus = 'draft' | 'published' | 'cancelled' | 'past';

function shownStatus(event: EventSummary): ShownStatus {
  if (event.status === 'cancelled') return 'cancelled';
  if (event.past) return 'past';
  return event.status;
}

const tones: Record<ShownStatus, 'neutral' | 'good' | 'bad' | 'warn'> = {
  draft: 'warn',
  published: 'good',
  cancelled: 'bad',
  past: 'neutral',
};

function StatusBadge({ event }: { event: EventSummary }) {
  const status = shownStatus(event);
  return <Badge tone={tones[status]}>{copy.statuses[status] ?? status}</Badge>;
}

const eventPath = (id: string) => page(`events/${encodeURIComponent(id)}`);

// --- The list -----------------------------------------------------------------------------------

const listColumns = [
  copy.eventTitle,
  copy.when,
  copy.status,
  numeric(copy.registered),
  numeric(copy.waitlist),
];

export function EventsPage() {
  const [list, reload] = useResource<EventList>('/events');
  return (
    <>
      <PageHeading title={copy.title}>{copy.title}</PageHeading>
      <p className="mt-2 text-ink-700">{copy.intro}</p>
      <IfMayUse route={eventsRoutes.create}>
        <p className="mt-4">
          <Link to={page('events/new')} className="btn btn-primary">
            {copy.newEvent}
          </Link>
        </p>
      </IfMayUse>
      <LoadedList resource={list} reload={reload} empty={copy.empty} count={copy.count}>
        {(data) => (
          <DataTable label={copy.tableLabel} minWidth="min-w-[44rem]" columns={listColumns}>
            {data.items.map((event) => (
              <tr key={event.id}>
                <th scope="row" className={rowTh}>
                  <Link to={eventPath(event.id)} className="text-link">
                    {event.title}
                  </Link>
                </th>
                <td className={td}>
                  <EventWhen startsAt={event.startsAtIso} endsAt={event.endsAtIso} />
                </td>
                <td className={td}>
                  <StatusBadge event={event} />
                </td>
                <td className={`${td} text-right whitespace-nowrap tabular-nums`}>
                  {copy.of(event.registered, event.capacity)}
                </td>
                <td className={`${td} text-right tabular-nums`}>{event.waitlisted}</td>
              </tr>
            ))}
          </DataTable>
        )}
      </LoadedList>
    </>
  );
}

// --- One event ----------------------------------------------------------------------------------

function Details({ event }: { event: EventDetail }) {
  return (
    <dl>
      <DetailRow label={copy.status}>
        <StatusBadge event={event} />
      </DetailRow>
      <DetailRow label={copy.when}>
        <EventWhen startsAt={event.startsAtIso} endsAt={event.endsAtIso} />
      </DetailRow>
      <DetailRow label={copy.where}>
        {event.mode === 'in-person' ? (
          <>
            {copy.inPerson}: <span className="whitespace-pre-wrap">{event.place}</span>
          </>
        ) : (
          copy.online
        )}
      </DetailRow>
      {event.mode === 'online' ? (
        <DetailRow label={copy.joinUrl}>
          <span className="break-all">{event.joinUrl || consoleCopy.none}</span>{' '}
          <span className="text-sm text-ink-600">({copy.joinUrlNote})</span>
        </DetailRow>
      ) : null}
      <DetailRow label={copy.capacity}>
        {copy.places(event.registered, event.capacity)}; {copy.waitlisted(event.waitlisted)}
      </DetailRow>
      <DetailRow label={copy.registrationOpens}>
        {event.registrationOpensAt ? <UkWallClock value={event.registrationOpensAt} /> : copy.opensOnPublish}
      </DetailRow>
      <DetailRow label={copy.registrationCloses}>
        {event.registrationClosesAt ? <UkWallClock value={event.registrationClosesAt} /> : copy.closesAtStart}
      </DetailRow>
      <DetailRow label={copy.summary}>
        <span className="whitespace-pre-wrap">{event.summary}</span>
      </DetailRow>
      <DetailRow label={copy.updated}>
        <DateTime iso={event.updatedAt} />
      </DetailRow>
    </dl>
  );
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sept', 'Oct', 'Nov', 'Dec'];

/** A UK wall-clock time as the form holds it (`YYYY-MM-DDTHH:MM`), written as the console writes dates. */
function UkWallClock({ value }: { value: string }) {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}:\d{2})/.exec(value);
  if (!m) return <>{value}</>;
  return (
    <>
      {Number(m[3])} {MONTHS[Number(m[2]) - 1]} {m[1]}, {m[4]}
    </>
  );
}

function Actions({ event, reload }: { event: EventDetail; reload: () => void }) {
  const { busy, run } = useAction();
  // Publish and Cancel event leave the page once done: focus moves to what stays.
  const editLink = useRef<HTMLAnchorElement>(null);
  const downloadLink = useRef<HTMLAnchorElement>(null);
  const base = `/events/${encodeURIComponent(event.id)}`;
  const cancelled = event.status === 'cancelled';
  return (
    <div className="mt-4 flex flex-wrap items-center gap-3">
      {event.status === 'draft' && !event.past ? (
        <button
          type="button"
          className="btn btn-primary"
          disabled={busy !== null}
          onClick={() =>
            void run(
              'publish',
              () => post<EventChangeAnswer>(`${base}/publish`),
              () => copy.published,
            ).then((done) => {
              if (!done) return;
              editLink.current?.focus();
              reload();
            })
          }
        >
          {busy === 'publish' ? copy.publishing : copy.publish}
        </button>
      ) : null}
      {cancelled || event.past ? null : (
        <Link
          ref={editLink}
          to={page(`events/${encodeURIComponent(event.id)}/edit`)}
          className="btn btn-secondary"
        >
          {copy.edit}
        </Link>
      )}
      {cancelled || event.past ? null : (
        <ConfirmButton
          label={copy.cancelEvent}
          title={copy.cancelTitle}
          text={
            event.status === 'draft'
              ? copy.cancelDraftText
              : copy.cancelText(event.registered, event.waitlisted)
          }
          cancelLabel={copy.keep}
          disabled={busy !== null}
          onConfirm={() =>
            void run(
              'cancel',
              () => post<EventChangeAnswer>(`${base}/cancel`),
              (answer) => copy.cancelled(answer.notified ?? 0),
            ).then((done) => {
              if (!done) return;
              downloadLink.current?.focus();
              reload();
            })
          }
        />
      )}
      <DownloadLink
        ref={downloadLink}
        href={`${OWNER_API}/exports/events/${encodeURIComponent(event.id)}/attendees.csv`}
        className="btn btn-secondary"
        aria-describedby="event-download-note"
      >
        {copy.download}
      </DownloadLink>
      <span id="event-download-note" className="text-sm text-ink-600">
        ({copy.downloadNote})
      </span>
    </div>
  );
}

type Column = { label: string; cell: (a: Attendee, index: number) => ReactNode; className?: string };

const nameColumn: Column = { label: copy.name, cell: (a) => a.name || a.email };
const emailColumn: Column = { label: copy.email, cell: (a) => a.email, className: 'break-all' };
const companyColumn: Column = { label: copy.company, cell: (a) => a.company, className: 'wrap-anywhere' };
const dateColumn = (label: string, at: (a: Attendee) => string | null): Column => ({
  label,
  cell: (a) => <DateTime iso={at(a)} />,
  className: 'whitespace-nowrap',
});
const registeredColumn = dateColumn(copy.registeredAt, (a) => a.registeredAt);
const positionColumn: Column = {
  label: copy.position,
  cell: (_a, index) => index + 1,
  className: 'tabular-nums',
};
const personColumns = [nameColumn, emailColumn, companyColumn, registeredColumn];

/** The event page's lists of people: who is coming, who waits (in order), who cancelled. */
const attendeeLists = {
  attendees: { heading: copy.attendeesHeading, label: copy.attendeesTable, empty: copy.noAttendees },
  waitlist: { heading: copy.waitlistHeading, label: copy.waitlistTable, empty: copy.noWaitlist },
  cancelled: { heading: copy.cancelledHeading, label: copy.cancelledTable, empty: '' },
};

const attendeeColumns: Record<keyof typeof attendeeLists, Column[]> = {
  attendees: [...personColumns, dateColumn(copy.promotedAt, (a) => a.promotedAt)],
  waitlist: [positionColumn, ...personColumns],
  cancelled: [...personColumns, dateColumn(copy.cancelledAt, (a) => a.cancelledAt)],
};

function AttendeeTable({ list, rows }: { list: keyof typeof attendeeLists; rows: Attendee[] }) {
  const { heading, label, empty } = attendeeLists[list];
  const columns = attendeeColumns[list];
  return (
    <Section id={`event-${list}`} heading={`${heading} (${rows.length})`} className="mt-8">
      <IfAny items={rows} none={empty}>
        <DataTable label={label} minWidth="min-w-[44rem]" columns={columns.map((column) => column.label)}>
          {rows.map((attendee, index) => (
            <tr key={attendee.registrationId}>
              {columns.map((column, c) =>
                column.label === copy.name ? (
                  <th key={c} scope="row" className={rowTh}>
                    {column.cell(attendee, index)}
                  </th>
                ) : (
                  <td key={c} className={`${td} ${column.className ?? ''}`}>
                    {column.cell(attendee, index)}
                  </td>
                ),
              )}
            </tr>
          ))}
        </DataTable>
      </IfAny>
    </Section>
  );
}

function MessageForm({ event }: { event: EventDetail }) {
  const notify = useNotify();
  const [subject, setSubject] = useState('');
  const [message, setMessage] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [sending, setSending] = useState(false);

  async function send(e: FormEvent) {
    e.preventDefault();
    if (sending) return;
    setSending(true);
    notify(null);
    const result = await post<EventMessageAnswer>(`/events/${encodeURIComponent(event.id)}/message`, {
      subject: subject.trim(),
      message: message.trim(),
    });
    setSending(false);
    if (!result.ok) {
      if (result.status === 401) return;
      setErrors(result.fieldErrors ?? {});
      notify({ tone: 'error', text: result.error });
      return;
    }
    setErrors({});
    setSubject('');
    setMessage('');
    notify({ tone: 'success', text: copy.sent(result.data.emails) });
  }

  return (
    <Section id="event-message" heading={copy.messageHeading} className="card mt-8">
      <p className="mt-1 text-ink-700">{copy.messageIntro(event.registered)}</p>
      <form noValidate onSubmit={(e) => void send(e)} className="mt-4 max-w-2xl">
        <TextField
          label={copy.subject}
          required
          validated
          error={errors.subject}
          name="subject"
          value={subject}
          onChange={setSubject}
        />
        <Field label={copy.message} required validated error={errors.message}>
          {(control) => (
            <textarea
              {...control}
              name="message"
              rows={5}
              value={message}
              onChange={(e) => setMessage(e.target.value)}
              className="field-input"
            />
          )}
        </Field>
        <SubmitButton busy={sending} label={copy.send} busyLabel={copy.sending} />
      </form>
    </Section>
  );
}

/** `/owner/events/:id` */
export function EventPage({ id }: { id: string }) {
  const [detail, reload] = useResource<EventDetail>(`/events/${encodeURIComponent(id)}`);
  const title = detail.state === 'ready' ? detail.data.title : copy.titleFallback;
  return (
    <ItemPage back={page('events')} backLabel={copy.back} title={title} resource={detail} reload={reload}>
      {(event) => (
        <>
          <Section id="event-details" heading={copy.detailsHeading} className="card mt-6" look="hidden">
            <Details event={event} />
            <h2 className="sr-only">{copy.actionsHeading}</h2>
            {event.status === 'cancelled' ? (
              <p className="mt-4 text-ink-700">{copy.cancelledNote}</p>
            ) : event.past ? (
              <p className="mt-4 text-ink-700">{copy.pastNote}</p>
            ) : null}
            <IfMayUse route={eventsRoutes.update}>
              <Actions event={event} reload={reload} />
            </IfMayUse>
          </Section>

          <AttendeeTable list="attendees" rows={event.attendees} />
          <AttendeeTable list="waitlist" rows={event.waitlist} />
          {event.cancelled.length > 0 ? <AttendeeTable list="cancelled" rows={event.cancelled} /> : null}

          <IfMayUse route={eventsRoutes.message}>
            {event.status === 'published' ? (
              <MessageForm event={event} />
            ) : event.status === 'draft' ? (
              <p className="mt-8 text-ink-700">{copy.messageAfterPublish}</p>
            ) : null}
          </IfMayUse>
        </>
      )}
    </ItemPage>
  );
}
