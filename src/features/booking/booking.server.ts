/**
 * The booking on the server. `bookingHandler` is the pipeline's form handler for
 * `formType: 'booking'`: in the submission's own transaction it stores the booking with its
 * reference and queues both e-mails (applicant and owner); the pipeline's Idempotency-Key
 * support makes a retry answer the same reference without storing or sending anything again.
 * Its routes serve the pages behind the e-mails' signed links (owner: confirm or decline;
 * applicant: cancel). See docs/decisions for why this is one request, not two.
 */
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  bookingCopy,
  OWNER_LINK_DAYS,
  SESSION_TIMES,
  sessionTypeLabels,
  type SessionTime,
  type SessionType,
} from '~/content/booking';
import { defineFormHandler, type ServerContext } from '~/server/kit/http/form-handler';
import { jsonOnly, Refusal, sameOriginOnly, send } from '~/server/kit/http/request-checks';
import type { Queryable, Tx } from '~/server/kit/db/client';
import type { BookingClock } from './booking-action-checks.server';
import { lastPossibleDay, linkUrl } from './booking-applicant-links.server';
import { inspectLink, performLink } from './booking-link-actions.server';
import { CANCEL_PATH, RESPOND_PATH } from './booking-paths';
import { endOfUkDay, formatUkDate } from './booking-dates';
import { ownerRequestEmail, requestReceivedEmail } from './booking-emails.server';
import { signLink, type LinkAction } from './booking-links.server';
import { checkRequestIsFree, publicAvailability, requestMayHold } from './availability.server';
import { z } from '~/lib/zod';
import { isIsoDate } from '~/lib/uk-dates';
import { generateReference } from './booking-reference';
import { BookingSchema, type BookingRequest } from './booking-schema';
import { bookingStatusEvents, bookings } from './tables.server';

const DAY_MS = 24 * 60 * 60 * 1000;

const AVAILABILITY_QUERY_REFUSED = 'Please give the first date as YYYY-MM-DD.';
/** The availability's query: an optional first date, nothing else. */
const AvailabilityQuery = z.strictObject({ from: z.string().max(10).refine(isIsoDate).optional() });

function earlier(a: Date, b: Date): Date {
  return a.getTime() <= b.getTime() ? a : b;
}

/** Inserts the booking under a fresh reference, drawing again on the rare collision. */
async function insertBooking(
  tx: Tx,
  submissionId: string,
  data: BookingRequest,
  hold: { holds: boolean; clientKey: string | undefined },
): Promise<{ id: string; reference: string }> {
  const id = randomUUID();
  for (let attempt = 0; attempt < 8; attempt += 1) {
    const reference = generateReference();
    const inserted = await tx
      .insert(bookings)
      .values({
        id,
        submissionId,
        reference,
        sessionType: data.sessionType,
        firstChoiceDate: data.firstChoiceDate,
        firstChoiceTime: data.firstChoiceTime,
        secondChoiceDate: data.secondChoiceDate || null,
        secondChoiceTime: data.secondChoiceTime || null,
        holds: hold.holds,
        clientKey: hold.clientKey ?? null,
      })
      .onConflictDoNothing({ target: bookings.reference })
      .returning({ id: bookings.id });
    if (inserted.length > 0) return { id, reference };
  }
  throw new Error('could not draw a free booking reference');
}

/** The booking a submission made, if it was a booking request (the console's submission page). */
export async function bookingOfSubmission(q: Queryable, submissionId: string): Promise<string | null> {
  const [row] = await q
    .select({ id: bookings.id })
    .from(bookings)
    .where(eq(bookings.submissionId, submissionId));
  return row?.id ?? null;
}

/** A half-day as the console reads it: 'Morning (9am-12pm)'. */
function timeInWords(value: string): string {
  return (SESSION_TIMES as readonly string[]).includes(value)
    ? bookingCopy.step1.timeOption(value as SessionTime)
    : value;
}

