/**
 * The masterclasses in the owner's console (routes: events-console-contract.ts): the owner
 * creates, edits, publishes and cancels events, sees the attendees and the waitlist, exports them
 * and writes to every attendee. What a change means for the attendees (updated invitations,
 * cancellations, reminders queued anew, places given from the waitlist) is in
 * events-actions.server.ts: the same code whoever causes it. Each action runs on the event's row,
 * locked, in one transaction, which its optional `write` joins (the owner's audit row).
 */
import { randomUUID } from 'node:crypto';
import { eventSlug } from './event-slug';
import { raisePublicationVersion } from '~/server/kit/publication';
import type { FastifyRequest } from 'fastify';
import { desc, eq, sql } from 'drizzle-orm';
import { audit } from '~/server/kit/audit';
import type { Db, Queryable, Tx } from '~/server/kit/db/client';
import { rowsOf } from '~/server/kit/db/rows';
import { CSV_TYPE, csvStream } from '~/server/kit/http/csv';
import type { ConsoleArea, OwnerIdentity } from '~/server/kit/http/owner-routes';
import { Refusal } from '~/server/kit/http/request-checks';
import type { EventValues } from './event-input-schema';
import { ukLocalInput } from './event-times';
import {
  afterEventCancelled,
  afterEventChange,
  attendeeVisibleChange,
  countRegistered,
  lockEvent,
  messageAttendees,
  promoteFromWaitlist,
  registrantsOf,
  type EventsContext,
} from './events-actions.server';
import {
  eventsRoutes,
  type Attendee,
  type EventChangeAnswer,
  type EventDetail,
  type EventList,
  type EventStatus,
  type EventSummary,
} from './events-console-contract';
import type { EventRow } from './events-emails.server';
import { eventRegistrations, events } from './tables.server';

const NOT_FOUND = 'There is no such event.';

/** Runs inside an action's transaction, after it: the owner's audit row. */
type Write<T> = (tx: Tx, result: T) => Promise<void>;

function summaryOf(event: EventRow, registered: number, waitlisted: number, now: Date): EventSummary {
  return {
    id: event.id,
    title: event.title,
    summary: event.summary,
    startsAt: ukLocalInput(event.startsAt),
    endsAt: ukLocalInput(event.endsAt),
    mode: event.mode,
    place: event.place ?? '',
    joinUrl: event.joinUrl ?? '',
    capacity: event.capacity,
    registrationOpensAt: event.registrationOpensAt ? ukLocalInput(event.registrationOpensAt) : '',
    registrationClosesAt: event.registrationClosesAt ? ukLocalInput(event.registrationClosesAt) : '',
    status: event.status as EventStatus,
    startsAtIso: event.startsAt.toISOString(),
    endsAtIso: event.endsAt.toISOString(),
    past: now.getTime() >= event.endsAt.getTime(),
    registered,
    waitlisted,
    updatedAt: event.updatedAt.toISOString(),
  };
}

async function counts(q: Queryable, eventId: string): Promise<{ registered: number; waitlisted: number }> {
  const rows = rowsOf<{ status: string; n: number }>(
    await q.execute(sql`
      select status, count(*)::int as n from ${eventRegistrations}
      where event_id = ${eventId} and status in ('registered', 'waitlisted') group by status`),
  );
  const of = (s: string) => Number(rows.find((r) => r.status === s)?.n ?? 0);
  return { registered: of('registered'), waitlisted: of('waitlisted') };
}

export async function eventList(db: Queryable, now: Date): Promise<EventList> {
  const rows = await db.select().from(events).orderBy(desc(events.startsAt)).limit(200);
  const items: EventSummary[] = [];
  for (const event of rows) {
    const c = await counts(db, event.id);
    items.push(summaryOf(event, c.registered, c.waitlisted, now));
  }
  return { items };
}

/** The event of `id`; 404 when there is none. */
export async function eventExists(db: Queryable, id: string): Promise<EventRow> {
  const [event] = await db.select().from(events).where(eq(events.id, id));
  if (!event) throw new Refusal(404, { error: NOT_FOUND });
  return event;
}

export async function eventDetail(db: Queryable, id: string, now: Date): Promise<EventDetail> {
  const event = await eventExists(db, id);
  const people = await registrantsOf(db, id, ['registered', 'waitlisted', 'cancelled']);
  const attendee = (p: (typeof people)[number]): Attendee => ({
    registrationId: p.registrationId,
    submissionId: p.submissionId,
    name: p.firstName,
    email: p.email,
    company: p.company,
    status: p.status,
    registeredAt: p.createdAt.toISOString(),
    promotedAt: p.promotedAt?.toISOString() ?? null,
    cancelledAt: p.cancelledAt?.toISOString() ?? null,
  });
  const of = (s: Attendee['status']) => people.filter((p) => p.status === s).map(attendee);
  const attendees = of('registered');
  const waitlist = of('waitlisted');
  return {
    ...summaryOf(event, attendees.length, waitlist.length, now),
    attendees,
    waitlist,
    cancelled: of('cancelled'),
  };
}

