/**
 * The owner's Availability page (decision 036): which half-days the booking wizard offers. Weekly
 * hours, days off (single dates and ranges, with a note), bank holidays (closed unless opened),
 * the minimum notice, the booking window and the daily cap. Days off are saved as soon as they are
 * added or removed; the rest together with "Save availability", and leaving the page with changes
 * not saved asks first. The server checks them (AvailabilitySettingsSchema) and its errors are
 * shown beside the part to correct. The owner's own calendar is its last section
 * (./calendar-feed-section.tsx).
 */
import { useState, type FormEvent } from 'react';
import { SESSION_TIMES, sessionTimeLabels } from '~/content/booking';
import { availabilityPageCopy as copy } from '~/content/console';
import { useResource, Loaded } from '~/components/console/data';
import { DateTime } from '~/components/console/dates';
import { Field, SubmitButton } from '~/components/console/fields';
import { post } from '~/components/console/http';
import { useNotify } from '~/components/console/notices';
import { useUnsavedGuard } from '~/components/console/unsaved';
import { PageHeading, Section } from '~/components/console/page';
import { DataTable, rowTh, td } from '~/components/console/table';
import { isIsoDate } from '~/lib/uk-dates';
import { AVAILABILITY_LIMITS, WEEKDAYS, type AvailabilitySettings } from '../availability';
import type { AvailabilityAnswer } from '../availability-console-contract';
import { WEEKDAY_NAMES } from '../availability-settings';
import { formatUkDate } from '../booking-dates';
import { CalendarFeedSection } from './calendar-feed-section';

export function AvailabilityPage() {
  const [resource, reload] = useResource<AvailabilityAnswer>('/availability');
  return (
    <>
      <PageHeading title={copy.title}>{copy.title}</PageHeading>
      <p className="mt-2 max-w-prose text-ink-700">{copy.intro}</p>
      <Loaded resource={resource} reload={reload}>
        {(answer) => (
          <>
            <AvailabilityForm answer={answer} />
            <CalendarFeedSection initial={answer.calendar} />
          </>
        )}
      </Loaded>
    </>
  );
}

type Errors = Partial<Record<keyof AvailabilitySettings, string>>;

function AvailabilityForm({ answer }: { answer: AvailabilityAnswer }) {
  const notify = useNotify();
  const [settings, setSettings] = useState(answer.settings);
  // What the server holds: days off are saved on their own, the rest with "Save availability".
  const [saved, setSaved] = useState(answer.settings);
  const [updatedAt, setUpdatedAt] = useState(answer.updatedAt);
  const [errors, setErrors] = useState<Errors>({});
  const [sending, setSending] = useState(false);
  const set = <K extends keyof AvailabilitySettings>(key: K, value: AvailabilitySettings[K]) =>
    setSettings((s) => ({ ...s, [key]: value }));
  const dirty = JSON.stringify(settings) !== JSON.stringify(saved);
  useUnsavedGuard(dirty, copy.leaveUnsaved);

  /** Saves the days off at once, with the other settings as they are saved (not as edited). */
  async function saveDaysOff(daysOff: AvailabilitySettings['daysOff'], done: string): Promise<boolean> {
    if (sending) return false;
    setSending(true);
    const result = await post<AvailabilityAnswer>('/availability', { ...saved, daysOff });
    setSending(false);
    if (!result.ok) {
      if (result.status === 401) return false;
      setErrors((e) => ({ ...e, daysOff: result.fieldErrors?.daysOff ?? result.error }));
      notify({ tone: 'error', text: result.error });
      return false;
    }
    setErrors((e) => ({ ...e, daysOff: undefined }));
    setSaved(result.data.settings);
    setSettings((s) => ({ ...s, daysOff: result.data.settings.daysOff }));
    setUpdatedAt(result.data.updatedAt);
    notify({ tone: 'success', text: done });
    return true;
  }

  async function save(e: FormEvent) {
    e.preventDefault();
    if (sending) return;
    setSending(true);
    const result = await post<AvailabilityAnswer>('/availability', settings);
    setSending(false);
    if (!result.ok) {
      if (result.status === 401) return;
      setErrors((result.fieldErrors ?? {}) as Errors);
      notify({ tone: 'error', text: result.error });
      return;
    }
    setErrors({});
    setSettings(result.data.settings);
    setSaved(result.data.settings);
    setUpdatedAt(result.data.updatedAt);
    notify({ tone: 'success', text: copy.saved });
  }

  return (
    <form onSubmit={(e) => void save(e)} noValidate className="mt-6 grid gap-8">
      <WeeklyHours settings={settings} onChange={(weekly) => set('weekly', weekly)} error={errors.weekly} />
      <DaysOff days={settings.daysOff} onSave={saveDaysOff} busy={sending} error={errors.daysOff} />
      <BankHolidays
        holidays={answer.bankHolidays}
        open={settings.openHolidays}
        onChange={(open) => set('openHolidays', open)}
      />
      <Section id="availability-rules" heading={copy.rulesHeading}>
        <div className="mt-2 grid max-w-md gap-1">
          <NumberField
            label={copy.notice}
            hint={copy.noticeHint}
            value={settings.noticeDays}
            min={1}
            max={AVAILABILITY_LIMITS.noticeDays}
            error={errors.noticeDays}
            onChange={(v) => set('noticeDays', v)}
          />
          <NumberField
            label={copy.window}
            hint={copy.windowHint}
            value={settings.windowDays}
            min={7}
            max={365}
            error={errors.windowDays}
            onChange={(v) => set('windowDays', v)}
          />
          <NumberField
            label={copy.dailyCap}
            hint={copy.dailyCapHint}
            value={settings.dailyCap}
            min={1}
            max={AVAILABILITY_LIMITS.dailyCap}
            error={errors.dailyCap}
            onChange={(v) => set('dailyCap', v)}
          />
          <Field label={copy.meetingLink} hint={copy.meetingLinkHint} error={errors.meetingLink} validated>
            {(control) => (
              <input
                {...control}
                type="url"
                className="field-input"
                maxLength={500}
                value={settings.meetingLink}
                onChange={(e) => set('meetingLink', e.target.value)}
              />
            )}
          </Field>
        </div>
      </Section>
      <div className="flex flex-wrap items-center gap-4">
        <SubmitButton busy={sending} label={copy.save} busyLabel={copy.saving} />
        {dirty ? <p className="text-sm font-semibold text-ink-800">{copy.unsaved}</p> : null}
        <p className="text-sm text-ink-600">
          {updatedAt ? (
            <>
              {copy.lastSaved} <DateTime iso={updatedAt} />
            </>
          ) : (
            copy.defaults
          )}
        </p>
      </div>
    </form>
  );
}

