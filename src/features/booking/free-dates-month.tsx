/**
 * The month view of the wizard's calendar of free dates (free-dates-calendar.tsx, decision 036),
 * loaded when the visitor first opens it.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { availabilityCopy } from '~/content/booking';
import { addDays, isIsoDate, MONTHS, toUtcDate } from '~/lib/uk-dates';
import { dateState, type HalfDayState, type PublicAvailability } from './availability';
import { formatUkDate } from './booking-dates';

const WEEK = ['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su'] as const;
const WEEK_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

const monthOf = (date: string) => date.slice(0, 7);
const firstOfMonth = (month: string) => `${month}-01`;
function shiftMonth(month: string, by: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const d = new Date(Date.UTC(y, m - 1 + by, 1));
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}
/** Monday 0 ... Sunday 6. */
const weekdayIndex = (date: string) => (toUtcDate(date).getUTCDay() + 6) % 7;

/** The month's dates in weeks of seven (null before the first and after the last). */
function weeksOf(month: string): (string | null)[][] {
  const first = firstOfMonth(month);
  const cells: (string | null)[] = Array<null>(weekdayIndex(first)).fill(null);
  for (let d = first; monthOf(d) === month; d = addDays(d, 1)) cells.push(d);
  while (cells.length % 7) cells.push(null);
  return Array.from({ length: cells.length / 7 }, (_, i) => cells.slice(i * 7, i * 7 + 7));
}

function reasonOf(state: HalfDayState | undefined): string | undefined {
  if (state === 'closed') return availabilityCopy.closed;
  if (state === 'full') return availabilityCopy.full;
  return undefined;
}

/** The month view's inputs; the calendar (free-dates-calendar.tsx) takes the same, less `onClose`. */
export type MonthViewProps = {
  availability: PublicAvailability | null;
  value: string;
  min?: string;
  max?: string;
  /** The field's name, for the button and the calendar ("First choice"). */
  label: string;
  onPick: (date: string) => void;
  onClose: () => void;
  /** Told the last date of the month shown, so that its availability is read. */
  onMonth: (lastDate: string) => void;
};

