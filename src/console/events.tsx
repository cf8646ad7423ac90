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
import {
  OWNER_API,
  type Attendee,
  type EventChangeAnswer,
  type EventDetail,
  type EventList,
  type EventMessageAnswer,
  type EventSummary,
} from './api';
import { post } from './http';
import { page } from './paths';
import {
  Badge,
  ConfirmButton,
  DateTime,
  Field,
  Loaded,
  PageHeading,
  TableBox,
  td,
  th,
  useAction,
  useNotify,
  useResource,
} from './ui';

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

export function EventsPage() {
  const [list, reload] = useResource<EventList>('/events');
  return (
    <>
      <PageHeading title={copy.title}>{copy.title}</PageHeading>
      <p className="mt-2 text-ink-700">{copy.intro}</p>
      <p className="mt-4">
        <Link to={page('events/new')} className="btn btn-primary">
          {copy.newEvent}
        </Link>
      </p>
      <p role="status" className="mt-4 text-sm text-ink-700">
        {list.state === 'ready'
          ? list.data.items.length === 0
            ? copy.empty
            : copy.count(list.data.items.length)
          : ''}
      </p>
      <Loaded resource={list} reload={reload}>
        {(data) =>
          data.items.length === 0 ? null : (
            <TableBox label={copy.tableLabel}>
              <table className="w-full min-w-[44rem] border-collapse">
                <caption className="sr-only">{copy.tableLabel}</caption>
                <thead>
                  <tr>
                    <th scope="col" className={th}>
                      {copy.eventTitle}
                    </th>
                    <th scope="col" className={th}>
                      {copy.when}
                    </th>
                    <th scope="col" className={th}>
                      {copy.status}
                    </th>
                    <th scope="col" className={`${th} text-right`}>
                      {copy.registered}
                    </th>
                    <th scope="col" className={`${th} text-right`}>
                      {copy.waitlist}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.items.map((event) => (
                    <tr key={event.id}>
                      <th scope="row" className={`${td} text-left font-medium break-words`}>
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
                </tbody>
              </table>
            </TableBox>
          )
        }
      </Loaded>
    </>
  );
}

// --- One event ----------------------------------------------------------------------------------

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 border-b border-ink-100 py-2 sm:grid-cols-[12rem_1fr] sm:gap-4">
      <dt className="text-sm font-medium text-ink-700">{label}</dt>
      <dd className="min-w-0 break-words text-ink-900">{children}</dd>
    </div>
  );
}

function Details({ event }: { event: EventDetail }) {
  return (
    <dl>
      <Row label={copy.status}>
        <StatusBadge event={event} />
      </Row>
      <Row label={copy.when}>
        <EventWhen startsAt={event.startsAtIso} endsAt={event.endsAtIso} />
      </Row>
      <Row label={copy.where}>
        {event.mode === 'in-person' ? (
          <>
            {copy.inPerson}: <span className="whitespace-pre-wrap">{event.place}</span>
          </>
        ) : (
          copy.online
        )}
      </Row>
      {event.mode === 'online' ? (
        <Row label={copy.joinUrl}>
          <span className="break-all">{event.joinUrl || consoleCopy.none}</span>{' '}
          <span className="text-sm text-ink-600">({copy.joinUrlNote})</span>
        </Row>
      ) : null}
      <Row label={copy.capacity}>
        {copy.places(event.registered, event.capacity)}; {copy.waitlisted(event.waitlisted)}
      </Row>
      <Row label={copy.registrationOpens}>
        {event.registrationOpensAt ? <UkWallClock value={event.registrationOpensAt} /> : copy.opensOnPublish}
      </Row>
      <Row label={copy.registrationCloses}>
        {event.registrationClosesAt ? <UkWallClock value={event.registrationClosesAt} /> : copy.closesAtStart}
      </Row>
      <Row label={copy.summary}>
        <span className="whitespace-pre-wrap">{event.summary}</span>
      </Row>
      <Row label={copy.updated}>
        <DateTime iso={event.updatedAt} />
      </Row>
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
      <a
        ref={downloadLink}
        href={`${OWNER_API}/exports/events/${encodeURIComponent(event.id)}/attendees.csv`}
        download
        className="btn btn-secondary"
        aria-describedby="event-download-note"
      >
        {copy.download}
      </a>
      <span id="event-download-note" className="text-sm text-ink-600">
        ({copy.downloadNote})
      </span>
    </div>
  );
}

type Column = { label: string; cell: (a: Attendee, index: number) => ReactNode; className?: string };