/**
 * Runs `fn` on the event's row, locked for the transaction, then `write` on its answer in the
 * same transaction; 404 for an unknown event.
 */
function withLockedEvent<T>(
  db: Db,
  id: string,
  fn: (tx: Tx, event: EventRow) => Promise<T>,
  write?: Write<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    const event = await lockEvent(tx, id);
    if (!event) throw new Refusal(404, { error: NOT_FOUND });
    const result = await fn(tx, event);
    await write?.(tx, result);
    return result;
  });
}

/**
 * An owner's change of an event: its checks and writes on the row as it was at `now`, and how many
 * people it e-mailed.
 */
type EventChange = (tx: Tx, before: EventRow, now: Date) => Promise<{ after: EventRow; notified: number }>;

/**
 * Runs `change` on the event's locked row (`withLockedEvent`) and answers the console: the event
 * as it now stands and how many people were e-mailed.
 */
function changeEvent(
  db: Db,
  id: string,
  now: Date,
  change: EventChange,
  write?: Write<EventChangeAnswer>,
): Promise<EventChangeAnswer> {
  return withLockedEvent(
    db,
    id,
    async (tx, before) => {
      const { after, notified } = await change(tx, before, now);
      const c = await counts(tx, after.id);
      return { event: summaryOf(after, c.registered, c.waitlisted, now), notified };
    },
    write,
  );
}

/** Sets `values` on the event's row; answers the row as it now stands. */
async function setEvent(tx: Tx, id: string, values: Partial<typeof events.$inferInsert>): Promise<EventRow> {
  const [after] = await tx.update(events).set(values).where(eq(events.id, id)).returning();
  return after!;
}

