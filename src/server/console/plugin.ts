/**
 * The owner's console API, `/api/owner/...` (contract: src/console/api.ts). Every request is
 * same-origin only (Origin checked as the forms do); every state change is a JSON POST; every
 * answer is `no-store` (the app's API headers). Sign-in routes are open; everything else needs
 * a live session and answers 401 without one. Every owner action is written to the audit log.
 * Logs carry record ids and counts, never an address or a visitor's words.
 */
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { TOO_MANY_ATTEMPTS } from '~/content/forms';
import { OWNER_API, type SessionInfo } from '~/contract/console';
import {
  performOwnerAction,
  rescheduleBooking,
  RESCHEDULE_START_TIMES,
} from '~/features/booking/booking-actions.server';
import { addMinutesToClock, formatClock } from '~/features/booking/booking-dates';
import { SESSION_MINUTES } from '~/content/booking';
import type { Config } from '../kit/config';
import type { Db } from '../kit/db/client';
import type { FormHandler } from '../kit/http/form-handler';
import type { Links } from '../kit/http/links';
import { jsonOnly, Refusal, sameOriginOnly, send } from '../kit/http/request-checks';
import { enqueueEmails } from '../kit/mail/outbox';
import { audit, auditPage } from './audit';
import { bookingList, readBookingView } from './bookings';
import { deliveryFilter, deliverySummaries, retryDelivery } from './deliveries';
import {
  deleteSpam,
  inboxPage,
  markAsSpam,
  readInboxQuery,
  releaseSubmission,
  submissionDetail,
} from './inbox';
import { configWarnings, overview } from './overview';
import {
  confirmedSubscribers,
  csvStream,
  SUBMISSION_HEADERS,
  SUBSCRIBER_HEADERS,
  submissionRows,
} from './exports';
import { erasePerson, findPerson, personView, subjectAccessJson } from './people';
import { retentionHistory, retentionRules, type RetentionRunner } from './retention';
import type { PersonalDataRegistry } from '../kit/personal-data';
import {
  ATTENDEE_HEADERS,
  attendeeRows,
  cancelEvent,
  createEvent,
  eventDetail,
  eventExists,
  eventList,
  messageEventAttendees,
  publishEvent,
  updateEvent,
} from './events';
import { subscriberPage, suppressionPage } from './subscribers';
import {
  authenticate,
  authenticationOptions,
  listPasskeys,
  registerPasskey,
  registrationOptions,
  removePasskey,
} from './passkeys';
import {
  clearCookie,
  currentSession,
  endAllSessions,
  endSession,
  startSession,
  type OwnerSession,
} from './sessions';
import {
  maySignIn,
  SIGN_IN_PURPOSE,
  SIGN_IN_SENT,
  signInEmail,
  signInLink,
  verifySignInToken,
  LINK_USED,
} from './sign-in';

/** What the console needs of the rate limiter the forms use (memory, or Redis across instances). */
export type ConsoleLimiter = {
  hit(key: string, max: number, windowMs: number): Promise<{ allowed: boolean; retryAfterMs: number }>;
};

export type ConsoleOptions = {
  config: Config;
  db: Db;
  links: Links;
  limiter: ConsoleLimiter;
  handlers: Readonly<Record<string, FormHandler>>;
  /** The client's rate-limit key (a keyed hash of its address or IPv6 /64). */
  clientKey(request: FastifyRequest): string;
  wakeOutbox(): void;
  /** The time; tests move it. */
  clock?: () => Date;
  /** Every kind of personal data, as its feature declares it (the composition root's registry). */
  personalData: PersonalDataRegistry;
  /** The process's one retention run at a time (shared with the daily job). */
  retentionRuns: RetentionRunner;
};

/** Sign-in requests: per client, and per owner address whoever asks (no flood of an owner's inbox). */
export const SIGN_IN_LIMITS = {
  perClient: { max: 5, windowMs: 15 * 60_000 },
  perAddress: { max: 5, windowMs: 60 * 60_000 },
  /** Link and passkey answers: guesses cost a token each, but a loop is still cut short. */
  attempts: { max: 20, windowMs: 15 * 60_000 },
};

declare module 'fastify' {
  interface FastifyRequest {
    owner?: OwnerSession;
  }
}

type Body = Record<string, unknown>;
const bodyOf = (request: FastifyRequest): Body =>
  typeof request.body === 'object' && request.body !== null && !Array.isArray(request.body)
    ? (request.body as Body)
    : {};

