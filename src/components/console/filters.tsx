/**
 * A list's filter form, one for every list that filters (the inbox, the audit log): its fields
 * are the caller's, the filters live in the address's query, "Apply" sets the non-empty ones and
 * "Clear" (shown while any is set) removes them all. `DateFilter` is a day field whose value is
 * the query's.
 */
import type { FormEvent, ReactNode } from 'react';
import { Field } from './fields';

export function FilterForm({
  names,
  params,
  onApply,
  label,
  apply,
  clear,
  className,
  actionsClassName,
  children,
}: {
  /** The query's names the form sets. */
  names: readonly string[];
  params: URLSearchParams;
  onApply: (next: URLSearchParams) => void;
  /** The search landmark's name. */
  label: string;
  apply: string;
  clear: string;
  /** The grid of the fields. */
  className: string;
  /** Where the buttons sit in that grid. */
  actionsClassName: string;
  children: ReactNode;
}) {
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const next = new URLSearchParams();
    for (const name of names) {
      const value = String(data.get(name) ?? '').trim();
      if (value) next.set(name, value);
    }
    onApply(next);
  }
  const active = names.some((name) => params.get(name));
  return (
    <form
      role="search"
      aria-label={label}
      onSubmit={submit}
      className={`card mt-6 grid gap-x-4 p-4 ${className}`}
    >
      {children}
      <div className={`flex flex-wrap gap-3 ${actionsClassName}`}>
        <button type="submit" className="btn btn-primary">
          {apply}
        </button>
        {active ? (
          <button type="button" className="btn btn-secondary" onClick={() => onApply(new URLSearchParams())}>
            {clear}
          </button>
        ) : null}
      </div>
    </form>
  );
}

/** A day the list starts or ends at, as `?name=`. */
export function DateFilter({
  label,
  name,
  params,
}: {
  label: string;
  name: string;
  params: URLSearchParams;
}) {
  return (
    <Field label={label}>
      {(control) => (
        <input
          {...control}
          type="date"
          name={name}
          defaultValue={params.get(name) ?? ''}
          className="field-input"
        />
      )}
    </Field>
  );
}