function WeeklyHours({
  settings,
  onChange,
  error,
}: {
  settings: AvailabilitySettings;
  onChange: (weekly: AvailabilitySettings['weekly']) => void;
  error?: string;
}) {
  return (
    <Section id="availability-weekly" heading={copy.weeklyHeading}>
      <p className="mt-1 max-w-prose text-ink-700">{copy.weeklyIntro}</p>
      <DataTable
        label={copy.weeklyTable}
        minWidth="min-w-[28rem]"
        columns={[
          copy.day,
          ...SESSION_TIMES.map(
            (time) => `${time === 'morning' ? 'Morning' : 'Afternoon'} (${sessionTimeLabels[time]})`,
          ),
        ]}
      >
        {WEEKDAYS.map((day) => (
          <tr key={day}>
            <th scope="row" className={rowTh}>
              {WEEKDAY_NAMES[day]}
            </th>
            {SESSION_TIMES.map((time) => (
              <td key={time} className={td}>
                <input
                  type="checkbox"
                  className="size-5"
                  aria-label={`${WEEKDAY_NAMES[day]} ${time}`}
                  checked={settings.weekly[day][time]}
                  onChange={(e) =>
                    onChange({
                      ...settings.weekly,
                      [day]: { ...settings.weekly[day], [time]: e.target.checked },
                    })
                  }
                />
              </td>
            ))}
          </tr>
        ))}
      </DataTable>
      {error ? (
        <p role="alert" className="field-error">
          {error}
        </p>
      ) : null}
    </Section>
  );
}

/** A day off in words: '21 December 2026' or '21 December 2026 to 24 December 2026'. */
const rangeWords = (d: { from: string; to: string }) =>
  d.from === d.to ? formatUkDate(d.from) : `${formatUkDate(d.from)} to ${formatUkDate(d.to)}`;

