/**
 * The wizard's calendar of free dates (decision 036). Beside each date field, a button opens a
 * month view in which every date says whether a session can be asked for: a date with no free
 * half-day is marked, cannot be chosen, and its reason is read with it ("Closed", "Fully
 * booked"). The date field itself stays: it can be typed, and the server checks it either way.
 *
 * Keyboard: the month's dates are one tab stop; arrow keys move a day or a week (into the next or
 * previous month), Home and End to the week's ends, Page Up and Page Down a month; Enter or Space
 * chooses; Escape closes and returns to the button (free-dates-month.tsx). Its code is fetched when
 * first opened, so the page's first load pays nothing for it.
 */
import { lazy, Suspense, useId, useRef, useState } from 'react';
import { availabilityCopy } from '~/content/booking';
import type { MonthViewProps } from './free-dates-month';

// The month view is fetched when the calendar is first opened: the page's first load pays nothing.
const MonthView = lazy(() => import('./free-dates-month'));

export function FreeDatesCalendar({
  availability,
  value,
  min,
  max,
  label,
  onPick,
  onMonth,
}: Omit<MonthViewProps, 'onClose'>) {
  const [open, setOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  const id = useId();
  return (
    <div>
      <button
        ref={toggle}
        type="button"
        aria-expanded={open}
        aria-controls={`${id}-calendar`}
        className="text-sm font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800"
        onClick={() => setOpen((o) => !o)}
      >
        {open ? availabilityCopy.hideCalendar : availabilityCopy.showCalendar(label)}
      </button>
      <div id={`${id}-calendar`}>
        {open ? (
          <Suspense
            fallback={<p className="mt-3 text-sm text-ink-700">{availabilityCopy.loadingCalendar}</p>}
          >
            <MonthView
              availability={availability}
              value={value}
              min={min}
              max={max}
              label={label}
              onMonth={onMonth}
              onPick={(date) => {
                onPick(date);
                setOpen(false);
                toggle.current?.focus();
              }}
              onClose={() => {
                setOpen(false);
                toggle.current?.focus();
              }}
            />
          </Suspense>
        ) : null}
      </div>
    </div>
  );
}
