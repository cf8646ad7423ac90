/**
 * The page behind a newsletter e-mail's confirm or unsubscribe link. Opening it changes
 * nothing (mail scanners fetch links; they do not press buttons): the visitor presses the one
 * button, and only then does the page send the link's token to the API.
 */
import { CircleAlert, CircleCheck } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { postJson } from '~/lib/api-client';
import { NEWSLETTER_CONFIRM_API, NEWSLETTER_UNSUBSCRIBE_API } from './newsletter-fields';

export type NewsletterLinkAction = 'confirm' | 'unsubscribe';

const COPY = {
  confirm: {
    intro: 'Press the button to confirm your subscription to The Smart Money Newsletter.',
    button: 'Confirm my subscription',
    working: 'Confirming...',
    done: 'Thank you: your subscription is confirmed. The next issue will reach you at the start of the month.',
    api: NEWSLETTER_CONFIRM_API,
  },
  unsubscribe: {
    intro: 'Press the button to stop receiving The Smart Money Newsletter.',
    button: 'Unsubscribe',
    working: 'Unsubscribing...',
    done: 'You have been unsubscribed. You will not receive the newsletter any more.',
    api: NEWSLETTER_UNSUBSCRIBE_API,
  },
} as const;

const MISSING = 'This link is incomplete. Please open it again from the e-mail.';

type State = { kind: 'ready' | 'working' } | { kind: 'done' } | { kind: 'failed'; message: string };

export function NewsletterLinkPage({ action }: { action: NewsletterLinkAction }) {
  const copy = COPY[action];
  const [state, setState] = useState<State>({ kind: 'ready' });
  const token = useRef('');
  const result = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    // Read after hydration: the prerendered page never saw the query string.
    token.current = new URLSearchParams(window.location.search).get('token') ?? '';
    if (!token.current) setState({ kind: 'failed', message: MISSING });
  }, []);

  useEffect(() => {
    if (state.kind === 'done' || state.kind === 'failed') result.current?.focus();
  }, [state.kind]);

  async function act() {
    setState({ kind: 'working' });
    const res = await postJson<{ status: string }>(copy.api, { token: token.current });
    setState(res.ok ? { kind: 'done' } : { kind: 'failed', message: res.error });
  }

  if (state.kind === 'done' || state.kind === 'failed') {
    const ok = state.kind === 'done';
    const Icon = ok ? CircleCheck : CircleAlert;
    return (
      <div className="card flex items-start gap-3" data-testid={`newsletter-${action}-result`}>
        <Icon
          aria-hidden="true"
          className={`mt-0.5 size-6 shrink-0 ${ok ? 'text-success-700' : 'text-danger-700'}`}
        />
        <p ref={result} tabIndex={-1} className="text-ink-900 outline-none" role={ok ? 'status' : 'alert'}>
          {ok ? copy.done : state.message}
        </p>
      </div>
    );
  }

  return (
    <div className="card">
      <p className="text-ink-700">{copy.intro}</p>
      <button
        type="button"
        className="btn btn-primary mt-6"
        disabled={state.kind === 'working'}
        onClick={() => void act()}
      >
        {state.kind === 'working' ? copy.working : copy.button}
      </button>
    </div>
  );
}
