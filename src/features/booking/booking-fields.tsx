/**
 * The wizard's field shells: a visible label, the control, and an error that is tied to the
 * control (aria-describedby) and read out when it appears (a polite live region that is
 * always in the page, so the announcement is not lost).
 */
import { RadioGroup } from 'radix-ui';
import { useId, type ReactNode, type Ref } from 'react';

export type ControlProps = {
  id: string;
  'aria-invalid': boolean;
  'aria-describedby': string;
};

export function FieldError({ id, message }: { id: string; message?: string }) {
  return (
    <p id={id} aria-live="polite" className={message ? 'field-error' : 'sr-only'}>
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

/**
 * A radio group (Radix: arrow keys move and select, Tab enters and leaves the group). Each
 * option is a card whose whole surface selects it.
 */
export function ChoiceGroup({
  legend,
  name,
  value,
  options,
  error,
  columns = 1,
  onValueChange,
  onBlur,
  firstItemRef,
}: {
  legend: string;
  name: string;
  value: string;
  options: readonly Choice[];
  error?: string;
  columns?: 1 | 2 | 3;
  onValueChange: (value: string) => void;
  onBlur: () => void;
  firstItemRef?: Ref<HTMLButtonElement>;
}) {
  const id = useId();
  const legendId = `${id}-legend`;
  const errorId = `${id}-error`;
  const grid = columns === 3 ? 'sm:grid-cols-3' : columns === 2 ? 'sm:grid-cols-2' : '';
  return (
    <div>
      <p id={legendId} className="field-label">
        {legend}
      </p>
      <RadioGroup.Root
        name={name}
        value={value}
        onValueChange={onValueChange}
        onBlur={onBlur}
        aria-labelledby={legendId}
        aria-describedby={errorId}
        aria-invalid={Boolean(error)}
        aria-required={true}
        className={`mt-2 grid gap-3 ${grid}`}
      >
        {options.map((option, index) => {
          const itemId = `${id}-${option.value}`;
          return (
            <div
              key={option.value}
              className={
                'relative flex items-start gap-3 rounded-lg border bg-white p-4 transition-colors ' +
                'has-[[data-state=checked]]:border-brand-700 has-[[data-state=checked]]:bg-brand-50 ' +
                (error ? 'border-danger-700' : 'border-ink-300 hover:border-ink-600')
              }
            >
              <RadioGroup.Item
                id={itemId}
                value={option.value}
                ref={index === 0 ? firstItemRef : undefined}
                aria-describedby={option.description ? `${itemId}-desc` : undefined}
                className="mt-0.5 flex size-5 shrink-0 items-center justify-center rounded-full border-2 border-ink-600 bg-white data-[state=checked]:border-brand-700"
              >
                <RadioGroup.Indicator className="block size-2.5 rounded-full bg-brand-700" />
              </RadioGroup.Item>
              <div className="grid gap-1">
                {/* The label's ::after covers the card, so a click anywhere on it selects. */}
                <label htmlFor={itemId} className="cursor-pointer font-medium text-ink-900 after:absolute after:inset-0">
                  {option.label}
                </label>
                {option.description ? (
                  <span id={`${itemId}-desc`} className="text-sm text-ink-700">
                    {option.description}
                  </span>
                ) : null}
              </div>
            </div>
          );
        })}
      </RadioGroup.Root>
      <FieldError id={errorId} message={error} />
    </div>
  );
}