function AttendeeTable({
  id,
  heading,
  label,
  empty,
  rows,
  columns,
}: {
  id: string;
  heading: string;
  label: string;
  empty: string;
  rows: Attendee[];
  columns: Column[];
}) {
  return (
    <section aria-labelledby={id} className="mt-8">
      <h2 id={id} className="text-lg font-semibold">
        {`${heading} (${rows.length})`}
      </h2>
      {rows.length === 0 ? (
        <p className="mt-2 text-ink-700">{empty}</p>
      ) : (
        <TableBox label={label}>
          <table className="w-full min-w-[44rem] border-collapse">
            <caption className="sr-only">{label}</caption>
            <thead>
              <tr>
                {columns.map((column) => (
                  <th key={column.label} scope="col" className={th}>
                    {column.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((attendee, index) => (
                <tr key={attendee.registrationId}>
                  {columns.map((column, c) =>
                    column.label === copy.name ? (
                      <th key={c} scope="row" className={`${td} text-left font-medium break-words`}>
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
            </tbody>
          </table>
        </TableBox>
      )}
    </section>
  );
}

const nameColumn: Column = { label: copy.name, cell: (a) => a.name || a.email };
const emailColumn: Column = { label: copy.email, cell: (a) => a.email, className: 'break-all' };
const companyColumn: Column = { label: copy.company, cell: (a) => a.company, className: 'break-words' };
const registeredColumn: Column = {
  label: copy.registeredAt,
  cell: (a) => <DateTime iso={a.registeredAt} />,
  className: 'whitespace-nowrap',
};

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
    <section aria-labelledby="event-message" className="card mt-8">
      <h2 id="event-message" className="text-lg font-semibold">
        {copy.messageHeading}
      </h2>
      <p className="mt-1 text-ink-700">{copy.messageIntro(event.registered)}</p>
      <form noValidate onSubmit={(e) => void send(e)} className="mt-4 max-w-2xl">
        <Field label={copy.subject} required validated error={errors.subject}>
          {(control) => (
            <input
              {...control}
              type="text"
              name="subject"
              autoComplete="off"
              value={subject}
              onChange={(e) => setSubject(e.target.value)}
              className="field-input"
            />
          )}
        </Field>
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
        <button type="submit" className="btn btn-primary" disabled={sending}>
          {sending ? copy.sending : copy.send}
        </button>
      </form>
    </section>
  );
}

/** `/owner/events/:id` */
export function EventPage({ id }: { id: string }) {
  const [detail, reload] = useResource<EventDetail>(`/events/${encodeURIComponent(id)}`);
  const title = detail.state === 'ready' ? detail.data.title : copy.titleFallback;
  return (
    <>
      <p className="mb-2">
        <Link to={page('events')} className="text-link">
          {copy.back}
        </Link>
      </p>
      <PageHeading title={title}>{title}</PageHeading>
      <Loaded resource={detail} reload={reload}>
        {(event) => (
          <>
            <section aria-labelledby="event-details" className="card mt-6">
              <h2 id="event-details" className="sr-only">
                {copy.detailsHeading}
              </h2>
              <Details event={event} />
              <h2 className="sr-only">{copy.actionsHeading}</h2>
              {event.status === 'cancelled' ? (
                <p className="mt-4 text-ink-700">{copy.cancelledNote}</p>
              ) : event.past ? (
                <p className="mt-4 text-ink-700">{copy.pastNote}</p>
              ) : null}
              <Actions event={event} reload={reload} />
            </section>

            <AttendeeTable
              id="event-attendees"
              heading={copy.attendeesHeading}
              label={copy.attendeesTable}
              empty={copy.noAttendees}
              rows={event.attendees}
              columns={[
                nameColumn,
                emailColumn,
                companyColumn,
                registeredColumn,
                {
                  label: copy.promotedAt,
                  cell: (a) => <DateTime iso={a.promotedAt} />,
                  className: 'whitespace-nowrap',
                },
              ]}
            />
            <AttendeeTable
              id="event-waitlist"
              heading={copy.waitlistHeading}
              label={copy.waitlistTable}
              empty={copy.noWaitlist}
              rows={event.waitlist}
              columns={[
                { label: copy.position, cell: (_a, index) => index + 1, className: 'tabular-nums' },
                nameColumn,
                emailColumn,
                companyColumn,
                registeredColumn,
              ]}
            />
            {event.cancelled.length > 0 ? (
              <AttendeeTable
                id="event-cancelled"
                heading={copy.cancelledHeading}
                label={copy.cancelledTable}
                empty=""
                rows={event.cancelled}
                columns={[
                  nameColumn,
                  emailColumn,
                  companyColumn,
                  registeredColumn,
                  {
                    label: copy.cancelledAt,
                    cell: (a) => <DateTime iso={a.cancelledAt} />,
                    className: 'whitespace-nowrap',
                  },
                ]}
              />
            ) : null}

            {event.status === 'published' ? (
              <MessageForm event={event} />
            ) : event.status === 'draft' ? (
              <p className="mt-8 text-ink-700">{copy.messageAfterPublish}</p>
            ) : null}
          </>
        )}
      </Loaded>
    </>
  );
}
