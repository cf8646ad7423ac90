/**
 * The bookings board of the owner's console: requested, confirmed, declined, cancelled and past
 * bookings, each with its history, and the owner's answers to them. The actions are this feature's
 * (`performOwnerAction`, `rescheduleBooking`): the same code and e-mails as the links in the owner's
 * e-mail, with the console's audit row written in the action's transaction.
 */
import { and, asc, desc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { REQUEST_HOLD_DAYS, sessionTypeLabels, type SessionTime, type SessionType } from '~/content/booking';
import { audit, type AuditAction } from '~/server/kit/audit';
import type { Queryable } from '~/server/kit/db/client';
import { Refusal } from '~/server/kit/http/request-checks';
import { submissions } from '~/server/kit/db/schema';
import type { ConsoleArea, OwnerIdentity } from '~/server/kit/http/owner-routes';
import { slotWords, type OwnerActed, type OwnerActionHook } from './booking-action-checks.server';
import { performOwnerAction } from './booking-decisions.server';
import { rescheduleBooking } from './booking-moves.server';
import {
  bookingRoutes,
  type BookingList,
  type BookingSummary,
  type BookingView,
} from './booking-console-contract';
import { formatChoice, SESSION_START_TIMES, startTimeOption, startTimesFor, ukToday } from './booking-dates';
import { readAvailabilitySettings } from './availability.server';
import { bookingStatusEvents, bookings } from './tables.server';

const LIMIT = 200;
const DAY_MS = 86_400_000;

function viewFilter(view: BookingView, today: string): SQL | undefined {
  if (view === 'confirmed') return and(eq(bookings.status, 'confirmed'), gte(bookings.sessionDate, today));
  if (view === 'past') return and(eq(bookings.status, 'confirmed'), lt(bookings.sessionDate, today));
  return eq(bookings.status, view);
}

export async function bookingList(db: Queryable, view: BookingView, now = new Date()): Promise<BookingList> {
  const today = ukToday(now);
  const rows = await db
    .select({ row: bookings, fields: submissions.fields })
    .from(bookings)
    .innerJoin(submissions, eq(submissions.id, bookings.submissionId))
    .where(viewFilter(view, today))
    // Requests and sessions soonest first (a request by its first choice, the morning before the
    // afternoon; of two for one half-day, the longer waiting first); the rest newest first.
    .orderBy(
      ...(view === 'requested'
        ? [
            asc(bookings.firstChoiceDate),
            asc(sql`case when ${bookings.firstChoiceTime} = 'morning' then 0 else 1 end`),
            asc(bookings.createdAt),
          ]
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
    meetingLink: (await readAvailabilitySettings(db)).meetingLink,
    items: rows.map(({ row, fields }) => {
      const f = (typeof fields === 'string' ? JSON.parse(fields) : fields) as Record<
        string,
        string | undefined
      >;
      const choices: BookingSummary['choices'] = [
        {
          choice: 1,
          label: formatChoice(row.firstChoiceDate, row.firstChoiceTime as SessionTime),
          startTimes: startTimesFor(row.firstChoiceTime as SessionTime).map(startTimeOption),
        },
      ];
      if (row.secondChoiceDate && row.secondChoiceTime) {
        choices.push({
          choice: 2,
          label: formatChoice(row.secondChoiceDate, row.secondChoiceTime as SessionTime),
          startTimes: startTimesFor(row.secondChoiceTime as SessionTime).map(startTimeOption),
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
        video: row.sessionType === 'zoom',
        name: `${f.firstName ?? ''} ${f.lastName ?? ''}`.trim(),
        email: f.email ?? '',
        company: f.company?.trim() ? f.company : null,
        sessionType: sessionTypeLabels[row.sessionType as SessionType] ?? row.sessionType,
        choices,
        session,
        move:
          row.status === 'confirmed' && row.moveDate && row.moveTime
            ? {
                label: formatChoice(row.moveDate, row.moveTime as SessionTime),
                startTimes: startTimesFor(row.moveTime as SessionTime).map(startTimeOption),
              }
            : null,
        history: events
          .filter((e) => e.bookingId === row.id)
          .map((e) => ({ status: e.status, at: e.at.toISOString(), actor: e.actor })),
        createdAt: row.createdAt.toISOString(),
        ...(row.status === 'requested'
          ? {
              holdUntil:
                row.holds && row.createdAt.getTime() + REQUEST_HOLD_DAYS * DAY_MS > now.getTime()
                  ? new Date(row.createdAt.getTime() + REQUEST_HOLD_DAYS * DAY_MS).toISOString()
                  : null,
            }
          : {}),
      };
    }),
  };
}

/**
 * The audit row of an owner's action on a booking (its reference as the target), with the clash
 * the owner insisted on, when they did.
 */
const audited =
  (owner: OwnerIdentity, action: AuditAction): OwnerActionHook =>
  (tx, acted) =>
    audit(tx, owner.email, action, acted.reference, acted.clash ? { clash: acted.clash } : undefined);

/** The Bookings area: the board's lists, and confirm, decline, cancel and reschedule. */
export const bookingsArea: ConsoleArea = (routes, { config, db, links, clock, wakeOutbox, diary }) => {
  const ctx = { config, db, links, diary };

  /** After an action's commit: its e-mails go out now, and the log says what changed. */
  const answered = (request: FastifyRequest, acted: OwnerActed) => {
    wakeOutbox();
    request.log.info(
      { bookingId: acted.bookingId, status: acted.answer.status },
      'booking changed in the console',
    );
    return acted.answer;
  };

  routes.on(bookingRoutes.list, async ({ query }) => bookingList(db, query.view, clock()));
  routes.on(bookingRoutes.rescheduleOptions, async () => ({
    startTimes: SESSION_START_TIMES.map(startTimeOption),
  }));
  routes.on(bookingRoutes.confirm, async ({ params, body, owner, request }) => {
    const action = body.choice === 1 ? 'confirm-first' : 'confirm-second';
    const acted = await performOwnerAction(
      ctx,
      params.id,
      action,
      { start: body.start, insist: body.insist, meetingLink: body.meetingLink },
      clock(),
      audited(owner, 'booking.confirm'),
    );
    return answered(request, acted);
  });
  routes.on(bookingRoutes.decline, async ({ params, body, owner, request }) =>
    answered(
      request,
      await performOwnerAction(
        ctx,
        params.id,
        'decline',
        body ?? {},
        clock(),
        audited(owner, 'booking.decline'),
      ),
    ),
  );
  routes.on(bookingRoutes.cancel, async ({ params, owner, request }) =>
    answered(
      request,
      await performOwnerAction(ctx, params.id, 'cancel', {}, clock(), audited(owner, 'booking.cancel')),
    ),
  );
  routes.on(bookingRoutes.reschedule, async ({ params, body, owner, request }) =>
    answered(
      request,
      await rescheduleBooking(ctx, params.id, body, clock(), audited(owner, 'booking.reschedule')),
    ),
  );
  routes.on(bookingRoutes.confirmMove, async ({ params, body, owner, request }) =>
    answered(
      request,
      await performOwnerAction(
        ctx,
        params.id,
        'confirm-move',
        { start: body.start, insist: body.insist },
        clock(),
        audited(owner, 'booking.reschedule'),
      ),
    ),
  );
  routes.on(bookingRoutes.releaseHold, async ({ params, owner, request }) => {
    const released = await db.transaction(async (tx) => {
      const [row] = await tx
        .update(bookings)
        .set({ holds: false, updatedAt: clock() })
        .where(and(eq(bookings.id, params.id), eq(bookings.status, 'requested'), eq(bookings.holds, true)))
        .returning({ reference: bookings.reference });
      if (row) await audit(tx, owner.email, 'booking.release-hold', row.reference);
      return row;
    });
    if (!released) {
      const [exists] = await db.select({ id: bookings.id }).from(bookings).where(eq(bookings.id, params.id));
      if (!exists) throw new Refusal(404, { error: 'There is no such booking.' });
      throw new Refusal(409, { error: 'This request holds no half-day.' });
    }
    request.log.info({ bookingId: params.id }, 'booking request hold released');
    return {
      status: 'requested',
      message: `The half-day held by ${released.reference} is open to visitors again.`,
    };
  });
  routes.on(bookingRoutes.keepTime, async ({ params, owner, request }) =>
    answered(
      request,
      await performOwnerAction(ctx, params.id, 'keep-time', {}, clock(), audited(owner, 'booking.keep-time')),
    ),
  );
};
