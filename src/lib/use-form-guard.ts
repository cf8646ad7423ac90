/**
 * The browser half of the spam traps (see form-guard.ts): the honeypot input's props and the
 * time since the form appeared. People never see the honeypot (it is off-screen, hidden from
 * assistive technology and out of the tab order); form-filling bots do, and fill it.
 */
import { useCallback, useEffect, useRef } from 'react';
import { FILL_TIME_FIELD, HONEYPOT_FIELD } from './form-guard';

export function useFormGuard() {
  const shownAt = useRef<number | undefined>(undefined);
  const trap = useRef<HTMLInputElement>(null);
  useEffect(() => {
    shownAt.current = performance.now();
  }, []);
  /** The two fields to add to the request body. */
  const guardFields = useCallback(
    () => ({
      [HONEYPOT_FIELD]: trap.current?.value ?? '',
      [FILL_TIME_FIELD]: Math.round(performance.now() - (shownAt.current ?? performance.now())),
    }),
    [],
  );
  /** Starts the clock again (a form shown anew after a success). */
  const restart = useCallback(() => {
    shownAt.current = performance.now();
  }, []);
  const honeypotProps = {
    ref: trap,
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
