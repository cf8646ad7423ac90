/**
 * The browser half of the spam traps (see spam-traps.ts): the honeypot input's props, and the
 * signed token fetched on the form's first focus that lets the server time the filling. People never see the honeypot (it is off-screen, hidden from
 * assistive technology and out of the tab order); form-filling bots do, and fill it.
 */
import { useCallback, useRef } from 'react';
import { FORM_TOKEN_FIELD, HONEYPOT_FIELD, type SpamTrapFields } from './spam-traps';
import type { FormToken } from './form-token';

export function useSpamTraps(formType: string) {
  const trap = useRef<HTMLInputElement | null>(null);
  // The token's code arrives on the form's first focus, like the form's own (decision 007).
  // A chunk that could not be fetched is asked for again on the next use.
  const loaded = useRef<Promise<FormToken> | undefined>(undefined);
  const token = useCallback(
    () =>
      (loaded.current ??= import('./form-token').then(
        (m) => m.formToken(formType),
        (error: unknown) => {
          loaded.current = undefined;
          throw error;
        },
      )),
    [formType],
  );
  const start = useCallback(() => void token().then((t) => t.start(), noop), [token]);

  // The fill time starts when the visitor first uses the form: its first focus. The honeypot
  // sits in the form, so its ref finds the form, whenever the form is (re)drawn.
  const ref = useCallback(
    (input: HTMLInputElement | null) => {
      trap.current = input;
      const form = input?.form;
      form?.addEventListener('focusin', start);
      return () => form?.removeEventListener('focusin', start);
    },
    [start],
  );

  /** The two fields to add to the request body (no token if its code cannot be fetched: the server says so). */
  const trapFields = useCallback(
    async (): Promise<SpamTrapFields> => ({
      [HONEYPOT_FIELD]: trap.current?.value ?? '',
      [FORM_TOKEN_FIELD]: await token().then(
        (t) => t.current(),
        () => '',
      ),
    }),
    [token],
  );

  /** Starts anew (a form shown again after a success): the next use fetches a new token. */
  const restart = useCallback(() => {
    loaded.current = undefined;
  }, []);
  const honeypotProps = {
    ref,
    name: HONEYPOT_FIELD,
    tabIndex: -1,
    autoComplete: 'off',
  } as const;
  return { trapFields, restart, honeypotProps };
}

function noop() {}
