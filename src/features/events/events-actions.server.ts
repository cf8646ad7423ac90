/**
 * What happens to masterclasses and their registrations, in one place for the form handler, the
 * cancel links and the owner's console:
 * - a registration takes a place while the event has one, else joins the waitlist. The event's
 *   row is locked (`FOR UPDATE`) while its places are counted, so concurrent registrations on
 *   Postgres queue behind each other and never pass the capacity;
 * - a cancellation frees a place, which goes to the first on the waitlist at once;
 * - every e-mail is an outbox row written in the same transaction; the reminders are rows due
 *   24 hours and 1 hour before the start, replaced whenever the event changes.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Config } from '~/server/kit/config';
import type { Queryable, Tx } from '~/server/kit/db/client';
import { outbox, submissions } from '~/server/kit/db/schema';
import type { Links } from '~/server/kit/http/links';
import { Refusal } from '~/server/kit/http/request-checks';
import { enqueueEmails, type OutgoingEmail } from '~/server/kit/mail/outbox';
import { REGISTRATION_CANCEL_PATH } from './events-api';
import {
  attendeeMessageEmail,
  eventCancelledEmail,
  placeEmail,
  REMINDER_KINDS,
  reminderEmail,
  updatedEmail,
  waitlistedEmail,
  withdrawnEmail,
  type EventRow,
  type MailContext,
  type Registrant,
} from './events-emails.server';
import { eventRegistrations, events } from './tables.server';

export const REGISTRATION_LINK_PURPOSE = 'event-registration';
const HOUR_MS = 3600_000;

export type EventsContext = { config: Config; links: Links };

/** The sentences a refused registration gets (409). */
export const REGISTRATION_REFUSALS = {
  missing: 'This masterclass is not open for registration. Please reload the page.',
  cancelled: 'This masterclass has been cancelled, so it is no longer taking registrations.',
  notYet: 'Registration for this masterclass has not opened yet.',
  closed: 'Registration for this masterclass has closed.',
} as const;

/** Keyed hash of an address: one live registration a person an event, without a second copy of the address. */
export function personKey(secret: string, email: string): string {
  return createHmac('sha256', secret)
    .update(`event-person:${email.trim().toLowerCase()}`)
    .digest('base64url');
}

export function registrationOpensAt(event: EventRow): Date {
  return event.registrationOpensAt ?? event.publishedAt ?? event.createdAt;
}

export function registrationClosesAt(event: EventRow): Date {
  const closes = event.registrationClosesAt ?? event.startsAt;
  return closes.getTime() < event.startsAt.getTime() ? closes : event.startsAt;
}

/** Why a registration sent at `now` is refused, or undefined when it is taken. */
export function registrationRefusal(event: EventRow | undefined, now: Date): string | undefined {
  if (!event || event.status === 'draft') return REGISTRATION_REFUSALS.missing;
  if (event.status === 'cancelled') return REGISTRATION_REFUSALS.cancelled;
  if (now.getTime() < registrationOpensAt(event).getTime()) return REGISTRATION_REFUSALS.notYet;
  if (now.getTime() >= registrationClosesAt(event).getTime()) return REGISTRATION_REFUSALS.closed;
  return undefined;
}

export async function lockEvent(tx: Tx, id: string): Promise<EventRow | undefined> {
  const [event] = await tx.select().from(events).where(eq(events.id, id)).for('update');
  return event;
}

export async function countRegistered(q: Queryable, eventId: string): Promise<number> {
  const [row] = await q
    .select({ n: sql<number>`count(*)::int` })
    .from(eventRegistrations)
    .where(and(eq(eventRegistrations.eventId, eventId), eq(eventRegistrations.status, 'registered')));
  return Number(row?.n ?? 0);
}

type Fields = { firstName?: string; email?: string; company?: string };

function fieldsOf(raw: unknown): Fields {
  return (typeof raw === 'string' ? JSON.parse(raw) : raw) as Fields;
}

function registrantFrom(reg: typeof eventRegistrations.$inferSelect, fields: unknown): Registrant {
  const f = fieldsOf(fields);
  return {
    registrationId: reg.id,
    submissionId: reg.submissionId,
    firstName: f.firstName ?? '',
    email: f.email ?? '',
    company: f.company ?? '',
    status: reg.status as Registrant['status'],
  };
}

