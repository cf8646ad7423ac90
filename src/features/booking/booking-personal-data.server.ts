/**
 * The booking's personal data: its bookings and their history hang off the person's submissions
 * (erased with them by cascade); a booking is deleted with its request 24 months after the
 * session (RETENTION.bookingMonthsAfterSession).
 */
import { inArray, sql } from 'drizzle-orm';
import { peopleCopy, retentionCopy } from '~/content/console';
import { definePersonalData, rowsOfSubmissions } from '~/server/kit/personal-data';
import { bookingDay, bookings, bookingStatusEvents } from './tables.server';

export const bookingPersonalData = definePersonalData<typeof bookings.$inferSelect>({
  key: 'bookings',
  title: peopleCopy.bookings,
  noun: 'bookings',
  rows: {
    find: (q, person) => rowsOfSubmissions(q, bookings, bookings.submissionId, person),
    show: (b) => ({ text: `${b.reference} (${b.status})`, at: b.createdAt.toISOString() }),
  },
  retention: [
    {
      count: 'bookings',
      describe: (p) => retentionCopy.bookings(p.bookingMonthsAfterSession),
      // Walked in the order of the booking day's index, which stops at the first booking still kept
      // instead of reading every booking.
      submissions: ({ ukToday, periods, batchSize }) => {
        const day = bookingDay(bookings);
        return sql`select ${bookings.submissionId} as id from ${bookings}
          where ${day} < ${ukToday} - make_interval(months => ${periods.bookingMonthsAfterSession})
          order by ${day}
          limit ${batchSize}`;
      },
    },
  ],
  countLabels: { bookings: retentionCopy.countLabels.bookings! },
});

/** Every status change of the person's bookings: who changed it, and when. */
export const bookingHistoryPersonalData = definePersonalData<typeof bookingStatusEvents.$inferSelect>({
  key: 'bookingHistory',
  title: peopleCopy.bookingHistory,
  noun: 'booking changes',
  rows: {
    find: async (q, { submissionIds }) =>
      submissionIds.length
        ? q
            .select({
              id: bookingStatusEvents.id,
              bookingId: bookingStatusEvents.bookingId,
              status: bookingStatusEvents.status,
              at: bookingStatusEvents.at,
              actor: bookingStatusEvents.actor,
            })
            .from(bookingStatusEvents)
            .innerJoin(bookings, sql`${bookings.id} = ${bookingStatusEvents.bookingId}`)
            .where(inArray(bookings.submissionId, submissionIds))
        : [],
    show: (h) => ({ text: `${h.status} (${h.actor})`, at: h.at.toISOString() }),
  },
});
