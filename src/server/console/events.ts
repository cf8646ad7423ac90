/**
 * The masterclasses in the console: the owner creates, edits, publishes and cancels events,
 * sees the attendees and the waitlist, exports them and writes to every attendee. What a change
 * means for the attendees (updated invitations, cancellations, reminders queued anew, places
 * given from the waitlist) is the events feature's (events-actions.server.ts): the same code
 * whoever causes it.
 */
import { randomUUID } from 'node:crypto';
import { desc, eq, sql } from 'drizzle-orm';
import type { Attendee, EventDetail, EventList, EventStatus, EventSummary } from '~/contract/console';
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
} from '~/features/events/events-actions.server';
import type { EventRow } from '~/features/events/events-emails.server';
import { ukLocalInput } from '~/features/events/event-times';
import { eventRegistrations, events } from '~/features/events/tables.server';
import { UUID_PATTERN } from '~/lib/patterns';
import { ukWallTimeToInstant } from '~/lib/uk-dates';
import type { Db, Queryable, Tx } from '../kit/db/client';
import { rowsOf } from '../kit/db/rows';
import { Refusal } from '../kit/http/request-checks';

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;
export const EVENT_LIMITS = {
  title: 120,
  summary: 600,
  place: 200,
  joinUrl: 500,
  capacity: 10_000,
  subject: 150,
  message: 5000,
};
const NOT_FOUND = 'There is no such event.';

type Parsed = {
  title: string;
  summary: string;
  startsAt: Date;
  endsAt: Date;
  mode: 'online' | 'in-person';
  place: string | null;
  joinUrl: string | null;
  capacity: number;
  registrationOpensAt: Date | null;
  registrationClosesAt: Date | null;
};

/** A UK wall-clock 'YYYY-MM-DDTHH:MM' as an instant, or undefined when it is not one. */
function ukInstant(value: unknown): Date | undefined {
  if (typeof value !== 'string') return undefined;
  const m = LOCAL.exec(value.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi] = m.map(Number) as [number, number, number, number, number, number];
  const probe = new Date(Date.UTC(y, mo - 1, d));
  if (probe.getUTCMonth() !== mo - 1 || probe.getUTCDate() !== d || h > 23 || mi > 59) return undefined;
  return ukWallTimeToInstant(value.slice(0, 10), value.slice(11, 16));
}

// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

function textField(
  errors: Record<string, string>,
  name: string,
  value: unknown,
  max: number,
  required: string | false,
  multiline = false,
): string {
  const text = typeof value === 'string' ? value.trim() : '';
  if (!text && required) errors[name] = required;
  else if (text.length > max) errors[name] = `Please keep this under ${max} characters.`;
  else if (CONTROL.test(text) || (!multiline && /[\r\n]/.test(text)))
    errors[name] = 'Please remove line breaks and unusual characters.';
  return text;
}

