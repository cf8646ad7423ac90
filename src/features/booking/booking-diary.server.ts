/**
 * The booking feature's entries in the owner's diary (src/server/kit/diary.ts): every session the
 * owner confirmed, with the UID and SEQUENCE of the applicant's invitation, so a calendar that
 * holds both shows one event; a session cancelled after its confirmation stays, cancelled.
 * Requests not yet confirmed, and declined ones, have no time and are not in the diary.
 */
import { and, asc, eq, gte, inArray, isNotNull, lt } from 'drizzle-orm';
import { submissions } from '~/server/kit/db/schema';
import { DIARY_MAX_ENTRIES, type DiarySource } from '~/server/kit/diary';
import { quotableName } from '~/server/kit/mail/greeting';
import { calendarUid, eventTexts } from './booking-emails.server';
import type { BookingRequest } from './booking-schema';
import { bookings } from './tables.server';

export const bookingDiary: DiarySource = async ({
  db,
  publicUrl,
  sinceDate,
  untilDate,
  organizer,
  consoleUrl,
}) => {
  const rows = await db
    .select({ row: bookings, fields: submissions.fields })
    .from(bookings)
    .innerJoin(submissions, eq(submissions.id, bookings.submissionId))
    .where(
      and(
        inArray(bookings.status, ['confirmed', 'cancelled']),
        isNotNull(bookings.sessionDate),
        gte(bookings.sessionDate, sinceDate),
        untilDate ? lt(bookings.sessionDate, untilDate) : undefined,
      ),
    )
    .orderBy(asc(bookings.sessionDate), asc(bookings.sessionStart))
    .limit(DIARY_MAX_ENTRIES);
  return rows.flatMap(({ row, fields }) => {
    if (!row.sessionDate || !row.sessionStart || !row.sessionEnd) return [];
    const details = (typeof fields === 'string' ? JSON.parse(fields) : fields) as BookingRequest;
    const texts = eventTexts({ id: row.id, reference: row.reference, details });
    // The owner's own calendar: who it is with, where the names are plainly names.
    const name = [quotableName(details.firstName), quotableName(details.lastName)].filter(Boolean).join(' ');
    return [
      {
        uid: calendarUid(row.id, publicUrl),
        sequence: row.calendarSequence,
        stamp: row.updatedAt,
        start: { date: row.sessionDate, time: row.sessionStart },
        end: { date: row.sessionDate, time: row.sessionEnd },
        summary: name ? `${texts.summary}, ${name}` : texts.summary,
        description: `${texts.description}\n\nIn the console: ${consoleUrl(`inbox/${row.submissionId}`)}`,
        location: texts.location,
        organizer,
        cancelled: row.status === 'cancelled',
        label: `booking ${row.reference}`,
      },
    ];
  });
};
