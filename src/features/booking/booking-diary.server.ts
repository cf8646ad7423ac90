/**
 * The booking feature's entries in the owner's diary (src/server/kit/diary.ts): every session the
 * owner confirmed, with the UID and SEQUENCE of the applicant's invitation, so a calendar that
 * holds both shows one event; a session cancelled after its confirmation stays, cancelled.
 * Requests not yet confirmed, and declined ones, have no time and are not in the diary.
 */
import { and, asc, eq, gte, inArray, isNotNull, lt } from 'drizzle-orm';
import { submissions } from '~/server/kit/db/schema';
import { DIARY_MAX_ENTRIES, type DiaryEntry, type DiaryQuery, type DiarySource } from '~/server/kit/diary';
import { quotableName } from '~/server/kit/mail/greeting';
import { calendarUid, eventTexts } from './booking-emails.server';
import type { BookingRequest } from './booking-schema';
import { bookings } from './tables.server';

async function entries({
  db,
  publicUrl,
  sinceDate,
  untilDate,
  organizer,
  consoleUrl,
}: DiaryQuery): Promise<DiaryEntry[]> {
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
    const texts = eventTexts({ id: row.id, reference: row.reference, details, meetingUrl: row.meetingUrl });
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
        consolePath: `inbox/${row.submissionId}`,
      },
    ];
  });
}

export const bookingDiary: DiarySource = {
  entries,
  // Confirmed sessions' times alone: no applicant's details read.
  async times({ db, sinceDate, untilDate }) {
    const rows = await db
      .select({ date: bookings.sessionDate, start: bookings.sessionStart, end: bookings.sessionEnd })
      .from(bookings)
      .where(
        and(
          eq(bookings.status, 'confirmed'),
          gte(bookings.sessionDate, sinceDate),
          untilDate ? lt(bookings.sessionDate, untilDate) : undefined,
        ),
      )
      .limit(DIARY_MAX_ENTRIES);
    return rows.flatMap(({ date, start, end }) =>
      date && start && end
        ? [{ start: { date, time: start }, end: { date, time: end }, session: true as const }]
        : [],
    );
  },
};
