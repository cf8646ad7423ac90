/**
 * The small page behind a signed link in an e-mail (a booking's confirm, decline or cancel; a
 * masterclass registration's cancel). Opening it changes nothing, since mail scanners follow
 * links: it reads the token from the address, asks the server what the link is about, and shows
 * that with at most one button; only pressing the button acts. Each new state is announced by
 * moving focus to its heading; a refusal or the outcome is one sentence beside an icon.
 */
import { CircleAlert, CircleCheck } from 'lucide-react';
import { useEffect, useRef, useState, type ReactNode } from 'react';

/** What the server said a link is about, or the sentence that refuses it. */
export type LinkLookup<V> = { view: V } | { refused: string };

/** What pressing the button did: the outcome, a refusal for good, or an error worth another try. */
export type LinkOutcome = { done: string } | { refused: string } | { error: string };

/** How a link's page shows what the link is about. */
export type LinkShown = {
  heading: string;
  /** The facts, as label and value. */
  rows: [string, string][];
  /** Shown after the facts (a choice to make, a note). */
  extra?: ReactNode;
  /** The one button, or `null` when there is nothing to do. */
  button: { label: string; className: string } | null;
};

type State<V> =
  | { kind: 'loading' }
  | { kind: 'refused'; message: string }
  | { kind: 'ready'; view: V; error?: string }
  | { kind: 'working'; view: V }
  | { kind: 'done'; message: string };

/**
 * The page of one kind of signed link: `lookup` asks what the link is about, `show` draws it,
 * `act` does what its button says. `name` makes the ids and test ids (`booking-link-heading`,
 * `booking-link-refused`, `booking-link-done`, `booking-link-view`).
 */
export function SignedLinkPage<V>({
  name,
  texts,
  lookup,
  show,
  act,
}: {
  name: string;
  texts: { loading: string; working: string };
  lookup: (token: string) => Promise<LinkLookup<V>>;
  show: (view: V) => LinkShown;
  act: (token: string, view: V) => Promise<LinkOutcome>;
}) {
  const [state, setState] = useState<State<V>>({ kind: 'loading' });
  const token = useRef('');
  const focusTarget = useRef<HTMLHeadingElement>(null);
  // The lookup runs once, when the page opens: the first one given is the one used.
  const firstLookup = useRef(lookup);

  useEffect(() => {
    // Read after hydration: the prerendered page never saw the query string.
    token.current = new URLSearchParams(window.location.search).get('token') ?? '';
    let live = true;
    void firstLookup.current(token.current).then((found) => {
      if (!live) return;
      setState(
        'view' in found ? { kind: 'ready', view: found.view } : { kind: 'refused', message: found.refused },
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

  async function press(view: V) {
    setState({ kind: 'working', view });
    const outcome = await act(token.current, view);
    if ('done' in outcome) setState({ kind: 'done', message: outcome.done });
    else if ('refused' in outcome) setState({ kind: 'refused', message: outcome.refused });
    else setState({ kind: 'ready', view, error: outcome.error });
  }

  if (state.kind === 'loading') {
    return (
      <div className="card" role="status">
        <p className="text-ink-700">{texts.loading}</p>
      </div>
    );
  }

  if (state.kind === 'refused' || state.kind === 'done') {
    const refused = state.kind === 'refused';
    const Icon = refused ? CircleAlert : CircleCheck;
    return (
      <div className="card flex items-start gap-4" data-testid={`${name}-${refused ? 'refused' : 'done'}`}>
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
  const working = state.kind === 'working';
  const shown = show(view);

  return (
    <form
      className="card grid gap-6 sm:p-8"
      aria-labelledby={`${name}-heading`}
      data-testid={`${name}-view`}
      onSubmit={(event) => {
        event.preventDefault();
        if (shown.button) void press(view);
      }}
    >
      <h2
        id={`${name}-heading`}
        ref={focusTarget}
        tabIndex={-1}
        className="text-2xl font-bold text-ink-900 outline-none"
      >
        {shown.heading}
      </h2>
      <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[max-content_1fr]">
        {shown.rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-sm font-medium text-ink-700">{label}</dt>
            <dd className="text-ink-900">{value}</dd>
          </div>
        ))}
      </dl>
      {shown.extra}
      {state.kind === 'ready' && state.error ? (
        <p role="alert" className="field-error">
          {state.error}
        </p>
      ) : null}
      {shown.button ? (
        <div>
          <button type="submit" disabled={working} className={shown.button.className}>
            {working ? texts.working : shown.button.label}
          </button>
        </div>
      ) : null}
    </form>
  );
}
