/**
 * What the public site reads of the masterclasses: the Resources card's next one, one masterclass
 * for its own page after hydration, and every published one for the pages rendered at publication
 * (decision 047). Never a draft, never a joining link.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { PublishedMasterclass } from '~/content/published';
import type { Queryable } from '~/server/kit/db/client';
import {
  countRegistered,
  registrationClosesAt,
  registrationOpensAt,
  registrationRefusal,
} from './events-actions.server';
import { eventCalendarPath, type PublicEvent } from './events-api';
import type { EventRow } from './events-emails.server';
import { events } from './tables.server';

/** The soonest published event that has not ended (a scheduled one before a cancelled one). */
export async function nextEvent(q: Queryable, now: Date): Promise<PublicEvent | null> {
  const [event] = await q
    .select()
    .from(events)
    .where(
      and(inArray(events.status, ['published', 'cancelled']), sql`${events.endsAt} > ${now.toISOString()}`),
    )
    .orderBy(sql`${events.status} = 'cancelled'`, asc(events.startsAt))
    .limit(1);
  return event ? publicEventOf(q, event, now) : null;
}

/** A published (or cancelled) event by its id, as its own page asks after hydration; never a draft. */
export async function publicEvent(q: Queryable, id: string, now: Date): Promise<PublicEvent | null> {
  const [event] = await q
    .select()
    .from(events)
    .where(and(eq(events.id, id), inArray(events.status, ['published', 'cancelled'])));
  return event ? publicEventOf(q, event, now) : null;
}

/**
 * Every published and cancelled masterclass, soonest first: what their pages and the list are
 * rendered from (decision 047). Never a draft, never a joining link.
 */
export async function publishedMasterclasses(q: Queryable): Promise<PublishedMasterclass[]> {
  const rows = await q
    .select()
    .from(events)
    .where(inArray(events.status, ['published', 'cancelled']))
    .orderBy(asc(events.startsAt), asc(events.id));
  return rows.map((event) => ({
    id: event.id,
    slug: event.slug,
    title: event.title,
    summary: event.summary,
    startsAt: event.startsAt.toISOString(),
    endsAt: event.endsAt.toISOString(),
    mode: event.mode,
    place: event.mode === 'in-person' ? event.place : null,
    cancelled: event.status === 'cancelled',
  }));
}

async function publicEventOf(q: Queryable, event: EventRow, now: Date): Promise<PublicEvent> {
  const registered = await countRegistered(q, event.id);
  const cancelled = event.status === 'cancelled';
  return {
    id: event.id,
    title: event.title,
    summary: event.summary,
    startsAt: event.startsAt.toISOString(),
    endsAt: event.endsAt.toISOString(),
    mode: event.mode,
    place: event.mode === 'in-person' ? event.place : null,
    cancelled,
    registration: {
      opensAt: registrationOpensAt(event).toISOString(),
      closesAt: registrationClosesAt(event).toISOString(),
      open: registrationRefusal(event, now) === undefined,
      placesLeft: Math.max(0, event.capacity - registered),
    },
    calendarPath: cancelled ? null : eventCalendarPath(event.id),
  };
}
