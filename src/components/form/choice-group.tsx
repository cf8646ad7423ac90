/**
 * A group of radio buttons, the control of the field kit's `ChoiceField` (choice-field.tsx),
 * which adds the error region; on its own where a group has no error to show.
 */
import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';

/** An option; a disabled one cannot be chosen, and its description says why. */
export type Choice = { value: string; label: string; description?: string; disabled?: boolean };

type RadioProps = InputHTMLAttributes<HTMLInputElement> & { ref?: Ref<HTMLInputElement> };

/**
 * A group of native radio buttons in a fieldset: the browser gives arrow keys that move and
 * select at once, Tab into and out of the group, and a group name from the legend, before and
 * after hydration alike. Each option is a card whose whole surface selects it.
 */
export function ChoiceGroup({
  legend,
  options,
  columns = 1,
  invalid,
  describedBy,
  inputProps,
  children,
}: {
  legend: string;
  options: readonly Choice[];
  columns?: 1 | 2 | 3;
  invalid?: boolean;
  /** The id of what describes the group and each option (its error region). */
  describedBy?: string;
  /** The input's wiring for one option: name, checked, onChange (and onBlur, ref). */
  inputProps: (option: Choice, index: number) => RadioProps;
  /** Drawn in the group after the options (its error region). */
  children?: ReactNode;
}) {
  const id = useId();
  const grid = columns === 3 ? 'sm:grid-cols-3' : columns === 2 ? 'sm:grid-cols-2' : '';
  return (
    <fieldset aria-describedby={describedBy}>
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
                'has-[:disabled]:border-dashed has-[:disabled]:bg-ink-50 ' +
                'has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-600 ' +
                (invalid ? 'border-danger-700' : 'border-ink-300 hover:border-ink-600')
              }
            >
              <input
                {...inputProps(option, index)}
                disabled={option.disabled || undefined}
                type="radio"
                id={itemId}
                value={option.value}
                aria-describedby={
                  descId && describedBy ? `${descId} ${describedBy}` : (descId ?? describedBy)
                }
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
      {children}
    </fieldset>
  );
}