/** A new event, a draft (no one to e-mail). */
async function createEvent(
  db: Db,
  input: EventValues,
  now: Date,
  write?: Write<EventChangeAnswer>,
): Promise<EventChangeAnswer> {
  return db.transaction(async (tx) => {
    const id = randomUUID();
    const [event] = await tx
      .insert(events)
      .values({
        id,
        slug: eventSlug(input.title, id),
        ...input,
        status: 'draft',
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    const answer = { event: summaryOf(event!, 0, 0, now), notified: 0 };
    await write?.(tx, answer);
    return answer;
  });
}

/**
 * Changes an event. A published one's attendees get an updated invitation when its time, place,
 * link or title changed, and their reminders move with it; more places go to the waitlist.
 */
const updateEvent =
  (ctx: EventsContext, input: EventValues): EventChange =>
  async (tx, before, now) => {
    if (before.status === 'cancelled')
      throw new Refusal(409, { error: 'A cancelled event cannot be changed.' });
    if (now.getTime() >= before.endsAt.getTime()) throw new Refusal(409, { error: 'This event is over.' });
    const registered = await countRegistered(tx, before.id);
    if (input.capacity < registered) {
      throw new Refusal(400, {
        error: 'Please correct the highlighted fields.',
        fieldErrors: {
          capacity: `${registered} people already have a place: the capacity cannot be lower.`,
        },
      });
    }
    const visible =
      before.status === 'published' &&
      registered > 0 &&
      attendeeVisibleChange(before, { ...before, ...input });
    const after = await setEvent(tx, before.id, {
      ...input,
      calendarSequence: visible ? before.calendarSequence + 1 : before.calendarSequence,
      updatedAt: now,
    });
    let notified = 0;
    if (before.status === 'published') {
      notified = await afterEventChange(tx, ctx, before, after, now);
      await promoteFromWaitlist(tx, ctx, after, now);
    }
    return { after, notified };
  };

const publishEvent: EventChange = async (tx, event, now) => {
  if (event.status !== 'draft') throw new Refusal(409, { error: 'Only a draft can be published.' });
  if (now.getTime() >= event.startsAt.getTime())
    throw new Refusal(409, { error: 'This event has already started: change its time first.' });
  const after = await setEvent(tx, event.id, { status: 'published', publishedAt: now, updatedAt: now });
  return { after, notified: 0 };
};

const cancelEvent =
  (ctx: EventsContext): EventChange =>
  async (tx, event, now) => {
    if (event.status === 'cancelled') throw new Refusal(409, { error: 'This event is already cancelled.' });
    if (now.getTime() >= event.endsAt.getTime()) throw new Refusal(409, { error: 'This event is over.' });
    const after = await setEvent(tx, event.id, {
      status: 'cancelled',
      cancelledAt: now,
      updatedAt: now,
      calendarSequence: event.calendarSequence + 1,
    });
    const notified = event.status === 'published' ? await afterEventCancelled(tx, ctx, after, now) : 0;
    return { after, notified };
  };

/** Queues the owner's message to every registered attendee; answers how many e-mails. */
export async function messageEventAttendees(
  db: Db,
  ctx: EventsContext,
  id: string,
  { subject, message }: { subject: string; message: string },
  now: Date,
  write?: Write<number>,
): Promise<number> {
  return withLockedEvent(
    db,
    id,
    async (tx, event) => {
      if (event.status !== 'published')
        throw new Refusal(409, { error: 'Only a published event has attendees to write to.' });
      return messageAttendees(tx, ctx, event, subject, message, now);
    },
    write,
  );
}

export const ATTENDEE_HEADERS = [
  'Status',
  'Name',
  'Email',
  'Role or company',
  'Registered at',
  'Promoted at',
  'Cancelled at',
];

/** The export's rows: attendees, then the waitlist in order, then cancellations (one batch: an event has few). */
export async function* attendeeRows(db: Queryable, id: string): AsyncIterable<unknown[][]> {
  const people = await registrantsOf(db, id, ['registered', 'waitlisted', 'cancelled']);
  const order = { registered: 0, waitlisted: 1, cancelled: 2 } as const;
  yield [...people]
    .sort((a, b) => order[a.status] - order[b.status])
    .map((p) => [p.status, p.firstName, p.email, p.company, p.createdAt, p.promotedAt, p.cancelledAt]);
}

type EventAction = 'event.create' | 'event.update' | 'event.publish' | 'event.cancel';

/**
 * The Events area of the console: the list, one event, its changes, its message and its CSV.
 * `onPublished` runs after the commit of a change the public pages show (decision 047).
 */
export const eventsArea =
  (onPublished: () => void = () => {}): ConsoleArea =>
  (routes, { config, db, links, clock, wakeOutbox, giveWay }) => {
    const ctx: EventsContext = { config, links };
    /**
     * The owner's audit row of a change, written in its transaction; a change of an event the site
     * shows (published or cancelled) raises the publication counter in it too, so that every
     * instance renders the masterclass pages again.
     */
    const audited =
      (owner: OwnerIdentity, action: EventAction): Write<EventChangeAnswer> =>
      async (tx, { event, notified }) => {
        await audit(tx, owner.email, action, event.id, { notified });
        if (event.status !== 'draft') await raisePublicationVersion(tx);
      };
    /** After the commit: the outbox woken for the e-mails queued, the pages rendered, a log line. */
    const done = (request: FastifyRequest, action: EventAction, answer: EventChangeAnswer) => {
      if (answer.notified > 0 || action === 'event.update') wakeOutbox();
      if (answer.event.status !== 'draft') onPublished();
      request.log.info(
        { eventId: answer.event.id, notified: answer.notified },
        'event changed in the console',
      );
      return answer;
    };
    /** A change of the event of the route's `:id`, audited, then `done`. */
    const change = async (
      action: EventAction,
      { params, owner, request }: { params: { id: string }; owner: OwnerIdentity; request: FastifyRequest },
      eventChange: EventChange,
    ) =>
      done(request, action, await changeEvent(db, params.id, clock(), eventChange, audited(owner, action)));

    routes.on(eventsRoutes.list, async () => eventList(db, clock()));
    routes.on(eventsRoutes.detail, async ({ params }) => eventDetail(db, params.id, clock()));
    routes.on(eventsRoutes.create, async ({ body, owner, request }) => {
      const answer = await createEvent(db, body, clock(), audited(owner, 'event.create'));
      return done(request, 'event.create', answer).event;
    });
    routes.on(eventsRoutes.update, async (input) =>
      change('event.update', input, updateEvent(ctx, input.body)),
    );
    routes.on(eventsRoutes.publish, async (input) => change('event.publish', input, publishEvent));
    routes.on(eventsRoutes.cancel, async (input) => change('event.cancel', input, cancelEvent(ctx)));
    routes.on(eventsRoutes.message, async ({ params, body, owner }) => {
      const emails = await messageEventAttendees(db, ctx, params.id, body, clock(), (tx, emails) =>
        audit(tx, owner.email, 'event.message', params.id, { emails }),
      );
      if (emails > 0) wakeOutbox();
      return { ok: true as const, emails };
    });
    routes.on(eventsRoutes.attendees, async ({ params, owner }) => {
      const event = await eventExists(db, params.id);
      await audit(db, owner.email, 'export.attendees', event.id);
      return {
        name: `attendees-${event.startsAt.toISOString().slice(0, 10)}.csv`,
        type: CSV_TYPE,
        body: csvStream(ATTENDEE_HEADERS, attendeeRows(db, event.id), giveWay),
      };
    });
  };