/** The registrations of an event with the person's details, in registration order. */
export async function registrantsOf(
  q: Queryable,
  eventId: string,
  statuses: readonly Registrant['status'][] = ['registered', 'waitlisted'],
): Promise<(Registrant & { createdAt: Date; promotedAt: Date | null; cancelledAt: Date | null })[]> {
  const rows = await q
    .select({ reg: eventRegistrations, fields: submissions.fields })
    .from(eventRegistrations)
    .innerJoin(submissions, eq(submissions.id, eventRegistrations.submissionId))
    .where(and(eq(eventRegistrations.eventId, eventId), inArray(eventRegistrations.status, [...statuses])))
    .orderBy(asc(eventRegistrations.seq));
  return rows.map(({ reg, fields }) => ({
    ...registrantFrom(reg, fields),
    createdAt: reg.createdAt,
    promotedAt: reg.promotedAt,
    cancelledAt: reg.cancelledAt,
  }));
}

/** One registration with the person's details (none when its submission is gone). */
async function registrantOf(
  q: Queryable,
  reg: typeof eventRegistrations.$inferSelect,
): Promise<Registrant | undefined> {
  const [row] = await q
    .select({ fields: submissions.fields })
    .from(submissions)
    .where(eq(submissions.id, reg.submissionId));
  return row ? registrantFrom(reg, row.fields) : undefined;
}

/** The person's own cancel link: works until the event ends. */
export async function cancelUrl(links: Links, registrationId: string, event: EventRow): Promise<string> {
  const token = await links.tokens.sign(REGISTRATION_LINK_PURPOSE, registrationId, {
    expiresAt: event.endsAt,
  });
  return links.absolute(`${REGISTRATION_CANCEL_PATH}?token=${encodeURIComponent(token)}`);
}

export async function mailContext(
  ctx: EventsContext,
  event: EventRow,
  registrationId: string,
  now: Date,
): Promise<MailContext> {
  return {
    organizer: ctx.config.mailFrom,
    publicUrl: ctx.config.publicUrl,
    now,
    cancelUrl: await cancelUrl(ctx.links, registrationId, event),
  };
}

/** The reminders still ahead of `now`: 24 hours and 1 hour before the start. */
export function reminders(event: EventRow, person: Registrant, mc: MailContext, now: Date): OutgoingEmail[] {
  const out: OutgoingEmail[] = [];
  for (const [which, hours] of [
    ['24h', 24],
    ['1h', 1],
  ] as const) {
    const at = new Date(event.startsAt.getTime() - hours * HOUR_MS);
    if (at.getTime() > now.getTime()) out.push(reminderEmail(event, person, mc, which, at));
  }
  return out;
}

/** The e-mails of a held place: the confirmation (or promotion) and the reminders. */
export async function placeEmails(
  ctx: EventsContext,
  event: EventRow,
  person: Registrant,
  now: Date,
  promoted = false,
): Promise<OutgoingEmail[]> {
  const mc = await mailContext(ctx, event, person.registrationId, now);
  return [placeEmail(event, person, mc, promoted), ...reminders(event, person, mc, now)];
}

export async function waitlistEmails(
  ctx: EventsContext,
  event: EventRow,
  person: Registrant,
  now: Date,
): Promise<OutgoingEmail[]> {
  return [waitlistedEmail(event, person, await mailContext(ctx, event, person.registrationId, now))];
}

/** Removes the reminders not yet sent to these registrations' people (cancelled, or to be queued anew). */
export async function dropPendingReminders(tx: Queryable, submissionIds: readonly string[]): Promise<void> {
  if (submissionIds.length === 0) return;
  await tx
    .delete(outbox)
    .where(
      and(
        eq(outbox.status, 'pending'),
        inArray(outbox.kind, [...REMINDER_KINDS]),
        inArray(outbox.submissionId, [...submissionIds]),
      ),
    );
}

/**
 * Gives free places to the first on the waitlist, in order, while the event has room and has
 * not started; queues each one's e-mails. Returns how many were promoted.
 */