/** Checks what the owner typed; 400 with a sentence per field when something is wrong. */
export function parseEventInput(body: Record<string, unknown>, now: Date): Parsed {
  const errors: Record<string, string> = {};
  const title = textField(errors, 'title', body.title, EVENT_LIMITS.title, 'Please give the event a title.');
  const summary = textField(
    errors,
    'summary',
    body.summary,
    EVENT_LIMITS.summary,
    'Please write a short summary.',
    true,
  );
  const startsAt = ukInstant(body.startsAt);
  const endsAt = ukInstant(body.endsAt);
  if (!startsAt) errors.startsAt = 'Please give the start date and time.';
  else if (startsAt.getTime() <= now.getTime()) errors.startsAt = 'The start must be in the future.';
  if (!endsAt) errors.endsAt = 'Please give the end date and time.';
  else if (startsAt && endsAt.getTime() <= startsAt.getTime())
    errors.endsAt = 'The end must be after the start.';
  else if (startsAt && endsAt.getTime() - startsAt.getTime() > 24 * 3600_000)
    errors.endsAt = 'A masterclass lasts at most 24 hours.';
  const mode = body.mode === 'online' || body.mode === 'in-person' ? body.mode : undefined;
  if (!mode) errors.mode = 'Please choose online or in person.';
  const place = textField(
    errors,
    'place',
    body.place,
    EVENT_LIMITS.place,
    mode === 'in-person' ? 'Please give the address.' : false,
  );
  const joinUrl = textField(errors, 'joinUrl', body.joinUrl, EVENT_LIMITS.joinUrl, false);
  if (mode === 'online' && joinUrl) {
    let ok = false;
    try {
      ok = new URL(joinUrl).protocol === 'https:';
    } catch {
      ok = false;
    }
    if (!ok) errors.joinUrl = 'Please give a joining link that starts with https://.';
  }
  const capacity = typeof body.capacity === 'number' ? body.capacity : Number(body.capacity);
  if (!Number.isInteger(capacity) || capacity < 1 || capacity > EVENT_LIMITS.capacity)
    errors.capacity = `Please give a number of places from 1 to ${EVENT_LIMITS.capacity}.`;
  const opensRaw = typeof body.registrationOpensAt === 'string' ? body.registrationOpensAt.trim() : '';
  const closesRaw = typeof body.registrationClosesAt === 'string' ? body.registrationClosesAt.trim() : '';
  const opens = opensRaw ? ukInstant(opensRaw) : null;
  const closes = closesRaw ? ukInstant(closesRaw) : null;
  if (opens === undefined)
    errors.registrationOpensAt = 'Please give a valid date and time, or leave it empty.';
  if (closes === undefined)
    errors.registrationClosesAt = 'Please give a valid date and time, or leave it empty.';
  if (closes && startsAt && closes.getTime() > startsAt.getTime())
    errors.registrationClosesAt = 'Registration must close by the start.';
  if (opens && closes && opens.getTime() >= closes.getTime())
    errors.registrationClosesAt = 'Registration must close after it opens.';
  if (Object.keys(errors).length > 0) {
    throw new Refusal(400, { error: 'Please correct the highlighted fields.', fieldErrors: errors });
  }
  return {
    title,
    summary,
    startsAt: startsAt!,
    endsAt: endsAt!,
    mode: mode!,
    place: mode === 'in-person' ? place : null,
    joinUrl: mode === 'online' && joinUrl ? joinUrl : null,
    capacity,
    registrationOpensAt: opens ?? null,
    registrationClosesAt: closes ?? null,
  };
}

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

function checkId(id: string) {
  if (!UUID_PATTERN.test(id)) throw new Refusal(404, { error: NOT_FOUND });
}