export const UNAUTHORISED = 'Please sign in to the console.';

export async function consoleApi(app: FastifyInstance, options: ConsoleOptions) {
  const { config, db, links, limiter, handlers, wakeOutbox, retentionRuns } = options;
  const clock = options.clock ?? (() => new Date());
  const sameOrigin = sameOriginOnly(config);

  async function limit(
    request: FastifyRequest,
    name: string,
    rule: { max: number; windowMs: number },
    key?: string,
  ) {
    const result = await limiter.hit(
      `owner-${name}:${key ?? options.clientKey(request)}`,
      rule.max,
      rule.windowMs,
    );
    if (!result.allowed) {
      const retryAfter = String(Math.max(1, Math.ceil(result.retryAfterMs / 1000)));
      throw new Refusal(429, { error: TOO_MANY_ATTEMPTS }, { 'retry-after': retryAfter });
    }
    return result.allowed;
  }

  // Every console request: same origin (a GET too: nothing of the console is for another site).
  app.addHook('onRequest', sameOrigin);

  // --- Signing in (no session needed) -----------------------------------------------------------
  await app.register(async (open) => {
    open.addHook('onRequest', jsonOnly);

    open.post(`${OWNER_API}/sign-in`, async (request, reply) => {
      await limit(request, 'sign-in', SIGN_IN_LIMITS.perClient);
      const email = bodyOf(request).email;
      if (
        typeof email !== 'string' ||
        email.length > 254 ||
        !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim())
      ) {
        throw new Refusal(400, {
          error: 'Please enter a valid email address.',
          fieldErrors: { email: 'Please enter a valid email address.' },
        });
      }
      const address = email.trim().toLowerCase();
      if (maySignIn(config, address)) {
        // Past the per-address limit nothing more is sent, and the answer stays the same.
        const { allowed } = await limiter.hit(
          `owner-sign-in-to:${links.hashAddress(address)}`,
          SIGN_IN_LIMITS.perAddress.max,
          SIGN_IN_LIMITS.perAddress.windowMs,
        );
        if (allowed) {
          const url = await signInLink(config, links, address, clock());
          await db.transaction(async (tx) => {
            await enqueueEmails(tx, null, [signInEmail(address, url)]);
            await audit(tx, address, 'sign-in.link-sent');
          });
          wakeOutbox();
        }
      }
      return send(reply, 202, { message: SIGN_IN_SENT });
    });

    open.post(`${OWNER_API}/sign-in/link`, async (request, reply) => {
      await limit(request, 'attempt', SIGN_IN_LIMITS.attempts);
      const now = clock();
      const { email, verified } = await verifySignInToken(config, links, bodyOf(request).token, now);
      const session = await db.transaction(async (tx) => {
        if (!(await links.tokens.consume(tx, SIGN_IN_PURPOSE, verified)))
          throw new Refusal(409, { error: LINK_USED });
        await audit(tx, email, 'sign-in.link');
        return startSession(tx, config, reply, email, 'link', now);
      });
      request.log.info({ session: session.id.slice(0, 8) }, 'owner signed in');
      return send(reply, 200, { email });
    });

    open.post(`${OWNER_API}/passkeys/authenticate/options`, async (request, reply) => {
      await limit(request, 'attempt', SIGN_IN_LIMITS.attempts);
      return send(reply, 200, await authenticationOptions(db, config, clock()));
    });

    open.post(`${OWNER_API}/passkeys/authenticate`, async (request, reply) => {
      await limit(request, 'attempt', SIGN_IN_LIMITS.attempts);
      const now = clock();
      const email = await authenticate(db, config, bodyOf(request), now);
      await audit(db, email, 'sign-in.passkey');
      await startSession(db, config, reply, email, 'passkey', now);
      return send(reply, 200, { email });
    });
  });

  // --- Everything else: a live session ---------------------------------------------------------
  await app.register(async (owned) => {
    owned.addHook('onRequest', async (request, reply) => {
      if (request.method === 'POST') {
        const refused = await jsonOnly(request, reply);
        if (reply.sent) return refused;
      }
      const session = await currentSession(db, config, request, clock());
      if (!session) return send(reply, 401, { error: UNAUTHORISED });
      request.owner = session;
    });
    const who = (request: FastifyRequest) => request.owner!.email;
    const param = (request: FastifyRequest, name: string) =>
      String((request.params as Record<string, string>)[name] ?? '');

    owned.get(`${OWNER_API}/session`, async (request, reply) => {
      const passkeys = await listPasskeys(db, who(request));
      const info: SessionInfo = {
        email: who(request),
        configWarnings: configWarnings(config),
        passkeys: passkeys.length,
      };
      return send(reply, 200, info);
    });

    owned.post(`${OWNER_API}/sign-out`, async (request, reply) => {
      await endSession(db, request.owner!.id, clock());
      await audit(db, who(request), 'sign-out');
      clearCookie(config, reply);
      return send(reply, 200, { ok: true });
    });

    owned.post(`${OWNER_API}/sign-out-everywhere`, async (request, reply) => {
      const ended = await endAllSessions(db, who(request), clock());
      await audit(db, who(request), 'sign-out.everywhere', undefined, { ended });
      clearCookie(config, reply);
      return send(reply, 200, { ok: true, ended });
    });

    // Passkeys of the signed-in owner.
    owned.get(`${OWNER_API}/passkeys`, async (request, reply) =>
      send(reply, 200, { passkeys: await listPasskeys(db, who(request)) }),
    );
    owned.post(`${OWNER_API}/passkeys/register/options`, async (request, reply) =>
      send(reply, 200, await registrationOptions(db, config, who(request), clock())),
    );
    owned.post(`${OWNER_API}/passkeys/register`, async (request, reply) => {
      const passkey = await registerPasskey(db, config, who(request), bodyOf(request), clock());
      await audit(db, who(request), 'passkey.register', passkey.id.slice(0, 16));
      return send(reply, 200, passkey);
    });
    owned.post(`${OWNER_API}/passkeys/:id/delete`, async (request, reply) => {
      const id = param(request, 'id');
      if (!(await removePasskey(db, who(request), id)))
        throw new Refusal(404, { error: 'There is no such passkey.' });
      await audit(db, who(request), 'passkey.remove', id.slice(0, 16));
      return send(reply, 200, { ok: true });
    });

    owned.get(`${OWNER_API}/overview`, async (_request, reply) =>
      send(reply, 200, await overview(db, config)),
    );

    // Inbox and spam.
    owned.get(`${OWNER_API}/submissions`, async (request, reply) =>
      send(reply, 200, await inboxPage(db, readInboxQuery(request.query as Record<string, unknown>))),
    );
    owned.get(`${OWNER_API}/submissions/:id`, async (request, reply) =>
      send(reply, 200, await submissionDetail(db, param(request, 'id'))),
    );
    owned.post(`${OWNER_API}/submissions/:id/release`, async (request, reply) => {
      const id = param(request, 'id');
      const emails = await releaseSubmission({ db, config, links, handlers }, id, clock());
      await audit(db, who(request), 'submission.release', id, { emails });
      if (emails > 0) wakeOutbox();
      request.log.info({ submissionId: id, emails }, 'submission released from spam');
      return send(reply, 200, { ok: true, emails });
    });
    owned.post(`${OWNER_API}/submissions/:id/delete`, async (request, reply) => {
      const id = param(request, 'id');
      await deleteSpam(db, id);
      await audit(db, who(request), 'submission.delete', id);
      return send(reply, 200, { ok: true });
    });
    owned.post(`${OWNER_API}/submissions/:id/mark-spam`, async (request, reply) => {
      const id = param(request, 'id');
      await markAsSpam(db, id);
      await audit(db, who(request), 'submission.mark-spam', id);
      return send(reply, 200, { ok: true });
    });

    // Bookings.
    owned.get(`${OWNER_API}/bookings`, async (request, reply) =>
      send(reply, 200, await bookingList(db, readBookingView((request.query as Body).view), clock())),
    );
    owned.get(`${OWNER_API}/bookings/reschedule-options`, async (_request, reply) =>
      send(reply, 200, {
        startTimes: RESCHEDULE_START_TIMES.map((value) => ({
          value,
          label: `${formatClock(value)}-${formatClock(addMinutesToClock(value, SESSION_MINUTES))}`,
        })),
      }),
    );
    const ctx = { config, db, links };
    const acted = async (
      request: FastifyRequest,
      reply: FastifyReply,
      action: 'booking.confirm' | 'booking.decline' | 'booking.cancel' | 'booking.reschedule',
      result: { bookingId: string; reference: string; answer: { status: string; message: string } },
    ) => {
      await audit(db, who(request), action, result.reference);
      wakeOutbox();
      request.log.info(
        { bookingId: result.bookingId, status: result.answer.status },
        'booking changed in the console',
      );
      return send(reply, 200, result.answer);
    };
    owned.post(`${OWNER_API}/bookings/:id/confirm`, async (request, reply) => {
      const body = bodyOf(request);
      if (body.choice !== 1 && body.choice !== 2)
        throw new Refusal(400, { error: 'Please choose the first or the second choice.' });
      const action = body.choice === 1 ? 'confirm-first' : 'confirm-second';
      const result = await performOwnerAction(
        ctx,
        param(request, 'id'),
        action,
        { start: body.start },
        clock(),
      );
      return acted(request, reply, 'booking.confirm', result);
    });
    owned.post(`${OWNER_API}/bookings/:id/decline`, async (request, reply) =>
      acted(
        request,
        reply,
        'booking.decline',
        await performOwnerAction(ctx, param(request, 'id'), 'decline', {}, clock()),
      ),
    );
    owned.post(`${OWNER_API}/bookings/:id/cancel`, async (request, reply) =>
      acted(
        request,
        reply,
        'booking.cancel',
        await performOwnerAction(ctx, param(request, 'id'), 'cancel', {}, clock()),
      ),
    );
    owned.post(`${OWNER_API}/bookings/:id/reschedule`, async (request, reply) => {
      const body = bodyOf(request);
      const result = await rescheduleBooking(
        ctx,
        param(request, 'id'),
        { date: body.date, start: body.start },
        clock(),
      );
      return acted(request, reply, 'booking.reschedule', result);
    });

    // Deliveries.
    owned.get(`${OWNER_API}/deliveries`, async (request, reply) =>
      send(reply, 200, {
        items: await deliverySummaries(db, deliveryFilter((request.query as Body).status, clock())),
      }),
    );
    owned.post(`${OWNER_API}/deliveries/:id/retry`, async (request, reply) => {
      const id = Number(param(request, 'id'));
      if (!Number.isSafeInteger(id) || id <= 0) throw new Refusal(404, { error: 'There is no such e-mail.' });
      await retryDelivery(db, id);
      await audit(db, who(request), 'delivery.retry', id);
      wakeOutbox();
      return send(reply, 200, { ok: true });
    });

    // Personal data: subscribers, suppressions, exports, people, retention.
    const mailDir = join(config.dataDir, 'mail');
    owned.get(`${OWNER_API}/subscribers`, async (request, reply) => {
      const query = request.query as Body;
      return send(reply, 200, await subscriberPage(db, query.status, query.after));
    });
    owned.get(`${OWNER_API}/suppressions`, async (request, reply) =>
      send(reply, 200, await suppressionPage(db, (request.query as Body).after)),
    );
    const download = (reply: FastifyReply, name: string, type: string) =>
      reply
        .header('content-type', type)
        .header('content-disposition', `attachment; filename="${name}"`)
        .header('x-content-type-options', 'nosniff');
    owned.get(`${OWNER_API}/exports/submissions.csv`, async (request, reply) => {
      const query = readInboxQuery({ ...(request.query as Record<string, unknown>), after: undefined });
      await audit(db, who(request), 'export.submissions', query.form ?? 'all', {
        status: query.status,
        search: Boolean(query.q),
      });
      const day = clock().toISOString().slice(0, 10);
      return download(reply, `submissions-${day}.csv`, 'text/csv; charset=utf-8').send(
        csvStream(SUBMISSION_HEADERS, submissionRows(db, query)),
      );
    });
    owned.get(`${OWNER_API}/exports/subscribers.csv`, async (request, reply) => {
      await audit(db, who(request), 'export.subscribers');
      const day = clock().toISOString().slice(0, 10);
      return download(reply, `subscribers-${day}.csv`, 'text/csv; charset=utf-8').send(
        csvStream(SUBSCRIBER_HEADERS, confirmedSubscribers(db)),
      );
    });
    const people = { registry: options.personalData, secret: config.appSecret, mailDir };
    owned.get(`${OWNER_API}/people`, async (request, reply) => {
      const person = await findPerson(db, people, (request.query as Body).email);
      return send(reply, 200, personView(people, person));
    });
    owned.get(`${OWNER_API}/people/export.json`, async (request, reply) => {
      const person = await findPerson(db, people, (request.query as Body).email);
      await audit(db, who(request), 'person.export', undefined, {
        submissions: person.rows.get('submissions')?.length ?? 0,
      });
      return download(
        reply,
        `subject-access-${clock().toISOString().slice(0, 10)}.json`,
        'application/json; charset=utf-8',
      ).send(subjectAccessJson(people, person, clock()));
    });
    owned.post(`${OWNER_API}/people/erase`, async (request, reply) => {
      const answer = await erasePerson(
        db,
        people,
        bodyOf(request).email,
        { config, links, now: clock() },
        (tx, counts) => audit(tx, who(request), 'person.erase', undefined, counts),
      );
      if ((answer.counts.promoted ?? 0) > 0) wakeOutbox();
      request.log.info({ ...answer.counts }, 'person erased');
      return send(reply, 200, answer);
    });
    owned.get(`${OWNER_API}/retention`, async (_request, reply) => {
      const history = await retentionHistory(db);
      return send(reply, 200, {
        ...retentionRules(options.personalData),
        runs: history.runs,
        // This instance's run, or one another instance is running.
        running: retentionRuns.current() ?? history.running,
      });
    });
    // Starts a run and answers at once: over a million rows a run takes minutes. The page follows
    // it through GET /retention. Pressed again while it runs, here or in another instance, the
    // run under way is answered (the runner joins it).
    owned.post(`${OWNER_API}/retention/run`, async (request, reply) => {
      const { runId, started } = await retentionRuns.start(clock());
      if (started) await audit(db, who(request), 'retention.run', String(runId));
      return send(reply, 202, { ok: true, runId, started });
    });

    // Masterclasses.
    const eventsCtx = { config, links };
    const eventChanged = async (
      request: FastifyRequest,
      reply: FastifyReply,
      action: 'event.create' | 'event.update' | 'event.publish' | 'event.cancel',
      result: { event: { id: string }; notified: number },
    ) => {
      await audit(db, who(request), action, result.event.id, { notified: result.notified });
      if (result.notified > 0 || action === 'event.update') wakeOutbox();
      request.log.info(
        { eventId: result.event.id, notified: result.notified },
        'event changed in the console',
      );
      return send(reply, 200, action === 'event.create' ? result.event : result);
    };
    owned.get(`${OWNER_API}/events`, async (_request, reply) =>
      send(reply, 200, await eventList(db, clock())),
    );
    owned.get(`${OWNER_API}/events/:id`, async (request, reply) =>
      send(reply, 200, await eventDetail(db, param(request, 'id'), clock())),
    );
    owned.post(`${OWNER_API}/events`, async (request, reply) =>
      eventChanged(request, reply, 'event.create', {
        event: await createEvent(db, bodyOf(request), clock()),
        notified: 0,
      }),
    );
    owned.post(`${OWNER_API}/events/:id`, async (request, reply) =>
      eventChanged(
        request,
        reply,
        'event.update',
        await updateEvent(db, eventsCtx, param(request, 'id'), bodyOf(request), clock()),
      ),
    );
    owned.post(`${OWNER_API}/events/:id/publish`, async (request, reply) =>
      eventChanged(request, reply, 'event.publish', await publishEvent(db, param(request, 'id'), clock())),
    );
    owned.post(`${OWNER_API}/events/:id/cancel`, async (request, reply) =>
      eventChanged(
        request,
        reply,
        'event.cancel',
        await cancelEvent(db, eventsCtx, param(request, 'id'), clock()),
      ),
    );
    owned.post(`${OWNER_API}/events/:id/message`, async (request, reply) => {
      const id = param(request, 'id');
      const emails = await messageEventAttendees(db, eventsCtx, id, bodyOf(request), clock());
      await audit(db, who(request), 'event.message', id, { emails });
      if (emails > 0) wakeOutbox();
      return send(reply, 200, { ok: true, emails });
    });
    owned.get(`${OWNER_API}/exports/events/:id/attendees.csv`, async (request, reply) => {
      const event = await eventExists(db, param(request, 'id'));
      await audit(db, who(request), 'export.attendees', event.id);
      const day = event.startsAt.toISOString().slice(0, 10);
      return download(reply, `attendees-${day}.csv`, 'text/csv; charset=utf-8').send(
        csvStream(ATTENDEE_HEADERS, attendeeRows(db, event.id)),
      );
    });

    owned.get(`${OWNER_API}/audit`, async (request, reply) => {
      const after = (request.query as Body).after;
      const id = typeof after === 'string' && /^\d{1,18}$/.test(after) ? Number(after) : undefined;
      return send(reply, 200, await auditPage(db, id));
    });
  });
}