export async function promoteFromWaitlist(
  tx: Tx,
  ctx: EventsContext,
  event: EventRow,
  now: Date,
): Promise<number> {
  if (event.status !== 'published' || now.getTime() >= event.startsAt.getTime()) return 0;
  const free = event.capacity - (await countRegistered(tx, event.id));
  if (free <= 0) return 0;
  const waiting = (await registrantsOf(tx, event.id, ['waitlisted'])).slice(0, free);
  for (const person of waiting) {
    await tx
      .update(eventRegistrations)
      .set({ status: 'registered', promotedAt: now })
      .where(eq(eventRegistrations.id, person.registrationId));
    const promoted = { ...person, status: 'registered' as const };
    await enqueueEmails(tx, person.submissionId, await placeEmails(ctx, event, promoted, now, true));
  }
  return waiting.length;
}

/** A new registration, in the submission's transaction: a place or the waitlist. */
export async function register(
  tx: Tx,
  ctx: EventsContext,
  input: { eventId: string; submissionId: string; firstName: string; email: string; company: string },
  now: Date,
): Promise<{ person: Registrant; event: EventRow; placesLeft: number; repeat: boolean }> {
  const event = await lockEvent(tx, input.eventId);
  const refusal = registrationRefusal(event, now);
  if (refusal || !event) throw new Refusal(409, { error: refusal ?? REGISTRATION_REFUSALS.missing });
  const key = personKey(ctx.config.appSecret, input.email);
  const registered = await countRegistered(tx, event.id);
  const [existing] = await tx
    .select()
    .from(eventRegistrations)
    .where(
      and(
        eq(eventRegistrations.eventId, event.id),
        eq(eventRegistrations.personKey, key),
        inArray(eventRegistrations.status, ['registered', 'waitlisted']),
      ),
    );
  const base = {
    submissionId: input.submissionId,
    firstName: input.firstName,
    email: input.email,
    company: input.company,
  };
  if (existing) {
    // Already registered: the same answer, and no second place or e-mail.
    return {
      person: { ...base, registrationId: existing.id, status: existing.status as Registrant['status'] },
      event,
      placesLeft: Math.max(0, event.capacity - registered),
      repeat: true,
    };
  }
  const status = registered < event.capacity ? 'registered' : 'waitlisted';
  const id = randomUUID();
  await tx.insert(eventRegistrations).values({
    id,
    eventId: event.id,
    submissionId: input.submissionId,
    personKey: key,
    status,
    createdAt: now,
  });
  return {
    person: { ...base, registrationId: id, status },
    event,
    placesLeft: Math.max(0, event.capacity - registered - (status === 'registered' ? 1 : 0)),
    repeat: false,
  };
}

export class RegistrationLinkRefusal extends Refusal {}

const LINK_REFUSALS = {
  invalid: 'This link is not valid. Please use the link in your most recent e-mail about the masterclass.',
  over: 'This masterclass is over, so its registration can no longer be changed.',
};

/** The registration a cancel link names, with its event; refuses forged and spent links. */
export async function registrationOfLink(
  q: Queryable,
  links: Links,
  token: unknown,
  now: Date,
  lock?: Tx,
): Promise<{ reg: typeof eventRegistrations.$inferSelect; event: EventRow }> {
  const result = await links.tokens.verify(REGISTRATION_LINK_PURPOSE, token, { now });
  if (!result.ok) {
    throw result.reason === 'expired'
      ? new RegistrationLinkRefusal(410, { error: LINK_REFUSALS.over })
      : new RegistrationLinkRefusal(403, { error: LINK_REFUSALS.invalid });
  }
  const [reg] = await q.select().from(eventRegistrations).where(eq(eventRegistrations.id, result.subject));
  if (!reg) throw new RegistrationLinkRefusal(403, { error: LINK_REFUSALS.invalid });
  const event = lock
    ? await lockEvent(lock, reg.eventId)
    : (await q.select().from(events).where(eq(events.id, reg.eventId)))[0];
  if (!event) throw new RegistrationLinkRefusal(403, { error: LINK_REFUSALS.invalid });
  if (now.getTime() >= event.endsAt.getTime())
    throw new RegistrationLinkRefusal(410, { error: LINK_REFUSALS.over });
  return { reg, event };
}

/**
 * The person cancels (their e-mail's link): the place or waitlist entry ends, its reminders are
 * dropped, a freed place goes to the first on the waitlist, and the person gets an e-mail saying
 * so (with the calendar entry's cancellation for a place). Pressing twice changes nothing more.
 */