export default function MonthView({
  availability,
  value,
  min,
  max,
  label,
  onPick,
  onClose,
  onMonth,
}: MonthViewProps) {
  const start =
    (value && (!min || value >= min) && (!max || value <= max) ? value : undefined) ??
    firstFree(availability, min, max) ??
    min ??
    '';
  const [focused, setFocused] = useState(start);
  const moved = useRef(false);
  const grid = useRef<HTMLTableElement>(null);
  const headingId = `${useId()}-month`;
  const month = monthOf(focused);

  useEffect(() => {
    onMonth(addDays(firstOfMonth(shiftMonth(month, 1)), -1));
  }, [month, onMonth]);

  useEffect(() => {
    if (!moved.current) return;
    grid.current?.querySelector<HTMLButtonElement>(`[data-date="${focused}"]`)?.focus();
  }, [focused]);

  const inRange = (date: string) => (!min || date >= min) && (!max || date <= max);
  const moveTo = (date: string) => {
    const bounded = min && date < min ? min : max && date > max ? max : date;
    moved.current = true;
    setFocused(bounded);
  };

  function onKeyDown(e: KeyboardEvent) {
    const by: Record<string, () => string> = {
      ArrowLeft: () => addDays(focused, -1),
      ArrowRight: () => addDays(focused, 1),
      ArrowUp: () => addDays(focused, -7),
      ArrowDown: () => addDays(focused, 7),
      Home: () => addDays(focused, -weekdayIndex(focused)),
      End: () => addDays(focused, 6 - weekdayIndex(focused)),
      PageUp: () => sameDayIn(focused, -1),
      PageDown: () => sameDayIn(focused, 1),
    };
    if (e.key === 'Escape') {
      e.preventDefault();
      onClose();
      return;
    }
    const next = by[e.key];
    if (!next) return;
    e.preventDefault();
    moveTo(next());
  }

  const [y, m] = month.split('-').map(Number) as [number, number];
  const title = `${MONTHS[m - 1]} ${y}`;
  const canGoBack = !min || shiftMonth(month, -1) >= monthOf(min);
  const canGoOn = !max || shiftMonth(month, 1) <= monthOf(max);

  return (
    <div className="mt-3 w-full max-w-sm rounded-lg border border-ink-300 bg-white p-3">
      <div className="flex items-center justify-between gap-2">
        <button
          type="button"
          className="btn btn-secondary px-3 py-1"
          disabled={!canGoBack}
          aria-label={availabilityCopy.previousMonth}
          onClick={() => moveTo(firstOfMonth(shiftMonth(month, -1)))}
        >
          ‹
        </button>
        <p id={headingId} aria-live="polite" className="font-semibold text-ink-900">
          {title}
        </p>
        <button
          type="button"
          className="btn btn-secondary px-3 py-1"
          disabled={!canGoOn}
          aria-label={availabilityCopy.nextMonth}
          onClick={() => moveTo(firstOfMonth(shiftMonth(month, 1)))}
        >
          ›
        </button>
      </div>
      <table ref={grid} className="mt-2 w-full table-fixed text-center" aria-label={`${label}: ${title}`}>
        <thead>
          <tr>
            {WEEK.map((d, i) => (
              <th key={d} scope="col" className="pb-1 text-xs font-medium text-ink-700">
                <abbr title={WEEK_NAMES[i]} className="no-underline">
                  {d}
                </abbr>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeksOf(month).map((week, w) => (
            <tr key={w}>
              {week.map((date, i) =>
                date ? (
                  <td key={date} className="p-0.5">
                    <DayButton
                      date={date}
                      state={inRange(date) ? dateState(availability, date) : 'closed'}
                      selected={date === value}
                      focusable={date === focused}
                      onPick={onPick}
                      onFocus={() => setFocused(date)}
                      onKeyDown={onKeyDown}
                    />
                  </td>
                ) : (
                  <td key={`empty-${i}`} />
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
      <p className="mt-2 text-xs text-ink-700">{availabilityCopy.calendarLegend}</p>
    </div>
  );
}

function DayButton({
  date,
  state,
  selected,
  focusable,
  onPick,
  onFocus,
  onKeyDown,
}: {
  date: string;
  state: HalfDayState | undefined;
  selected: boolean;
  focusable: boolean;
  onPick: (date: string) => void;
  onFocus: () => void;
  onKeyDown: (e: KeyboardEvent) => void;
}) {
  const reason = reasonOf(state);
  const look = reason
    ? 'text-ink-500 line-through decoration-ink-500'
    : selected
      ? 'bg-brand-700 text-white'
      : 'border border-brand-700 text-ink-900 hover:bg-brand-50';
  return (
    <button
      type="button"
      data-date={date}
      tabIndex={focusable ? 0 : -1}
      aria-disabled={reason ? true : undefined}
      aria-label={[formatUkDate(date), reason, selected ? availabilityCopy.chosen : '']
        .filter(Boolean)
        .join(', ')}
      className={`h-9 w-full rounded-md text-sm ${look}`}
      onFocus={onFocus}
      onKeyDown={onKeyDown}
      onClick={() => {
        if (!reason) onPick(date);
      }}
    >
      {Number(date.slice(8))}
    </button>
  );
}

/** The first date with a free half-day between min and max. */
function firstFree(answer: PublicAvailability | null, min?: string, max?: string): string | undefined {
  if (!answer || !min) return undefined;
  for (let d = min; !max || d <= max; d = addDays(d, 1)) {
    if (dateState(answer, d) === 'free') return d;
    if (dateState(answer, d) === undefined) return undefined;
  }
  return undefined;
}

/** The same day of the month `by` months on, or that month's last day. */
function sameDayIn(date: string, by: number): string {
  const month = shiftMonth(monthOf(date), by);
  for (let day = Number(date.slice(8)); day > 28; day -= 1) {
    const candidate = `${month}-${String(day).padStart(2, '0')}`;
    if (isIsoDate(candidate)) return candidate;
  }
  return `${month}-${date.slice(8) > '28' ? '28' : date.slice(8)}`;
}
