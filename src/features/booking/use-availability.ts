/**
 * The owner's availability in the browser (decision 036): the booking wizard's and the reschedule
 * page's one reader of `GET /api/bookings/availability`.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { fetchAvailability } from './booking-api';
import { answerEnd, joinAnswers, stateIn, type PublicAvailability } from './availability';
import { availabilityCopy, bookingCopy, SESSION_TIMES } from '~/content/booking';

const timeOptions = SESSION_TIMES.map((value) => ({ value, label: bookingCopy.step1.timeOption(value) }));

/** The half-day options of a date: one the owner's availability does not offer is disabled, with its reason. */
export function halfDayOptions(date: string, availability: PublicAvailability | null) {
  return timeOptions.map((option) => {
    const state = date ? stateIn(availability ?? { from: '', halves: '' }, date, option.value) : undefined;
    const reason =
      state === 'closed' ? availabilityCopy.closed : state === 'full' ? availabilityCopy.full : undefined;
    return reason ? { ...option, description: reason, disabled: true } : option;
  });
}

/** What the wizard knows of the owner's availability, and how it asks for more. */
export type AvailabilityState = {
  answer: PublicAvailability | null;
  /** Asks for the pages up to `date` (the calendar's month, a typed date) if not yet read. */
  lookAhead(date: string): void;
};

/**
 * The owner's availability, read after the page is shown (decision 036), a page of
 * AVAILABILITY_PAGE_DAYS at a time: the first from today, the next as the visitor looks further
 * ahead. Until a page arrives, or if it cannot be read, its dates are offered and the server
 * checks the request.
 */
export function useAvailability(): [AvailabilityState, () => void] {
  const [answer, setAnswer] = useState<PublicAvailability | null>(null);
  const [round, setRound] = useState(0);
  const loading = useRef(false);
  // The answer as last set, for lookAhead's loop (state would be read as it was when it began).
  const current = useRef<PublicAvailability | null>(null);
  useEffect(() => {
    let live = true;
    loading.current = true;
    void fetchAvailability().then((a) => {
      loading.current = false;
      if (!live || !a) return;
      current.current = a;
      setAnswer(a);
    });
    return () => {
      live = false;
    };
  }, [round]);
  const lookAhead = useCallback((date: string) => {
    void (async () => {
      // At most a year ahead, one page at a time; an empty page is the end of the booking window.
      for (let pages = 0; pages < 5; pages += 1) {
        const known = current.current;
        if (!known || loading.current || !known.halves || date < answerEnd(known)) return;
        loading.current = true;
        const next = await fetchAvailability(answerEnd(known));
        loading.current = false;
        if (!next || !next.halves || current.current !== known) return;
        current.current = joinAnswers(known, next);
        setAnswer(current.current);
      }
    })();
  }, []);
  const state = useMemo(() => ({ answer, lookAhead }), [answer, lookAhead]);
  return [state, () => setRound((r) => r + 1)];
}
