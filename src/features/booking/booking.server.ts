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
import type { FastifyInstance, FastifyReply } from 'fastify';
import { OWNER_LINK_DAYS } from '~/content/booking';
import { defineFormHandler, type ServerContext } from '~/server/kit/http/form-handler';
import { jsonOnly, sameOriginOnly } from '~/server/kit/http/request-checks';
import type { Tx } from '~/server/kit/db/client';
import {
  LinkRefusal,
  inspectLink,
  lastPossibleDay,
  linkUrl,
  performLink,
  type BookingClock,
} from './booking-actions.server';
import { CANCEL_PATH, RESPOND_PATH } from './booking-paths';
import { endOfUkDay } from './booking-dates';
import { ownerRequestEmail, requestReceivedEmail } from './booking-emails.server';
import { signLink, type LinkAction } from './booking-links.server';
import { generateReference } from './booking-reference';
import { BookingSchema, type BookingRequest } from './booking-schema';
import { bookingStatusEvents, bookings } from './tables.server';

const DAY_MS = 24 * 60 * 60 * 1000;

function earlier(a: Date, b: Date): Date {
  return a.getTime() <= b.getTime() ? a : b;
}

/** Inserts the booking under a fresh reference, drawing again on the rare collision. */
async function insertBooking(
  tx: Tx,
  submissionId: string,
  data: BookingRequest,
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
      })
      .onConflictDoNothing({ target: bookings.reference })
      .returning({ id: bookings.id });
    if (inserted.length > 0) return { id, reference };
  }
  throw new Error('could not draw a free booking reference');
}

export const bookingHandler = defineFormHandler({
  schema: BookingSchema,
  // A person books once or twice, but colleagues behind one office address may each book:
  // room for them and for corrections, while a flood from one client stops quickly.
  rateLimit: { max: 10, windowMs: 15 * 60_000 },
  idempotent: true,
  async accept({ tx, data, submissionId, receivedAt, config, links, sendEmail }) {
    const { id, reference } = await insertBooking(tx, submissionId, data);
    await tx
      .insert(bookingStatusEvents)
      .values({ bookingId: id, status: 'requested', at: receivedAt, actor: 'applicant' });

    const ownerExpiry = new Date(receivedAt.getTime() + OWNER_LINK_DAYS * DAY_MS);
    const sign = (action: LinkAction, expiresAt: Date) =>
      signLink(config.appSecret, { bookingId: id, action, expiresAt }).token;
    const view = { id, reference, details: data };

    sendEmail(
      requestReceivedEmail(view, {
        to: data.email,
        replyTo: config.ownerEmail,
        cancelUrl: linkUrl(links, CANCEL_PATH, sign('cancel', endOfUkDay(lastPossibleDay(data)))),
      }),
      ownerRequestEmail(view, {
        to: config.ownerEmail,
        confirmFirstUrl: linkUrl(
          links,
          RESPOND_PATH,
          sign('confirm-first', earlier(ownerExpiry, endOfUkDay(data.firstChoiceDate))),
        ),
        confirmSecondUrl: data.secondChoiceDate
          ? linkUrl(
              links,
              RESPOND_PATH,
              sign('confirm-second', earlier(ownerExpiry, endOfUkDay(data.secondChoiceDate))),
            )
          : undefined,
        declineUrl: linkUrl(links, RESPOND_PATH, sign('decline', ownerExpiry)),
      }),
    );
    return { reference };
  },
  // A trapped bot gets an answer that looks like a real one.
  spamResponse: () => ({ reference: generateReference() }),
  routes: (app, ctx) => bookingRoutes(app, ctx),
});

function sendJson(reply: FastifyReply, status: number, payload: object) {
  return reply.code(status).header('content-type', 'application/json; charset=utf-8').send(payload);
}

function refusal(reply: FastifyReply, error: LinkRefusal) {
  return sendJson(reply, error.status, { error: error.message, reason: error.reason });
}

/**
 * POST /api/bookings/link      {token}          what the link is for, or why it is refused
 * POST /api/bookings/link/act  {token, start?}  does it (single use)
 * POST, so a mail scanner that follows the page link changes nothing.
 */
export function bookingRoutes(
  app: FastifyInstance,
  ctx: ServerContext,
  clock: BookingClock = () => new Date(),
) {
  const guards = { onRequest: [sameOriginOnly(ctx.config), jsonOnly] };
  const tokenOf = (body: unknown) =>
    typeof body === 'object' && body !== null ? (body as Record<string, unknown>).token : undefined;

  app.post('/api/bookings/link', guards, async (request, reply) => {
    try {
      return sendJson(reply, 200, await inspectLink(ctx, tokenOf(request.body), clock()));
    } catch (error) {
      if (error instanceof LinkRefusal) return refusal(reply, error);
      throw error;
    }
  });

  app.post('/api/bookings/link/act', guards, async (request, reply) => {
    const body = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as Record<
      string,
      unknown
    >;
    try {
      const result = await performLink(ctx, body.token, { start: body.start }, clock());
      ctx.wakeOutbox();
      request.log.info({ bookingId: result.bookingId, status: result.status }, 'booking status changed');
      return sendJson(reply, 200, result.answer);
    } catch (error) {
      if (error instanceof LinkRefusal) return refusal(reply, error);
      throw error;
    }
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
