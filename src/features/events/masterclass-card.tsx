/**
 * The masterclass card on the Resources page: the next published masterclass (spec layout and
 * labels), filled after hydration from GET /api/events/next (`NextEventProvider`).
 *
 * The prerendered page holds the card in its loading state. Every state is drawn in the same
 * frame, whose height is reserved (a min-height per breakpoint) and whose long texts are clamped,
 * so the filled card is never taller than the loading one: nothing on the page moves (CLS 0).
 * A past or cancelled masterclass offers neither registration nor a calendar file.
 */
import { CalendarDays, Clock, MapPin, MonitorPlay, Ticket } from 'lucide-react';
import type { ReactNode } from 'react';
import { toast } from '~/components/toast/toast-store';
import { masterclassCard as copy } from '~/content/events';
import { calendarFileName, ukInstantLabel } from './event-labels';
import { ukDayLabel, ukTimeRange } from './event-times';
import { eventJsonLd, jsonForScript } from './event-json-ld';
import { useNextEvent, type NextEventState } from './next-event';

/**
 * The card's reserved height: at least the tallest state with every clamped text at its longest
 * (two-line title, three-line summary, four facts, a three-line note, the buttons: stacked on a
 * phone, side by side from `sm`). A browser test checks that no state outgrows it.
 */
const FRAME = 'card flex h-full min-h-[39rem] flex-col sm:min-h-[35rem] sm:p-8';

function Fact({ icon, label, children }: { icon: ReactNode; label: string; children: ReactNode }) {
  return (
    <li className="flex min-w-0 items-center gap-2">
      {icon}
      <span className="sr-only">{label}: </span>
      <span className="truncate">{children}</span>
    </li>
  );
}

const iconClass = 'size-4 shrink-0 text-brand-700';

function stateName(state: NextEventState): string {
  if (state.kind !== 'event') return state.kind;
  if (state.event.cancelled) return 'cancelled';
  return state.past ? 'past' : 'upcoming';
}

export function MasterclassCard({
  titleId,
  structuredData = true,
  newsletterHref = copy.none.link.href,
}: {
  titleId: string;
  /** The Event's structured data, made from the answer (a masterclass's own page has its own). */
  structuredData?: boolean;
  /** Where "Tell me about the next one" leads: the page's newsletter section, or Resources'. */
  newsletterHref?: string;
}) {
  const state = useNextEvent();
  const name = stateName(state);

  let eyebrow: string;
  let title: string;
  let body: ReactNode;
  if (state.kind === 'loading') {
    eyebrow = copy.loading.eyebrow;
    title = copy.loading.title;
    body = <p className="mt-3 line-clamp-6 leading-relaxed text-ink-700">{copy.loading.text}</p>;
  } else if (state.kind === 'none') {
    eyebrow = copy.none.eyebrow;
    title = copy.none.title;
    body = (
      <>
        <p className="mt-3 line-clamp-6 leading-relaxed text-ink-700">{copy.none.text}</p>
        <div className="mt-auto pt-6">
          <a href={newsletterHref} className="btn btn-secondary w-full sm:w-auto">
            {copy.none.link.label}
          </a>
        </div>
      </>
    );
  } else {
    const { event, past, registration } = state;
    const over = past || event.cancelled;
    eyebrow = event.cancelled ? copy.cancelled.eyebrow : past ? copy.past.eyebrow : copy.upcoming.eyebrow;
    title = event.title;
    const note = event.cancelled
      ? copy.cancelled.note
      : past
        ? copy.past.note
        : registration === 'open'
          ? copy.openNote
          : registration === 'not-yet-open'
            ? copy.opensNote(ukInstantLabel(event.registration.opensAt))
            : copy.closedNote;
    const places =
      event.registration.placesLeft > 0
        ? copy.placesLeft(event.registration.placesLeft)
        : registration === 'open'
          ? copy.fullyBooked
          : copy.fullyBookedClosed;
    const calendarPath = over ? null : event.calendarPath;
    body = (
      <>
        <p className="mt-3 line-clamp-3 leading-relaxed text-ink-700">{event.summary}</p>
        <ul className="mt-5 grid gap-2 text-sm font-medium text-ink-800">
          <Fact icon={<CalendarDays aria-hidden="true" className={iconClass} />} label={copy.facts.date}>
            <time dateTime={event.startsAt}>{ukDayLabel(new Date(event.startsAt))}</time>
          </Fact>
          <Fact icon={<Clock aria-hidden="true" className={iconClass} />} label={copy.facts.time}>
            {ukTimeRange(new Date(event.startsAt), new Date(event.endsAt))}
          </Fact>
          <Fact
            icon={
              event.mode === 'online' ? (
                <MonitorPlay aria-hidden="true" className={iconClass} />
              ) : (
                <MapPin aria-hidden="true" className={iconClass} />
              )
            }
            label={copy.facts.format}
          >
            {event.mode === 'online' ? copy.format.online : (event.place ?? '')}
          </Fact>
          {over ? null : (
            <Fact icon={<Ticket aria-hidden="true" className={iconClass} />} label={copy.facts.places}>
              <span data-testid="masterclass-places">{places}</span>
            </Fact>
          )}
        </ul>
        <p
          className="mt-5 line-clamp-3 rounded-lg bg-ink-50 px-4 py-3 text-sm text-ink-700"
          data-testid="masterclass-status"
        >
          {note}
        </p>
        <div className="mt-auto flex flex-col gap-3 pt-6 sm:flex-row">
          {!over && registration === 'open' ? (
            <a href={copy.reserve.href} className="btn btn-primary">
              {copy.reserve.label}
            </a>
          ) : null}
          {calendarPath ? (
            <a
              id="calendar"
              href={calendarPath}
              download={calendarFileName(event.startsAt)}
              className="btn btn-secondary"
              onClick={() =>
                toast({ title: copy.calendar.toastTitle, description: copy.calendar.toastDescription })
              }
            >
              {copy.calendar.label}
              <span className="sr-only">{copy.calendar.srSuffix}</span>
            </a>
          ) : null}
          {over ? (
            <a href={newsletterHref} className="btn btn-secondary">
              {copy.none.link.label}
            </a>
          ) : null}
        </div>
      </>
    );
  }

  return (
    <>
      <article
        aria-labelledby={titleId}
        aria-busy={state.kind === 'loading' || undefined}
        data-testid="masterclass"
        data-state={name}
        className={FRAME}
      >
        <div className="flex items-start justify-between gap-4">
          <p className="eyebrow">{eyebrow}</p>
          <span className="inline-flex size-12 shrink-0 items-center justify-center rounded-xl bg-ink-100 text-ink-800">
            <CalendarDays aria-hidden="true" className="size-6" />
          </span>
        </div>
        <h2 id={titleId} className="mt-1 line-clamp-2 text-2xl font-bold text-ink-900">
          {title}
        </h2>
        {body}
      </article>
      {structuredData && state.kind === 'event' && !state.past ? (
        <script
          type="application/ld+json"
          data-testid="masterclass-json-ld"
          // Structured data of the real next masterclass; none without one.
          dangerouslySetInnerHTML={{ __html: jsonForScript(eventJsonLd(state.event)) }}
        />
      ) : null}
    </>
  );
}
