import { CalendarDays, Clock, MonitorPlay } from 'lucide-react';
import { masterclass } from '~/content/resources';
import { toast } from '~/components/toast/toast-store';
import { useBrowserValue } from '~/lib/use-browser-value';

const END_MS = Date.parse(masterclass.endsAt);
/** setTimeout cannot wait longer than this (about 24.8 days). */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

function isPast(): boolean {
  return Date.now() >= END_MS;
}

/** Tells `onChange` when the event ends, if the page is still open then. */
function subscribeToEnd(onChange: () => void): () => void {
  const wait = END_MS - Date.now();
  if (wait <= 0 || wait > MAX_TIMEOUT_MS) return () => {};
  const timer = setTimeout(onChange, wait + 1000);
  return () => clearTimeout(timer);
}

/**
 * Two texts stacked in one grid cell: the box is as tall as the taller one in both states,
 * so switching after hydration never moves the page.
 */
function Swap({
  past,
  upcoming,
  ended,
}: {
  past: boolean;
  upcoming: React.ReactNode;
  ended: React.ReactNode;
}) {
  return (
    <span className="grid">
      <span className={'[grid-area:1/1] ' + (past ? 'invisible' : '')} aria-hidden={past || undefined}>
        {upcoming}
      </span>
      <span className={'[grid-area:1/1] ' + (past ? '' : 'invisible')} aria-hidden={!past || undefined}>
        {ended}
      </span>
    </span>
  );
}

/**
 * The masterclass card. Whether the event is over is decided in the browser from the
 * visitor's clock (after hydration, and again at the end time if the page stays open),
 * never frozen at build time.
 */
export function MasterclassCard({ titleId }: { titleId: string }) {
  // The prerendered page cannot know the visitor's clock: it renders the upcoming state.
  const past = useBrowserValue(isPast, false, subscribeToEnd);

  return (
    <article
      aria-labelledby={titleId}
      data-testid="masterclass"
      data-state={past ? 'past' : 'upcoming'}
      className="card flex h-full flex-col sm:p-8"
    >
      <div className="flex items-start justify-between gap-4">
        <p className="eyebrow">
          <Swap past={past} upcoming={masterclass.eyebrow} ended={masterclass.pastEyebrow} />
        </p>
        <span className="inline-flex size-12 shrink-0 items-center justify-center rounded-xl bg-ink-100 text-ink-800">
          <CalendarDays aria-hidden="true" className="size-6" />
        </span>
      </div>
      <h2 id={titleId} className="mt-1 text-2xl font-bold text-ink-900">
        {masterclass.title}
      </h2>
      <p className="mt-3 leading-relaxed text-ink-700">{masterclass.description}</p>
      <ul className="mt-5 grid gap-2 text-sm font-medium text-ink-800">
        <li className="flex items-center gap-2">
          <CalendarDays aria-hidden="true" className="size-4 text-brand-700" />
          <time dateTime={masterclass.startsAt.slice(0, 10)}>{masterclass.dateLabel}</time>
        </li>
        <li className="flex items-center gap-2">
          <Clock aria-hidden="true" className="size-4 text-brand-700" />
          <span>{masterclass.timeLabel}</span>
        </li>
        <li className="flex items-center gap-2">
          <MonitorPlay aria-hidden="true" className="size-4 text-brand-700" />
          <span>{masterclass.formatLabel}</span>
        </li>
      </ul>
      <p
        className="mt-5 rounded-lg bg-ink-50 px-4 py-3 text-sm text-ink-700"
        data-testid="masterclass-status"
      >
        <Swap past={past} upcoming={masterclass.upcomingNote} ended={masterclass.pastNote} />
      </p>
      <div className="mt-auto flex flex-col gap-3 pt-6 sm:flex-row">
        <a href={masterclass.reserve.href} className="btn btn-primary">
          {masterclass.reserve.label}
        </a>
        <a
          id="calendar"
          href={masterclass.calendar.path}
          download={masterclass.calendar.fileName}
          className="btn btn-secondary"
          onClick={() =>
            toast({
              title: masterclass.calendar.toastTitle,
              description: masterclass.calendar.toastDescription,
            })
          }
        >
          {masterclass.calendar.label}
          <span className="sr-only"> (download the event as a calendar file)</span>
        </a>
      </div>
    </article>
  );
}