export async function cancelByLink(
  db: { transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> },
  ctx: EventsContext,
  token: unknown,
  now: Date,
): Promise<{ registrationId: string; was: Registrant['status']; promoted: number; queued: number }> {
  return db.transaction(async (tx) => {
    const { reg, event } = await registrationOfLink(tx, ctx.links, token, now, tx);
    // Re-read under the event's lock: a concurrent cancel has finished by now.
    const [current] = await tx.select().from(eventRegistrations).where(eq(eventRegistrations.id, reg.id));
    if (!current || current.status === 'cancelled')
      return { registrationId: reg.id, was: 'cancelled', promoted: 0, queued: 0 };
    await tx
      .update(eventRegistrations)
      .set({ status: 'cancelled', cancelledAt: now })
      .where(eq(eventRegistrations.id, reg.id));
    await dropPendingReminders(tx, [reg.submissionId]);
    let queued = 0;
    // A cancelled masterclass has already told everyone, with its own calendar cancellation.
    if (event.status !== 'cancelled') {
      const person = await registrantOf(tx, current);
      if (person) {
        const mc = await mailContext(ctx, event, person.registrationId, now);
        await enqueueEmails(tx, person.submissionId, [withdrawnEmail(event, person, mc)]);
        queued = 1;
      }
    }
    const promoted = current.status === 'registered' ? await promoteFromWaitlist(tx, ctx, event, now) : 0;
    return { registrationId: reg.id, was: current.status as Registrant['status'], promoted, queued };
  });
}

// --- The owner's changes --------------------------------------------------------------------------

/** What a change to an event means for its attendees. */
export function attendeeVisibleChange(before: EventRow, after: EventRow): boolean {
  return (
    before.startsAt.getTime() !== after.startsAt.getTime() ||
    before.endsAt.getTime() !== after.endsAt.getTime() ||
    before.mode !== after.mode ||
    (before.place ?? '') !== (after.place ?? '') ||
    (before.joinUrl ?? '') !== (after.joinUrl ?? '') ||
    before.title !== after.title
  );
}

/**
 * After the owner changed a published event: every registered attendee gets the updated
 * invitation (same UID, the event's new SEQUENCE) when something they rely on moved; every
 * reminder is queued anew for the new time. Returns how many were told.
 */
export async function afterEventChange(
  tx: Tx,
  ctx: EventsContext,
  before: EventRow,
  after: EventRow,
  now: Date,
): Promise<number> {
  const people = await registrantsOf(tx, after.id, ['registered']);
  await dropPendingReminders(
    tx,
    people.map((p) => p.submissionId),
  );
  const tell = attendeeVisibleChange(before, after);
  for (const person of people) {
    const mc = await mailContext(ctx, after, person.registrationId, now);
    await enqueueEmails(tx, person.submissionId, [
      ...(tell ? [updatedEmail(after, person, mc)] : []),
      ...reminders(after, person, mc, now),
    ]);
  }
  return tell ? people.length : 0;
}

/** The owner cancelled the event: METHOD:CANCEL to every attendee, a note to the waitlist. */
export async function afterEventCancelled(
  tx: Tx,
  ctx: EventsContext,
  event: EventRow,
  now: Date,
): Promise<number> {
  const people = await registrantsOf(tx, event.id, ['registered', 'waitlisted']);
  await dropPendingReminders(
    tx,
    people.map((p) => p.submissionId),
  );
  for (const person of people) {
    const mc = await mailContext(ctx, event, person.registrationId, now);
    await enqueueEmails(tx, person.submissionId, [eventCancelledEmail(event, person, mc)]);
  }
  return people.length;
}

/** The owner's message to every registered attendee. Returns how many e-mails were queued. */
export async function messageAttendees(
  tx: Tx,
  ctx: EventsContext,
  event: EventRow,
  subject: string,
  message: string,
  now: Date,
): Promise<number> {
  const people = await registrantsOf(tx, event.id, ['registered']);
  for (const person of people) {
    const mc = await mailContext(ctx, event, person.registrationId, now);
    await enqueueEmails(tx, person.submissionId, [attendeeMessageEmail(event, person, mc, subject, message)]);
  }
  return people.length;
}