export const bookingHandler = defineFormHandler({
  schema: BookingSchema,
  // A person books once or twice, but colleagues behind one office address may each book:
  // room for them and for corrections, while a flood from one client stops quickly.
  rateLimit: { max: 10, windowMs: 15 * 60_000 },
  idempotent: true,
  words: {
    sessionType: (value) => sessionTypeLabels[value as SessionType] ?? value,
    firstChoiceDate: (value) => (isIsoDate(value) ? formatUkDate(value) : value),
    secondChoiceDate: (value) => (isIsoDate(value) ? formatUkDate(value) : value),
    firstChoiceTime: timeInWords,
    secondChoiceTime: timeInWords,
  },
  async accept({
    tx,
    data,
    submissionId,
    receivedAt,
    config,
    links,
    diary,
    releasedByOwner,
    clientKey,
    sendEmail,
  }) {
    // Whether this request may hold its first choice: one hold per address and per client, and
    // a ceiling on all of them (decision 053). Decided first: its lock comes before the days'.
    const holds = await requestMayHold(
      tx,
      { email: data.email, clientKey },
      receivedAt,
      config.bookingHoldsMax,
    );
    // A half-day taken since the page loaded is refused (409, on step 1); else this row holds it.
    if (!releasedByOwner) await checkRequestIsFree(tx, diary, data, receivedAt);
    const { id, reference } = await insertBooking(tx, submissionId, data, { holds, clientKey });
    await tx
      .insert(bookingStatusEvents)
      .values({ bookingId: id, status: 'requested', at: receivedAt, actor: 'applicant' });

    const ownerExpiry = new Date(receivedAt.getTime() + OWNER_LINK_DAYS * DAY_MS);
    const link = async (path: string, action: LinkAction, expiresAt: Date) =>
      linkUrl(links, path, (await signLink(links.tokens, { bookingId: id, action, expiresAt })).token);
    const view = { id, reference, details: data };
    const [cancelUrl, confirmFirstUrl, confirmSecondUrl, declineUrl] = await Promise.all([
      link(CANCEL_PATH, 'cancel', endOfUkDay(lastPossibleDay(data))),
      link(RESPOND_PATH, 'confirm-first', earlier(ownerExpiry, endOfUkDay(data.firstChoiceDate))),
      data.secondChoiceDate
        ? link(RESPOND_PATH, 'confirm-second', earlier(ownerExpiry, endOfUkDay(data.secondChoiceDate)))
        : undefined,
      link(RESPOND_PATH, 'decline', ownerExpiry),
    ]);

    sendEmail(
      requestReceivedEmail(view, { to: data.email, replyTo: config.ownerEmail, cancelUrl }),
      ownerRequestEmail(view, {
        to: config.ownerEmail,
        confirmFirstUrl,
        confirmSecondUrl,
        declineUrl,
      }),
    );
    return { reference };
  },
  // A trapped bot gets an answer that looks like a real one.
  spamResponse: () => ({ reference: generateReference() }),
  routes: (app, ctx) => bookingRoutes(app, ctx),
});

/**
 * POST /api/bookings/link      {token}          what the link is for, or why it is refused
 * POST /api/bookings/link/act  {token, start?, date?, time?}  does it (single use; a reschedule
 *                                                link's date and half-day, decision 039)
 * POST, so a mail scanner that follows the page link changes nothing.
 * GET  /api/bookings/availability                which half-days the wizard offers (decision 036)
 */
export function bookingRoutes(
  app: FastifyInstance,
  ctx: ServerContext,
  clock: BookingClock = () => new Date(),
) {
  const guards = { onRequest: [sameOriginOnly(ctx.config), jsonOnly] };
  const tokenOf = (body: unknown) =>
    typeof body === 'object' && body !== null ? (body as Record<string, unknown>).token : undefined;

  // Free or not, AVAILABILITY_PAGE_DAYS from `from` (today by default): the same answer for every
  // visitor, never a reason in detail. Not cached: a half-day taken a moment ago is shown taken.
  app.get('/api/bookings/availability', async (request, reply) => {
    const query = AvailabilityQuery.safeParse(request.query ?? {});
    if (!query.success) throw new Refusal(400, { error: AVAILABILITY_QUERY_REFUSED });
    reply.header('cache-control', 'no-store');
    return send(reply, 200, await publicAvailability(ctx.db, ctx.diary, clock(), query.data.from));
  });

  // A refused link throws a LinkRefusal: the API's error handler answers it {error, reason}.
  app.post('/api/bookings/link', guards, async (request, reply) => {
    return send(reply, 200, await inspectLink(ctx, tokenOf(request.body), clock()));
  });

  app.post('/api/bookings/link/act', guards, async (request, reply) => {
    const body = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as Record<
      string,
      unknown
    >;
    const result = await performLink(
      ctx,
      body.token,
      { start: body.start, date: body.date, time: body.time, meetingLink: body.meetingLink },
      clock(),
    );
    ctx.wakeOutbox();
    request.log.info({ bookingId: result.bookingId, status: result.status }, 'booking status changed');
    return send(reply, 200, result.answer);
  });
}

/** The booking's status history, oldest first (tests, support). */
export async function statusHistory(db: ServerContext['db'], bookingId: string) {
  return db
    .select({
      status: bookingStatusEvents.status,
      at: bookingStatusEvents.at,
      actor: bookingStatusEvents.actor,
    })
    .from(bookingStatusEvents)
    .where(and(eq(bookingStatusEvents.bookingId, bookingId)))
    .orderBy(bookingStatusEvents.at, bookingStatusEvents.id);
}