function DaysOff({
  days,
  onSave,
  busy,
  error,
}: {
  days: AvailabilitySettings['daysOff'];
  /** Saves the new list at once; true when saved, with `done` told to the owner. */
  onSave: (days: AvailabilitySettings['daysOff'], done: string) => Promise<boolean>;
  busy: boolean;
  error?: string;
}) {
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [note, setNote] = useState('');
  const [problem, setProblem] = useState<{ from?: string; to?: string }>({});

  async function add() {
    const last = to || from;
    if (!isIsoDate(from)) return setProblem({ from: copy.fromRequired });
    if (!isIsoDate(last) || last < from) return setProblem({ to: copy.toAfterFrom });
    setProblem({});
    const next = [...days, { from, to: last, note: note.trim() }].sort((a, b) =>
      a.from.localeCompare(b.from),
    );
    // The fields keep what was typed until it is saved.
    if (!(await onSave(next, copy.daysOffSaved(rangeWords({ from, to: last }))))) return;
    setFrom('');
    setTo('');
    setNote('');
  }

  return (
    <Section id="availability-days-off" heading={copy.daysOffHeading}>
      <p className="mt-1 max-w-prose text-ink-700">{copy.daysOffIntro}</p>
      {days.length === 0 ? (
        <p className="mt-2 text-ink-700">{copy.noDaysOff}</p>
      ) : (
        <ul className="mt-2 grid gap-2" aria-label={copy.daysOffHeading}>
          {days.map((d, index) => (
            <li key={`${d.from}-${d.to}-${index}`} className="flex flex-wrap items-center gap-3">
              <span>
                {rangeWords(d)}
                {d.note ? `: ${d.note}` : ''}
              </span>
              <button
                type="button"
                className="btn btn-secondary"
                aria-label={`${copy.remove} ${rangeWords(d)}`}
                disabled={busy}
                onClick={() =>
                  void onSave(
                    days.filter((_, i) => i !== index),
                    copy.dayOffRemoved(rangeWords(d)),
                  )
                }
              >
                {copy.remove}
              </button>
            </li>
          ))}
        </ul>
      )}
      {error ? (
        <p role="alert" className="field-error">
          {error}
        </p>
      ) : null}
      <div className="mt-3 grid max-w-2xl gap-x-4 sm:grid-cols-3">
        <Field label={copy.from} error={problem.from} validated>
          {(control) => (
            <input
              {...control}
              type="date"
              value={from}
              onChange={(e) => setFrom(e.target.value)}
              className="field-input"
            />
          )}
        </Field>
        <Field label={copy.to} hint={copy.toHint} error={problem.to} validated>
          {(control) => (
            <input
              {...control}
              type="date"
              value={to}
              onChange={(e) => setTo(e.target.value)}
              className="field-input"
            />
          )}
        </Field>
        <Field label={copy.note} hint={copy.noteHint}>
          {(control) => (
            <input
              {...control}
              type="text"
              value={note}
              maxLength={AVAILABILITY_LIMITS.note}
              onChange={(e) => setNote(e.target.value)}
              className="field-input"
            />
          )}
        </Field>
      </div>
      <button type="button" className="btn btn-secondary" disabled={busy} onClick={() => void add()}>
        {copy.addDaysOff}
      </button>
    </Section>
  );
}

function BankHolidays({
  holidays,
  open,
  onChange,
}: {
  holidays: AvailabilityAnswer['bankHolidays'];
  open: string[];
  onChange: (open: string[]) => void;
}) {
  return (
    <Section id="availability-holidays" heading={copy.holidaysHeading}>
      <p className="mt-1 max-w-prose text-ink-700">{copy.holidaysIntro}</p>
      <ul className="mt-2 grid gap-1">
        {holidays.map((h) => (
          <li key={h.date}>
            <label className="inline-flex items-center gap-2">
              <input
                type="checkbox"
                className="size-5"
                checked={open.includes(h.date)}
                onChange={(e) =>
                  onChange(e.target.checked ? [...open, h.date].sort() : open.filter((d) => d !== h.date))
                }
              />
              <span>
                {formatUkDate(h.date)}, {h.name}: {copy.openForSessions}
              </span>
            </label>
          </li>
        ))}
      </ul>
    </Section>
  );
}

function NumberField({
  label,
  hint,
  value,
  min,
  max,
  error,
  onChange,
}: {
  label: string;
  hint: string;
  value: number;
  min: number;
  max: number;
  error?: string;
  onChange: (value: number) => void;
}) {
  return (
    <Field label={label} hint={hint} error={error} validated>
      {(control) => (
        <input
          {...control}
          type="number"
          inputMode="numeric"
          min={min}
          max={max}
          step={1}
          value={Number.isNaN(value) ? '' : value}
          onChange={(e) => onChange(e.target.value === '' ? Number.NaN : Number(e.target.value))}
          className="field-input sm:max-w-32"
        />
      )}
    </Field>
  );
}
