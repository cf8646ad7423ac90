/**
 * A UK time to do something at (publish an article, send a newsletter issue): one
 * `datetime-local` field and its button, the time it already has to change it. An empty time is
 * refused on the page (with the field focused), since the server would take it as "now", which
 * has its own button and dialog; the server's refusal of a time (past, or one the clocks skip)
 * is said by the field and announced.
 */
import { useRef, useState, type FormEvent } from 'react';
import type { ApiResult } from '~/lib/api-client';
import { formatDateTime } from './dates';
import { Field } from './fields';
import { useNotify } from './notices';

/** A UK time for a sentence: the instant the server answered, or the wall-clock time typed. */
export const ukTime = (iso: string | null, local: string | null) =>
  iso ? formatDateTime(iso) : (local ?? '').replace('T', ' ');

export type ScheduleWords = {
  heading: string;
  label: string;
  hint: string;
  /** Said when the field is empty. */
  chooseTime: string;
  schedule: string;
  scheduling: string;
  /** The notice once scheduled, with the UK time. */
  scheduled: (when: string) => string;
};

export function ScheduleForm<T>({
  initial,
  blocked,
  describedBy,
  words,
  submit,
  whenOf,
  onChange,
}: {
  /** The time it is scheduled for now (`YYYY-MM-DDTHH:MM`, UK), or empty. */
  initial: string;
  /** An action of the page is running, or the page holds unsaved changes. */
  blocked: boolean;
  describedBy: string | undefined;
  words: ScheduleWords;
  /** Sends the time; the answer is the thing as it now stands. */
  submit(at: string): Promise<ApiResult<T>>;
  /** The UK time the answer is scheduled for, for the notice. */
  whenOf(answer: T): string;
  onChange(answer: T): void;
}) {
  const notify = useNotify();
  const [at, setAt] = useState(initial);
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  async function schedule(e: FormEvent) {
    e.preventDefault();
    if (busy || blocked) return;
    if (!at.trim()) {
      setError(words.chooseTime);
      input.current?.focus();
      return;
    }
    setBusy(true);
    const result = await submit(at);
    setBusy(false);
    if (!result.ok) {
      // 401 has already sent the console back to the sign-in page.
      if (result.status === 401) return;
      const fieldError = result.fieldErrors?.at;
      setError(fieldError ? String(fieldError) : undefined);
      if (fieldError) input.current?.focus();
      notify({ tone: 'error', text: result.error });
      return;
    }
    setError(undefined);
    onChange(result.data);
    notify({ tone: 'success', text: words.scheduled(whenOf(result.data)) });
  }

  return (
    <form noValidate onSubmit={(e) => void schedule(e)} className="mt-6 border-t border-ink-100 pt-4">
      <h3 className="font-semibold text-ink-900">{words.heading}</h3>
      <div className="mt-2 flex flex-wrap items-end gap-x-4">
        <Field label={words.label} hint={words.hint} error={error} validated className="min-w-0 basis-64">
          {(control) => (
            <input
              {...control}
              ref={input}
              type="datetime-local"
              name="at"
              value={at}
              onChange={(e) => setAt(e.target.value)}
              className="field-input"
            />
          )}
        </Field>
        <div className="mb-6">
          <button type="submit" className="btn btn-secondary" disabled={busy || blocked} aria-describedby={describedBy}>
            {busy ? words.scheduling : words.schedule}
          </button>
        </div>
      </div>
    </form>
  );
}
