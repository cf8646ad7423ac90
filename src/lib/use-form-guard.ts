/**
 * The browser half of the spam traps (see form-guard.ts): the honeypot input's props, and the
 * signed token fetched on the form's first focus that lets the server time the filling. People never see the honeypot (it is off-screen, hidden from
 * assistive technology and out of the tab order); form-filling bots do, and fill it.
 */
import { useCallback, useRef } from 'react';
import { FORM_TOKEN_API, FORM_TOKEN_FIELD, HONEYPOT_FIELD, type FormTokenAnswer } from './form-guard';

/** A token in hand, and when to renew it (two minutes before the server's expiry). */
type Held = { token: string; renewAt: number };

async function fetchToken(formType: string, renew?: string): Promise<Held | undefined> {
  // The api client arrives with the form's own code, on first use (decision 007).
  const { postJson } = await import('./api-client');
  const result = await postJson<FormTokenAnswer>(FORM_TOKEN_API, { formType, renew });
  if (!result.ok) return undefined;
  return {
    token: result.data.token,
    renewAt: performance.now() + (result.data.expiresInSeconds - 120) * 1000,
  };
}

export function useFormGuard(formType: string) {
  const trap = useRef<HTMLInputElement | null>(null);
  const held = useRef<Promise<Held | undefined> | undefined>(undefined);
  const start = useCallback(() => (held.current ??= fetchToken(formType)), [formType]);

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

  /** The two fields to add to the request body; renews a token that expired while the page sat open. */
  const guardFields = useCallback(async () => {
    let current = await start();
    if (!current) current = await (held.current = fetchToken(formType));
    else if (performance.now() > current.renewAt) {
      const renewed = await (held.current = fetchToken(formType, current.token));
      current = renewed ?? current;
    }
    if (!current) held.current = undefined;
    return { [HONEYPOT_FIELD]: trap.current?.value ?? '', [FORM_TOKEN_FIELD]: current?.token ?? '' };
  }, [formType, start]);

  /** Starts anew (a form shown again after a success): the next use fetches a new token. */
  const restart = useCallback(() => {
    held.current = undefined;
  }, []);
  const honeypotProps = {
    ref,
    name: HONEYPOT_FIELD,
    type: 'text',
    tabIndex: -1,
    autoComplete: 'off',
    defaultValue: '',
  } as const;
  return { guardFields, restart, honeypotProps };
}

/** Styles that keep the honeypot off-screen without `display: none` (which some bots skip). */
export const HONEYPOT_STYLE = {
  position: 'absolute',
  left: '-10000px',
  top: 'auto',
  width: 1,
  height: 1,
  overflow: 'hidden',
} as const;

/** The accessible wiring of one field: its id, invalid state and the id of its error text. */
export function fieldA11y(baseId: string, name: string, error: string | undefined) {
  const id = `${baseId}-${name}`;
  return {
    id,
    errorId: `${id}-error`,
    inputProps: {
      id,
      'aria-invalid': error ? true : undefined,
      'aria-describedby': error ? `${id}-error` : undefined,
    },
  };
}
