/**
 * The wizard's field shells: a visible label, the control, and an error that is tied to the
 * control (aria-describedby) and read out when it appears (a polite live region that is
 * always in the page, so the announcement is not lost).
 */
import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';

export type ControlProps = {
  id: string;
  'aria-invalid': boolean;
  'aria-describedby': string;
};

/**
 * Always in the page with a line's height reserved: an error appearing or going when a field
 * is left never moves the controls below, so a click that blurred the field still lands.
 */
export function FieldError({ id, message }: { id: string; message?: string }) {
  return (
    <p id={id} aria-live="polite" className="field-error min-h-5">
      {message ?? ''}
    </p>
  );
}

export function Field({
  label,
  hint,
  error,
  className,
  children,
}: {
  label: string;
  hint?: string;
  error?: string;
  className?: string;
  children: (props: ControlProps) => ReactNode;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
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
      {children({
        id,
        'aria-invalid': Boolean(error),
        'aria-describedby': hint ? `${hintId} ${errorId}` : errorId,
      })}
      <FieldError id={errorId} message={error} />
    </div>
  );
}

export type Choice = { value: string; label: string; description?: string };

type RadioProps = InputHTMLAttributes<HTMLInputElement> & { ref?: Ref<HTMLInputElement> };

/**
 * A group of native radio buttons in a fieldset: the browser gives arrow keys that move and
 * select at once, Tab into and out of the group, and a group name from the legend, before and
 * after hydration alike. Each option is a card whose whole surface selects it.
 */
export function ChoiceGroup({
  legend,
  options,
  error,
  columns = 1,
  inputProps,
}: {
  legend: string;
  options: readonly Choice[];
  error?: string;
  columns?: 1 | 2 | 3;
  /** The input's wiring for one option: name, checked, onChange (and onBlur, ref). */
  inputProps: (option: Choice, index: number) => RadioProps;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  const grid = columns === 3 ? 'sm:grid-cols-3' : columns === 2 ? 'sm:grid-cols-2' : '';
  return (
    <fieldset aria-describedby={errorId}>
      <legend className="field-label">{legend}</legend>
      <div className={`mt-2 grid gap-3 ${grid}`}>
        {options.map((option, index) => {
          const itemId = `${id}-${option.value}`;
          const descId = option.description ? `${itemId}-desc` : undefined;
          return (
            <div
              key={option.value}
              className={
                'relative flex items-start gap-3 rounded-lg border bg-white p-4 transition-colors ' +
                'has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50 ' +
                'has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-600 ' +
                (error ? 'border-danger-700' : 'border-ink-300 hover:border-ink-600')
              }
            >
              <input
                {...inputProps(option, index)}
                type="radio"
                id={itemId}
                value={option.value}
                aria-describedby={descId ? `${descId} ${errorId}` : errorId}
                className="relative z-10 mt-0.5 size-5 shrink-0 cursor-pointer accent-brand-700 focus-visible:outline-none"
              />
              <div className="grid gap-1">
                {/* The label's ::after covers the card, so a click anywhere on it selects. */}
                <label
                  htmlFor={itemId}
                  className="cursor-pointer font-medium text-ink-900 after:absolute after:inset-0"
                >
                  {option.label}
                </label>
                {option.description ? (
                  <span id={descId} className="text-sm text-ink-700">
                    {option.description}
                  </span>
                ) : null}
              </div>
            </div>
          );
        })}
      </div>
      <FieldError id={errorId} message={error} />
    </fieldset>
  );
}
