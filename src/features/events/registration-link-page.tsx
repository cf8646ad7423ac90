/**
 * The page behind the cancel link of a masterclass registration's e-mails. Opening it changes
 * nothing (mail scanners follow links; they do not press buttons): it asks the server what the
 * link is about and shows the masterclass and the registration's status, with one button to
 * cancel while there is something to cancel. A forged link (403) or a masterclass that is over
 * (410) gets a clear sentence.
 */
import { CircleAlert, CircleCheck } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { registrationCancelPage as copy } from '~/content/events';
import { postJson, type ApiFailure } from '~/lib/api-client';
import { ukWhen } from './event-times';
import {
  REGISTRATION_CANCEL_API,
  REGISTRATION_LINK_API,
  type RegistrationCancelAnswer,
  type RegistrationLinkView,
} from './events-api';

type State =
  | { kind: 'loading' }
  | { kind: 'refused'; message: string }
  | { kind: 'ready'; view: RegistrationLinkView; error?: string }
  | { kind: 'working'; view: RegistrationLinkView }
  | { kind: 'done'; message: string };

/** The sentence for a refused request; `final` when the link will never work. */
function refusalOf(failure: ApiFailure): { message: string; final: boolean } {
  if (failure.status === 403) return { message: copy.refusals.invalid, final: true };
  if (failure.status === 410) return { message: copy.refusals.over, final: true };
  if (failure.status === 0) return { message: copy.refusals.network, final: false };
  if (failure.status === 400) return { message: copy.refusals.invalid, final: true };
  return { message: failure.error, final: false };
}

export function RegistrationLinkPage() {
  const [state, setState] = useState<State>({ kind: 'loading' });
  const token = useRef('');
  const focusTarget = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    // Read after hydration: the prerendered page never saw the query string.
    token.current = new URLSearchParams(window.location.search).get('token') ?? '';
    if (!token.current) {
      setState({ kind: 'refused', message: copy.refusals.missing });
      return;
    }
    let live = true;
    void postJson<RegistrationLinkView>(REGISTRATION_LINK_API, { token: token.current }).then((result) => {
      if (!live) return;
      setState(
        result.ok
          ? { kind: 'ready', view: result.data }
          : { kind: 'refused', message: refusalOf(result).message },
      );
    });
    return () => {
      live = false;
    };
  }, []);

  // Each new state is announced: focus goes to its heading.
  useEffect(() => {
    if (state.kind !== 'loading' && state.kind !== 'working') focusTarget.current?.focus();
  }, [state.kind]);

  async function cancel(view: RegistrationLinkView) {
    setState({ kind: 'working', view });
    const result = await postJson<RegistrationCancelAnswer>(REGISTRATION_CANCEL_API, {
      token: token.current,
    });
    if (result.ok) return setState({ kind: 'done', message: result.data.message });
    const refusal = refusalOf(result);
    setState(
      refusal.final
        ? { kind: 'refused', message: refusal.message }
        : { kind: 'ready', view, error: refusal.message },
    );
  }

  if (state.kind === 'loading') {
    return (
      <div className="card" role="status">
        <p className="text-ink-700">{copy.loading}</p>
      </div>
    );
  }

  if (state.kind === 'refused' || state.kind === 'done') {
    const refused = state.kind === 'refused';
    const Icon = refused ? CircleAlert : CircleCheck;
    return (
      <div
        className="card flex items-start gap-4"
        data-testid={refused ? 'registration-link-refused' : 'registration-link-done'}
      >
        <Icon
          aria-hidden="true"
          className={`size-7 shrink-0 ${refused ? 'text-danger-700' : 'text-success-700'}`}
        />
        <h2 ref={focusTarget} tabIndex={-1} className="text-lg font-semibold text-ink-900 outline-none">
          {state.message}
        </h2>
      </div>
    );
  }

  const { view } = state;
  const cancellable = !view.eventCancelled && (view.status === 'registered' || view.status === 'waitlisted');
  const rows: [string, string][] = [
    [copy.facts.event, view.title],
    [copy.facts.when, ukWhen(new Date(view.startsAt), new Date(view.endsAt))],
    [copy.facts.status, copy.status[view.status]],
  ];

  return (
    <form
      className="card grid gap-6 sm:p-8"
      aria-labelledby="registration-link-heading"
      data-testid="registration-link-view"
      onSubmit={(event) => {
        event.preventDefault();
        if (cancellable) void cancel(view);
      }}
    >
      <h2
        id="registration-link-heading"
        ref={focusTarget}
        tabIndex={-1}
        className="text-2xl font-bold text-ink-900 outline-none"
      >
        {view.title}
      </h2>
      <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[max-content_1fr]">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-sm font-medium text-ink-700">{label}</dt>
            <dd className="text-ink-900">{value}</dd>
          </div>
        ))}
      </dl>
      {cancellable ? null : (
        <p className="text-ink-700" data-testid="registration-link-note">
          {view.eventCancelled ? copy.eventCancelled : copy.alreadyCancelled}
        </p>
      )}
      {state.kind === 'ready' && state.error ? (
        <p role="alert" className="field-error">
          {state.error}
        </p>
      ) : null}
      {cancellable ? (
        <div>
          <button type="submit" disabled={state.kind === 'working'} className="btn btn-dark">
            {state.kind === 'working' ? copy.working : copy.button}
          </button>
        </div>
      ) : null}
    </form>
  );
}
