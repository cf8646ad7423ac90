/**
 * The small page behind a booking e-mail's signed link. It first asks the server what the
 * link is for (nothing changes on opening it, so a mail scanner following the link is
 * harmless), then shows the booking and one button: the owner confirms (after picking the
 * start of the 45-minute session inside the chosen window) or declines; the applicant cancels.
 * A forged, expired or used link gets a clear refusal.
 */
import { CircleAlert, CircleCheck } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { bookingActionCopy as copy } from '~/content/booking';
import { ChoiceGroup } from '~/components/form/choice-group';
import { LinkRequestError, actOnLink, fetchLinkView, type LinkView } from './booking-link-api';

type State =
  | { kind: 'loading' }
  | { kind: 'refused'; message: string }
  | { kind: 'ready'; view: LinkView; error?: string }
  | { kind: 'working'; view: LinkView }
  | { kind: 'done'; message: string };

function headingFor(view: LinkView): string {
  switch (view.action) {
    case 'confirm-first':
      return copy.confirmHeading(1);
    case 'confirm-second':
      return copy.confirmHeading(2);
    case 'decline':
      return copy.declineHeading;
    case 'cancel':
      return copy.cancelHeading;
  }
}

function buttonFor(view: LinkView): string {
  if (view.action === 'decline') return copy.declineButton;
  if (view.action === 'cancel') return copy.cancelButton;
  return copy.confirmButton;
}

function messageOf(error: unknown): string {
  return error instanceof LinkRequestError ? error.message : copy.refusals.network;
}

export function BookingLinkPage() {
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [start, setStart] = useState('');
  const token = useRef('');
  const focusTarget = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    // Read after hydration: the prerendered page never saw the query string.
    token.current = new URLSearchParams(window.location.search).get('token') ?? '';
    let live = true;
    fetchLinkView(token.current, copy.refusals.network).then(
      (view) => {
        if (!live) return;
        setStart(view.choice?.startTimes[0]?.value ?? '');
        setState({ kind: 'ready', view });
      },
      (error: unknown) => {
        if (live) setState({ kind: 'refused', message: messageOf(error) });
      },
    );
    return () => {
      live = false;
    };
  }, []);

  // Each new state is announced: focus goes to its heading.
  useEffect(() => {
    if (state.kind !== 'loading' && state.kind !== 'working') focusTarget.current?.focus();
  }, [state.kind]);

  async function act(view: LinkView) {
    setState({ kind: 'working', view });
    try {
      const answer = await actOnLink(token.current, view.choice ? start : undefined, copy.refusals.network);
      setState({ kind: 'done', message: answer.message });
    } catch (error) {
      if (error instanceof LinkRequestError && error.reason !== 'network' && error.reason !== 'start') {
        setState({ kind: 'refused', message: error.message });
      } else {
        setState({ kind: 'ready', view, error: messageOf(error) });
      }
    }
  }

  const headingClass = 'text-2xl font-bold text-ink-900 outline-none';

  if (state.kind === 'loading') {
    return (
      <div className="card" role="status">
        <p className="text-ink-700">{copy.loading}</p>
      </div>
    );
  }

  if (state.kind === 'refused' || state.kind === 'done') {
    const refused = state.kind === 'refused';
    return (
      <div
        className="card flex items-start gap-4"
        data-testid={refused ? 'booking-link-refused' : 'booking-link-done'}
      >
        {refused ? (
          <CircleAlert aria-hidden="true" className="size-7 shrink-0 text-danger-700" />
        ) : (
          <CircleCheck aria-hidden="true" className="size-7 shrink-0 text-success-700" />
        )}
        <h2 ref={focusTarget} tabIndex={-1} className="text-lg font-semibold text-ink-900 outline-none">
          {state.message}
        </h2>
      </div>
    );
  }

  const { view } = state;
  const working = state.kind === 'working';
  const rows: [string, string][] = [
    ['Reference', view.reference],
    ...(view.applicantName ? ([['Applicant', view.applicantName]] as [string, string][]) : []),
    ['Session format', view.sessionType],
    ...(view.session
      ? ([['Confirmed session', view.session]] as [string, string][])
      : view.choices.map((c, i) => [i === 0 ? 'First choice' : 'Second choice', c] as [string, string])),
  ];

  return (
    <form
      className="card grid gap-6 sm:p-8"
      aria-labelledby="booking-link-heading"
      onSubmit={(event) => {
        event.preventDefault();
        void act(view);
      }}
    >
      <h2 id="booking-link-heading" ref={focusTarget} tabIndex={-1} className={headingClass}>
        {headingFor(view)}
      </h2>
      <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[max-content_1fr]">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-sm font-medium text-ink-700">{label}</dt>
            <dd className="text-ink-900">{value}</dd>
          </div>
        ))}
      </dl>
      {view.choice ? (
        <ChoiceGroup
          legend={`${copy.startLegend}: ${view.choice.label}`}
          options={view.choice.startTimes}
          columns={3}
          inputProps={(option) => ({
            name: 'start',
            checked: start === option.value,
            onChange: () => setStart(option.value),
          })}
        />
      ) : null}
      {state.kind === 'ready' && state.error ? (
        <p role="alert" className="field-error">
          {state.error}
        </p>
      ) : null}
      <div>
        <button
          type="submit"
          disabled={working}
          className={`btn ${view.action === 'decline' || view.action === 'cancel' ? 'btn-dark' : 'btn-primary'}`}
        >
          {working ? copy.working : buttonFor(view)}
        </button>
      </div>
    </form>
  );
}
