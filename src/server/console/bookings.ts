/**
 * The bookings the owner answers: requested, confirmed, declined, cancelled and past, each with
 * its history. The actions themselves are the booking feature's (`performOwnerAction`,
 * `rescheduleBooking`): the same code and e-mails as the links in the owner's e-mail.
 */
import { and, asc, desc, eq, gte, inArray, lt, type SQL } from 'drizzle-orm';
import { BOOKING_VIEWS, type BookingList, type BookingSummary, type BookingView } from '~/console/api';
import { SESSION_MINUTES, sessionTypeLabels, type SessionTime, type SessionType } from '~/content/booking';
import { slotWords } from '~/features/booking/booking-actions.server';
import {
  addMinutesToClock,
  formatChoice,
  formatClock,
  startTimesFor,
  ukToday,
} from '~/features/booking/booking-dates';
import { bookingStatusEvents, bookings } from '~/features/booking/tables.server';
import type { Queryable } from '../kit/db/client';
import { submissions } from '../kit/db/schema';
import { Refusal } from '../kit/http/request-checks';

const LIMIT = 200;

const startOption = (value: string) => ({
  value,
  label: `${formatClock(value)}-${formatClock(addMinutesToClock(value, SESSION_MINUTES))}`,
});

function viewFilter(view: BookingView, today: string): SQL | undefined {
  if (view === 'confirmed') return and(eq(bookings.status, 'confirmed'), gte(bookings.sessionDate, today));
  if (view === 'past') return and(eq(bookings.status, 'confirmed'), lt(bookings.sessionDate, today));
  return eq(bookings.status, view);
}

export function readBookingView(value: unknown): BookingView {
  if (value === undefined || value === '') return 'requested';
  if (typeof value === 'string' && (BOOKING_VIEWS as readonly string[]).includes(value))
    return value as BookingView;
  throw new Refusal(400, { error: 'The bookings view is not valid.' });
}

export async function bookingList(db: Queryable, view: BookingView, now = new Date()): Promise<BookingList> {
  const today = ukToday(now);
  const rows = await db
    .select({ row: bookings, fields: submissions.fields })
    .from(bookings)
    .innerJoin(submissions, eq(submissions.id, bookings.submissionId))
    .where(viewFilter(view, today))
    // Requests oldest first (the longest waiting on top); sessions soonest first; the rest newest first.
    .orderBy(
      ...(view === 'requested'
        ? [asc(bookings.createdAt)]
        : view === 'confirmed'
          ? [asc(bookings.sessionDate), asc(bookings.sessionStart)]
          : [desc(bookings.updatedAt)]),
    )
    .limit(LIMIT);
  const ids = rows.map((r) => r.row.id);
  const events =
    ids.length === 0
      ? []
      : await db
          .select({
            bookingId: bookingStatusEvents.bookingId,
            status: bookingStatusEvents.status,
            at: bookingStatusEvents.at,
            actor: bookingStatusEvents.actor,
          })
          .from(bookingStatusEvents)
          .where(inArray(bookingStatusEvents.bookingId, ids))
          .orderBy(bookingStatusEvents.at, bookingStatusEvents.id);
  return {
    items: rows.map(({ row, fields }) => {
      const f = (typeof fields === 'string' ? JSON.parse(fields) : fields) as Record<
        string,
        string | undefined
      >;
      const choices: BookingSummary['choices'] = [
        {
          choice: 1,
          label: formatChoice(row.firstChoiceDate, row.firstChoiceTime as SessionTime),
          startTimes: startTimesFor(row.firstChoiceTime as SessionTime).map(startOption),
        },
      ];
      if (row.secondChoiceDate && row.secondChoiceTime) {
        choices.push({
          choice: 2,
          label: formatChoice(row.secondChoiceDate, row.secondChoiceTime as SessionTime),
          startTimes: startTimesFor(row.secondChoiceTime as SessionTime).map(startOption),
        });
      }
      const session =
        row.sessionDate && row.sessionStart && row.sessionEnd
          ? {
              label: slotWords({ date: row.sessionDate, start: row.sessionStart, end: row.sessionEnd }),
              date: row.sessionDate,
              start: row.sessionStart,
            }
          : null;
      return {
        id: row.id,
        reference: row.reference,
        submissionId: row.submissionId,
        status: row.status,
        past: row.status === 'confirmed' && !!row.sessionDate && row.sessionDate < today,
        name: `${f.firstName ?? ''} ${f.lastName ?? ''}`.trim(),
        email: f.email ?? '',
        company: f.company?.trim() ? f.company : null,
        sessionType: sessionTypeLabels[row.sessionType as SessionType] ?? row.sessionType,
        choices,
        session,
        history: events
          .filter((e) => e.bookingId === row.id)
          .map((e) => ({ status: e.status, at: e.at.toISOString(), actor: e.actor })),
        createdAt: row.createdAt.toISOString(),
      };
    }),
  };
}
