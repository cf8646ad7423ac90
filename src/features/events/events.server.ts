/**
 * Masterclasses on the server. `registrationHandler` is the pipeline's form handler for
 * `formType: 'masterclass'`: in the submission's own transaction it takes a place or a waitlist
 * entry (events-actions.server.ts) and queues the e-mails. Its routes answer the Resources page
 * (the next event, its public calendar file) and the cancel link in the e-mails. No answer here
 * ever carries an online event's joining link.
 */
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { masterclassConsentVersions } from '~/content/consents';
import { masterclassPath } from '~/content/routes';
import { site } from '~/content/site';
import { UUID_PATTERN } from '~/lib/patterns';
import { defineFormHandler, type ServerContext } from '~/server/kit/http/form-handler';
import { jsonOnly, Refusal, sameOriginOnly, send } from '~/server/kit/http/request-checks';
import { buildEventIcs } from './event-ics';
import { nextEvent, publicEvent } from './events-public.server';
import {
  EVENTS_API,
  NEXT_EVENT_API,
  REGISTRATION_CANCEL_API,
  REGISTRATION_LINK_API,
  type NextEventAnswer,
  type RegistrationCancelAnswer,
  type RegistrationLinkView,
} from './events-api';
import {
  cancelByLink,
  placeEmails,
  register,
  registrationOfLink,
  waitlistEmails,
} from './events-actions.server';
import { eventUid, ownerRegistrationEmail, whereText } from './events-emails.server';
import { RegistrationSchema } from './events-schema';
import { events } from './tables.server';

export type EventsClock = () => Date;

export const registrationHandler = defineFormHandler({
  schema: RegistrationSchema,
  // One person registers once; colleagues behind one office address may each register.
  rateLimit: { max: 10, windowMs: 15 * 60_000 },
  consent: (data) => masterclassConsentVersions[data.consentVersion],
  async accept({ tx, data, submissionId, receivedAt, config, links, sendEmail }) {
    const ctx = { config, links };
    const { person, event, placesLeft, repeat } = await register(
      tx,
      ctx,
      {
        eventId: data.eventId,
        submissionId,
        firstName: data.firstName,
        email: data.email,
        company: data.company,
      },
      receivedAt,
    );
    if (!repeat) {
      sendEmail(
        ...(person.status === 'registered'
          ? await placeEmails(ctx, event, person, receivedAt)
          : await waitlistEmails(ctx, event, person, receivedAt)),
        ownerRegistrationEmail(event, person, config.ownerEmail, placesLeft),
      );
    }
    return { status: person.status };
  },
  // A trapped bot gets an answer that looks like a real one.
  spamResponse: () => ({ status: 'registered' }),
  routes: (app, ctx) => eventRoutes(app, ctx),
});

/**
 * GET  /api/events/next                     the Resources page's card
 * GET  /api/events/:id                      one masterclass's own page (places left, registration)
 * GET  /api/events/:id/calendar.ics         the public '+ Calendar' file (PUBLISH)
 * POST /api/events/registration        {token}  what a cancel link is about
 * POST /api/events/registration/cancel {token}  cancels (POST: a mail scanner following the link changes nothing)
 */
export function eventRoutes(app: FastifyInstance, ctx: ServerContext, clock: EventsClock = () => new Date()) {
  const guards = { onRequest: [sameOriginOnly(ctx.config), jsonOnly] };
  const tokenOf = (body: unknown) =>
    typeof body === 'object' && body !== null ? (body as Record<string, unknown>).token : undefined;

  app.get(NEXT_EVENT_API, async (_request, reply) => {
    const answer: NextEventAnswer = { event: await nextEvent(ctx.db, clock()) };
    // Always asked again (a change in the console shows at once), but cheap to revalidate.
    reply.header('cache-control', 'no-cache');
    return send(reply, 200, answer);
  });

  // One masterclass's live state (places left, registration open), for its own page (decision 047).
  app.get(`${EVENTS_API}/:id`, async (request, reply) => {
    const id = String((request.params as Record<string, string>).id ?? '');
    const event = UUID_PATTERN.test(id) ? await publicEvent(ctx.db, id, clock()) : null;
    if (!event) throw new Refusal(404, { error: 'There is no such masterclass.' });
    const answer: NextEventAnswer = { event };
    reply.header('cache-control', 'no-cache');
    return send(reply, 200, answer);
  });

  app.get(`${EVENTS_API}/:id/calendar.ics`, async (request, reply) => {
    const id = String((request.params as Record<string, string>).id ?? '');
    const [event] = UUID_PATTERN.test(id) ? await ctx.db.select().from(events).where(eq(events.id, id)) : [];
    const now = clock();
    if (!event || event.status !== 'published' || now.getTime() >= event.endsAt.getTime()) {
      throw new Refusal(404, { error: 'There is no such upcoming masterclass.' });
    }
    const ics = buildEventIcs({
      method: 'PUBLISH',
      uid: eventUid(event.id, ctx.config.publicUrl),
      sequence: event.calendarSequence,
      startsAt: event.startsAt,
      endsAt: event.endsAt,
      summary: event.title,
      // Its own page (decision 047): details, places left and registration.
      description: `${event.summary}\n\nDetails and registration: ${ctx.links.absolute(masterclassPath(event.slug))}`,
      location: event.mode === 'online' ? 'Online' : whereText(event),
      url: ctx.links.absolute(masterclassPath(event.slug)),
      organizer: { name: site.brand, email: ctx.config.mailFrom },
      stamp: event.updatedAt,
      productId: `-//${site.brand}//Masterclass//EN`,
    });
    return reply
      .header('content-type', 'text/calendar; charset=utf-8')
      .header(
        'content-disposition',
        `attachment; filename="masterclass-${event.startsAt.toISOString().slice(0, 10)}.ics"`,
      )
      .header('cache-control', 'no-cache')
      .send(ics);
  });

  app.post(REGISTRATION_LINK_API, guards, async (request, reply) => {
    const { reg, event } = await registrationOfLink(ctx.db, ctx.links, tokenOf(request.body), clock());
    const view: RegistrationLinkView = {
      title: event.title,
      startsAt: event.startsAt.toISOString(),
      endsAt: event.endsAt.toISOString(),
      status: reg.status,
      eventCancelled: event.status === 'cancelled',
    };
    return send(reply, 200, view);
  });

  app.post(REGISTRATION_CANCEL_API, guards, async (request, reply) => {
    const { registrationId, was, promoted, queued } = await cancelByLink(
      ctx.db,
      { config: ctx.config, links: ctx.links },
      tokenOf(request.body),
      clock(),
    );
    if (promoted + queued > 0) ctx.wakeOutbox();
    request.log.info({ registrationId, promoted }, 'masterclass registration cancelled');
    const answer: RegistrationCancelAnswer = {
      status: 'cancelled',
      message:
        was === 'waitlisted'
          ? 'You have left the waitlist. Thank you for letting us know.'
          : promoted > 0
            ? 'Your registration is cancelled. Thank you for letting us know: your place has gone to the next person waiting.'
            : 'Your registration is cancelled. Thank you for letting us know.',
    };
    return send(reply, 200, answer);
  });
}
