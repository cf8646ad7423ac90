/**
 * The applicant's choice of a new half-day on the reschedule link's page (decision 039): a date
 * (typed, or picked on the calendar of free dates) and morning or afternoon, offered from the
 * same availability as the booking wizard, a taken or closed one disabled with its reason.
 */
import { useEffect, useId } from 'react';
import { availabilityCopy, bookingActionCopy as copy } from '~/content/booking';
import { ChoiceGroup } from '~/components/form/choice-group';
import { isIsoDate } from '~/lib/uk-dates';
import { dateState } from './availability';
import { earliestBookableDate, latestBookableDate } from './booking-dates';
import { FreeDatesCalendar } from './free-dates-calendar';
import { halfDayOptions, useAvailability } from './use-availability';

export default function MoveChoice({
  date,
  time,
  onDate,
  onTime,
  error,
}: {
  date: string;
  time: string;
  onDate(date: string): void;
  onTime(time: string): void;
  /** The server's refusal of the half-day chosen (taken meanwhile). */
  error?: string;
}) {
  const [{ answer, lookAhead }] = useAvailability();
  const id = useId();
  useEffect(() => {
    if (date && isIsoDate(date)) lookAhead(date);
  }, [date, lookAhead]);
  // Rendered only after the link was read, in the browser: today is the visitor's.
  const now = new Date();
  const min = earliestBookableDate(now);
  const max = latestBookableDate(now);
  const day = date && isIsoDate(date) ? dateState(answer, date) : undefined;
  const dayProblem =
    day === 'closed' ? availabilityCopy.dateClosed : day === 'full' ? availabilityCopy.dateFull : undefined;
  const problem = error ?? dayProblem;
  return (
    <div className="mt-6 grid gap-4">
      <p className="text-ink-700">{copy.rescheduleIntro}</p>
      <div>
        <label htmlFor={`${id}-date`} className="field-label">
          {copy.rescheduleDateLabel}
        </label>
        <input
          id={`${id}-date`}
          type="date"
          className="field-input"
          min={min}
          max={max}
          value={date}
          aria-invalid={problem ? true : undefined}
          aria-describedby={`${id}-problem`}
          onChange={(e) => onDate(e.target.value)}
        />
        <p id={`${id}-problem`} role="alert" className="field-error min-h-5">
          {problem}
        </p>
        <FreeDatesCalendar
          availability={answer}
          onMonth={lookAhead}
          value={date}
          min={min}
          max={max}
          label={copy.rescheduleDateLabel.toLowerCase()}
          onPick={onDate}
        />
      </div>
      <ChoiceGroup
        legend={copy.rescheduleTimeLegend}
        options={halfDayOptions(date, answer)}
        columns={2}
        inputProps={(option) => ({
          name: 'time',
          checked: time === option.value,
          onChange: () => onTime(option.value),
        })}
      />
    </div>
  );
}
