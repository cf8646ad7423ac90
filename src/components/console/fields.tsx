/**
 * The console's field kit: a labelled control with its hint and error, a one-line text field,
 * and a form's submit button. Every console form draws its fields with these.
 */
import { useId, type ReactNode } from 'react';

export type ControlProps = {
  id: string;
  required?: boolean;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
};

/**
 * One labelled control, drawn as the site's field kit draws its fields (src/components/form:
 * label, optional hint, the error in a line kept in the page and tied to the control). The
 * console keeps its own copy: importing the kit would split the public forms' shared chunk and
 * add a request to the home page's first load.
 */
export function Field({
  id: givenId,
  label,
  hint,
  error,
  validated = false,
  required,
  className,
  children,
}: {
  /** The control's id, when something else links to it (an error summary); made up otherwise. */
  id?: string;
  label: string;
  hint?: string;
  error?: string;
  /** The field is checked on submit: its error line is kept in the page (an alert). */
  validated?: boolean;
  required?: boolean;
  className?: string;
  children: (control: ControlProps) => ReactNode;
}) {
  const madeId = useId();
  const id = givenId ?? madeId;
  const describedBy = [hint ? `${id}-hint` : '', validated ? `${id}-error` : ''].filter(Boolean).join(' ');
  const control: ControlProps = {
    id,
    required,
    ...(validated ? { 'aria-invalid': !!error } : {}),
    ...(describedBy ? { 'aria-describedby': describedBy } : {}),
  };
  return (
    <div className={className}>
      <label htmlFor={id} className="field-label">
        {label}
        {hint ? (
          <span id={`${id}-hint`} className="ml-1 font-normal text-ink-600">
            ({hint})
          </span>
        ) : null}
      </label>
      {children(control)}
      {validated ? (
        <p id={`${id}-error`} role="alert" className="field-error min-h-5">
          {error}
        </p>
      ) : (
        <div className="mb-3" />
      )}
    </div>
  );
}

/** A Field holding a one-line text input whose value the form keeps in its state (no autofill). */
export function TextField({
  name,
  value,
  onChange,
  maxLength,
  ...field
}: Omit<Parameters<typeof Field>[0], 'children'> & {
  name: string;
  value: string;
  onChange: (value: string) => void;
  maxLength?: number;
}) {
  return (
    <Field {...field}>
      {(control) => (
        <input
          {...control}
          type="text"
          name={name}
          maxLength={maxLength}
          autoComplete="off"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          className="field-input"
        />
      )}
    </Field>
  );
}

/** A form's submit button: while `busy` it says what it is doing and cannot be pressed again. */
export function SubmitButton({
  busy,
  label,
  busyLabel,
}: {
  busy: boolean;
  label: string;
  busyLabel: string;
}) {
  return (
    <button type="submit" className="btn btn-primary" disabled={busy}>
      {busy ? busyLabel : label}
    </button>
  );
}

/** A checkbox with its label beside it (and an optional hint, tied to the box). */
export function CheckboxField({
  label,
  hint,
  checked,
  disabled,
  onChange,
  className,
}: {
  label: string;
  hint?: string;
  checked: boolean;
  disabled?: boolean;
  onChange: (checked: boolean) => void;
  className?: string;
}) {
  const id = useId();
  return (
    <div className={`flex items-start gap-2 ${className ?? ''}`}>
      <input
        id={id}
        type="checkbox"
        className="mt-0.5 size-5 shrink-0"
        checked={checked}
        disabled={disabled}
        aria-describedby={hint ? `${id}-hint` : undefined}
        onChange={(e) => onChange(e.target.checked)}
      />
      <div>
        <label htmlFor={id}>{label}</label>
        {hint ? (
          <p id={`${id}-hint`} className="text-sm text-ink-600">
            {hint}
          </p>
        ) : null}
      </div>
    </div>
  );
}
