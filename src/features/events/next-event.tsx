/**
 * The next masterclass, as the Resources page shows it. The page is prerendered without it (an
 * event changed in the console shows without a rebuild): after hydration the provider asks
 * GET /api/events/next once, and the card and the registration section read the answer from it.
 *
 * Whether the event is over is decided from the visitor's clock, when the answer arrives and
 * again at the end time if the page stays open; likewise whether registration is not yet open
 * or has closed (the server says only whether it is open now).
 */
import { createContext, startTransition, useContext, useEffect, useState, type ReactNode } from 'react';
import { NEXT_EVENT_API, type NextEventAnswer, type PublicEvent } from './events-api';

/** How registration stands: open now, opening later, or closed (or the event cancelled). */
export type RegistrationPhase = 'open' | 'not-yet-open' | 'closed';

export type NextEventState =
  | { kind: 'loading' }
  /** No masterclass published, or the answer could not be fetched (`failed`). */
  | { kind: 'none'; failed: boolean }
  | { kind: 'event'; event: PublicEvent; past: boolean; registration: RegistrationPhase };

const LOADING: NextEventState = { kind: 'loading' };
/** setTimeout cannot wait longer than this (about 24.8 days). */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

const NextEventContext = createContext<NextEventState>(LOADING);

export function useNextEvent(): NextEventState {
  return useContext(NextEventContext);
}

function isEvent(value: unknown): value is PublicEvent {
  if (typeof value !== 'object' || value === null) return false;
  const e = value as Partial<PublicEvent>;
  return (
    typeof e.id === 'string' &&
    typeof e.title === 'string' &&
    typeof e.startsAt === 'string' &&
    typeof e.endsAt === 'string' &&
    typeof e.registration === 'object' &&
    e.registration !== null &&
    !Number.isNaN(Date.parse(e.endsAt))
  );
}

/** The state of a fetched event at `now` (the visitor's clock). */
export function stateOf(event: PublicEvent, now: number): NextEventState {
  const past = now >= Date.parse(event.endsAt);
  const registration: RegistrationPhase =
    event.registration.open && !event.cancelled
      ? 'open'
      : !event.cancelled && now < Date.parse(event.registration.opensAt)
        ? 'not-yet-open'
        : 'closed';
  return { kind: 'event', event, past, registration };
}

async function fetchNextEvent(api: string, signal: AbortSignal): Promise<PublicEvent | null> {
  const response = await fetch(api, {
    headers: { Accept: 'application/json' },
    credentials: 'same-origin',
    signal,
  });
  if (!response.ok) throw new Error(`GET ${api} answered ${response.status}`);
  const answer = (await response.json()) as Partial<NextEventAnswer>;
  if (answer.event === null) return null;
  if (!isEvent(answer.event)) throw new Error(`GET ${api}: not an event`);
  return answer.event;
}

/**
 * Fetches the next masterclass once, after hydration, for the card and the registration section;
 * or, given `api` (`eventApiPath(id)`), one masterclass, for its own page.
 */
export function NextEventProvider({ children, api = NEXT_EVENT_API }: { children: ReactNode; api?: string }) {
  const [state, setState] = useState<NextEventState>(LOADING);

  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const show = (next: NextEventState) => startTransition(() => setState(next));
    fetchNextEvent(api, controller.signal).then(
      (event) => {
        if (!event) return show({ kind: 'none', failed: false });
        show(stateOf(event, Date.now()));
        // If the page is still open when the event ends, it turns to past.
        const wait = Date.parse(event.endsAt) - Date.now();
        if (wait > 0 && wait <= MAX_TIMEOUT_MS)
          timer = setTimeout(() => show(stateOf(event, Date.now())), wait + 1000);
      },
      () => {
        if (!controller.signal.aborted) show({ kind: 'none', failed: true });
      },
    );
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [api]);

  return <NextEventContext.Provider value={state}>{children}</NextEventContext.Provider>;
}