export async function eventDetail(db: Queryable, id: string, now: Date): Promise<EventDetail> {
  checkId(id);
  const [event] = await db.select().from(events).where(eq(events.id, id));
  if (!event) throw new Refusal(404, { error: NOT_FOUND });
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

/** Runs `fn` on the event's row, locked for the transaction; 404 for an unknown event. */
function withLockedEvent<T>(db: Db, id: string, fn: (tx: Tx, event: EventRow) => Promise<T>): Promise<T> {
  checkId(id);
  return db.transaction(async (tx) => {
    const event = await lockEvent(tx, id);
    if (!event) throw new Refusal(404, { error: NOT_FOUND });
    return fn(tx, event);
  });
}

/** The console's answer to a change: the event as it now stands and how many people were e-mailed. */
async function changed(tx: Tx, after: EventRow, notified: number, now: Date): Promise<EventChange> {
  const c = await counts(tx, after.id);
  return { event: summaryOf(after, c.registered, c.waitlisted, now), notified };
}

type EventChange = { event: EventSummary; notified: number };

export async function createEvent(db: Db, body: Record<string, unknown>, now: Date): Promise<EventSummary> {
  const input = parseEventInput(body, now);
  const [event] = await db
    .insert(events)
    .values({ id: randomUUID(), ...input, status: 'draft', createdAt: now, updatedAt: now })
    .returning();
  return summaryOf(event!, 0, 0, now);
}

/**
 * Changes an event. A published one's attendees get an updated invitation when its time, place,
 * link or title changed, and their reminders move with it; more places go to the waitlist.
 */
export async function updateEvent(
  db: Db,
  ctx: EventsContext,
  id: string,
  body: Record<string, unknown>,
  now: Date,
): Promise<EventChange> {
  checkId(id);
  const input = parseEventInput(body, now);
  return withLockedEvent(db, id, async (tx, before) => {
    if (before.status === 'cancelled')
      throw new Refusal(409, { error: 'A cancelled event cannot be changed.' });
    if (now.getTime() >= before.endsAt.getTime()) throw new Refusal(409, { error: 'This event is over.' });
    const registered = await countRegistered(tx, id);
    if (input.capacity < registered) {
      throw new Refusal(400, {
        error: 'Please correct the highlighted fields.',
        fieldErrors: { capacity: `${registered} people already have a place: the capacity cannot be lower.` },
      });
    }
    const visible =
      before.status === 'published' &&
      registered > 0 &&
      attendeeVisibleChange(before, { ...before, ...input });
    const [after] = await tx
      .update(events)
      .set({
        ...input,
        calendarSequence: visible ? before.calendarSequence + 1 : before.calendarSequence,
        updatedAt: now,
      })
      .where(eq(events.id, id))
      .returning();
    let notified = 0;
    if (before.status === 'published') {
      notified = await afterEventChange(tx, ctx, before, after!, now);
      await promoteFromWaitlist(tx, ctx, after!, now);
    }
    return changed(tx, after!, notified, now);
  });
}

export async function publishEvent(db: Db, id: string, now: Date): Promise<EventChange> {
  return withLockedEvent(db, id, async (tx, event) => {
    if (event.status !== 'draft') throw new Refusal(409, { error: 'Only a draft can be published.' });
    if (now.getTime() >= event.startsAt.getTime())
      throw new Refusal(409, { error: 'This event has already started: change its time first.' });
    const [after] = await tx
      .update(events)
      .set({ status: 'published', publishedAt: now, updatedAt: now })
      .where(eq(events.id, id))
      .returning();
    return changed(tx, after!, 0, now);
  });
}

export async function cancelEvent(db: Db, ctx: EventsContext, id: string, now: Date): Promise<EventChange> {
  return withLockedEvent(db, id, async (tx, event) => {
    if (event.status === 'cancelled') throw new Refusal(409, { error: 'This event is already cancelled.' });
    if (now.getTime() >= event.endsAt.getTime()) throw new Refusal(409, { error: 'This event is over.' });
    const [after] = await tx
      .update(events)
      .set({
        status: 'cancelled',
        cancelledAt: now,
        updatedAt: now,
        calendarSequence: event.calendarSequence + 1,
      })
      .where(eq(events.id, id))
      .returning();
    const notified = event.status === 'published' ? await afterEventCancelled(tx, ctx, after!, now) : 0;
    return changed(tx, after!, notified, now);
  });
}

export async function messageEventAttendees(
  db: Db,
  ctx: EventsContext,
  id: string,
  body: Record<string, unknown>,
  now: Date,
): Promise<number> {
  checkId(id);
  const errors: Record<string, string> = {};
  const subject = textField(errors, 'subject', body.subject, EVENT_LIMITS.subject, 'Please write a subject.');
  const message = textField(
    errors,
    'message',
    body.message,
    EVENT_LIMITS.message,
    'Please write the message.',
    true,
  );
  if (Object.keys(errors).length > 0)
    throw new Refusal(400, { error: 'Please correct the highlighted fields.', fieldErrors: errors });
  return db.transaction(async (tx) => {
    const event = await lockEvent(tx, id);
    if (!event) throw new Refusal(404, { error: NOT_FOUND });
    if (event.status !== 'published')
      throw new Refusal(409, { error: 'Only a published event has attendees to write to.' });
    return messageAttendees(tx, ctx, event, subject, message, now);
  });
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
  checkId(id);
  const people = await registrantsOf(db, id, ['registered', 'waitlisted', 'cancelled']);
  const order = { registered: 0, waitlisted: 1, cancelled: 2 } as const;
  yield [...people]
    .sort((a, b) => order[a.status] - order[b.status])
    .map((p) => [p.status, p.firstName, p.email, p.company, p.createdAt, p.promotedAt, p.cancelledAt]);
}

export async function eventExists(db: Queryable, id: string): Promise<EventRow> {
  checkId(id);
  const [event] = await db.select().from(events).where(eq(events.id, id));
  if (!event) throw new Refusal(404, { error: NOT_FOUND });
  return event;
}
