/**
 * The one field kit every form renders its fields with: a visible label, the control, an
 * optional hint, and the error, tied to the control (`aria-invalid`, `aria-describedby` naming
 * the hint and the error) and read out by a live region that is always in the page with a
 * line's height reserved, so an error appearing or going never moves what is below it (a click
 * that blurred the field still lands). Required controls carry `required`, which assistive
 * technology announces; an optional field says so in its hint.
 *
 * State stays with each form: a field gets its error message and the props that bind its control
 * (react-hook-form's `register(name)`, or just `{ name }` for a form read with `FormData`).
 */
import { useId, type ReactNode } from 'react';

/**
 * How an error is announced: as an alert (assertive) by default, for errors shown when the
 * visitor submits; `polite` for errors shown as the visitor leaves each field, so they do not
 * cut off the next field's name.
 */
export type Announce = 'polite';

export type ControlProps = {
  id: string;
  required?: boolean;
  'aria-invalid': boolean;
  'aria-describedby': string;
};

/** The props that bind a control to its form's state. */
export type Bind<N extends string> = (name: N) => object;

export function FieldError({ id, message, announce }: { id: string; message?: string; announce?: Announce }) {
  return (
    <p id={id} className="field-error min-h-5" role={announce ? undefined : 'alert'} aria-live={announce}>
      {message}
    </p>
  );
}

type FieldProps = {
  label: string;
  hint?: string;
  error?: string;
  required?: boolean;
  announce?: Announce;
  className?: string;
  children: (props: ControlProps) => ReactNode;
};

/** The ids and control props of one field (shared by `Field` and `ConsentField`). */
function useControl(error: string | undefined, required: boolean | undefined, hint?: string) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const control: ControlProps = {
    id,
    required,
    'aria-invalid': !!error,
    'aria-describedby': hint ? `${hintId} ${errorId}` : errorId,
  };
  return { id, errorId, hintId, control };
}

export function Field({ label, hint, error, required, announce, className, children }: FieldProps) {
  const { id, errorId, hintId, control } = useControl(error, required, hint);
  return (
    <div className={className}>
      <label htmlFor={id} className="field-label">
        {label}
        {hint ? (
          <span id={hintId} className="ml-1 font-normal text-ink-600">
            ({hint})
          </span>
        ) : null}
      </label>
      {children(control)}
      <FieldError id={errorId} message={error} announce={announce} />
    </div>
  );
}

/** One text field of a form: its name, its label, and how its control is drawn. */
export type FieldSpec<N extends string> = {
  name: N;
  label: string;
  type?: string;
  autoComplete?: string;
  maxLength?: number;
  placeholder?: string;
  /** Drawn as a textarea of this many rows. */
  rows?: number;
  /** An optional field (no `required`), with a hint that says so. */
  optionalHint?: string;
  className?: string;
};

/** A form's text fields, in order. */
export function TextFields<N extends string>({
  fields,
  errorOf,
  bind,
  announce,
}: {
  fields: readonly FieldSpec<N>[];
  errorOf: (name: N) => string | undefined;
  bind: Bind<N>;
  announce?: Announce;
}) {
  return fields.map(({ name, label, optionalHint, rows, className, ...input }) => (
    <Field
      key={name}
      label={label}
      hint={optionalHint}
      required={!optionalHint}
      error={errorOf(name)}
      announce={announce}
      className={className}
    >
      {(control) =>
        rows ? (
          <textarea
            {...control}
            {...bind(name)}
            rows={rows}
            maxLength={input.maxLength}
            className="field-input"
          />
        ) : (
          <input type="text" {...control} {...bind(name)} {...input} className="field-input" />
        )
      }
    </Field>
  ));
}

/**
 * A consent box that must be ticked, its wording beside it. `bind` binds it (named `consent`);
 * it is called as the box is drawn, so a form learns its fields in the order they stand.
 */
export function ConsentField({
  text,
  error,
  bind,
  className,
}: {
  text: string;
  error?: string;
  bind: Bind<'consent'>;
  className?: string;
}) {
  const { id, errorId, control } = useControl(error, true);
  return (
    <div className={className}>
      <div className="flex items-start gap-3">
        <input
          {...control}
          {...bind('consent')}
          type="checkbox"
          className="mt-1 size-4 shrink-0 accent-brand-700"
        />
        <label htmlFor={id} className="text-sm text-ink-700">
          {text}
        </label>
      </div>
      <FieldError id={errorId} message={error} />
    </div>
  );
}

/** The submit button: disabled, with its busy wording, while the form is sent. */
export function SubmitButton({
  busy,
  copy,
  className,
}: {
  busy: boolean;
  copy: { submit: string; submitting: string };
  className: string;
}) {
  return (
    <button type="submit" className={`btn btn-primary ${className}`} disabled={busy}>
      {busy ? copy.submitting : copy.submit}
    </button>
  );
}
