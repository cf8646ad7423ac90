/**
 * One person, found by e-mail address across every table and every .eml file: what is held
 * (the console's People screen, and the subject access file), and erasure. Erasing deletes the
 * person's submissions with their consents, bookings and e-mails (rows and .eml files), their
 * newsletter row, and keeps the address only as a keyed hash on the suppression list, so the
 * outbox never writes to it again. Found by indexed columns (submissions.email_key,
 * lower(outbox.to_address), the subscribers' unique e-mail), so a look-up costs a few index reads
 * among a million rows.
 */
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { eq, inArray, or, sql } from 'drizzle-orm';
import type { PersonView } from '~/console/api';
import { bookingLinkUses, bookingStatusEvents, bookings } from '~/features/booking/tables.server';
import { lockEvent, promoteFromWaitlist, type EventsContext } from '~/features/events/events-actions.server';
import { eventRegistrations } from '~/features/events/tables.server';
import { newsletterSubscribers } from '~/features/newsletter/tables.server';
import type { Db, Queryable } from '../kit/db/client';
import { rowsOf } from '../kit/db/rows';
import { consentRecords, outbox, submissions, suppressions } from '../kit/db/schema';
import { Refusal } from '../kit/http/request-checks';
import { suppressionHash } from '../kit/mail/outbox';
import { emlFileName } from '../kit/mail/transport';

export type PersonRecords = {
  email: string;
  suppressed: boolean;
  submissions: (typeof submissions.$inferSelect)[];
  consents: (typeof consentRecords.$inferSelect)[];
  bookings: (typeof bookings.$inferSelect)[];
  bookingHistory: (typeof bookingStatusEvents.$inferSelect)[];
  /** Masterclass places and waitlist entries (the details are in their submissions). */
  registrations: (typeof eventRegistrations.$inferSelect)[];
  subscriptions: (typeof newsletterSubscribers.$inferSelect)[];
  emails: (typeof outbox.$inferSelect)[];
  /** The .eml files of those e-mails still in DATA_DIR/mail: name and full text. */
  emlFiles: { name: string; content: string }[];
};

const ADDRESS = /^[^\s@]+@[^\s@]+$/;

/** The address as it is matched: trimmed and lower-cased; a refusal if it is not one. */
export function personKey(value: unknown): string {
  const email = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (email.length > 254 || !ADDRESS.test(email)) {
    throw new Refusal(400, { error: 'Please enter a valid email address.' });
  }
  return email;
}

async function findRows(q: Queryable, email: string) {
  const subs = await q.select().from(submissions).where(eq(submissions.emailKey, email));
  const ids = subs.map((s) => s.id);
  // One after another: inside erasure's transaction they share one connection, which runs one
  // statement at a time (the Postgres client deprecates queueing them).
  const consents = ids.length
    ? await q.select().from(consentRecords).where(inArray(consentRecords.submissionId, ids))
    : [];
  const booked = ids.length ? await q.select().from(bookings).where(inArray(bookings.submissionId, ids)) : [];
  const registrations = ids.length
    ? await q.select().from(eventRegistrations).where(inArray(eventRegistrations.submissionId, ids))
    : [];
  const subscriptions = await q
    .select()
    .from(newsletterSubscribers)
    .where(eq(newsletterSubscribers.email, email));
  const emails = await q
    .select()
    .from(outbox)
    .where(
      ids.length
        ? or(sql`lower(${outbox.toAddress}) = ${email}`, inArray(outbox.submissionId, ids))
        : sql`lower(${outbox.toAddress}) = ${email}`,
    );
  const bookingIds = booked.map((b) => b.id);
  const history = bookingIds.length
    ? await q.select().from(bookingStatusEvents).where(inArray(bookingStatusEvents.bookingId, bookingIds))
    : [];
  return { subs, consents, booked, history, registrations, subscriptions, emails };
}

export async function findPerson(
  db: Db,
  secret: string,
  mailDir: string,
  value: unknown,
): Promise<PersonRecords> {
  const email = personKey(value);
  const { subs, consents, booked, history, registrations, subscriptions, emails } = await findRows(db, email);
  const [suppressed] = await db
    .select({ hash: suppressions.hash })
    .from(suppressions)
    .where(eq(suppressions.hash, suppressionHash(secret, email)));
  const emlFiles: PersonRecords['emlFiles'] = [];
  for (const name of emails.map((e) => emlFileName(Number(e.id), e.kind))) {
    try {
      emlFiles.push({ name, content: await readFile(join(mailDir, name), 'utf8') });
    } catch {
      // Sent through a relay, or its file already removed by retention.
    }
  }
  return {
    email,
    suppressed: Boolean(suppressed),
    submissions: subs,
    consents,
    bookings: booked,
    bookingHistory: history,
    registrations,
    subscriptions,
    emails,
    emlFiles,
  };
}

export type ErasureCounts = {
  submissions: number;
  consents: number;
  bookings: number;
  subscriptions: number;
  emails: number;
  emlFiles: number;
  registrations: number;
  /** People given a masterclass place the erased person held. */
  promoted: number;
};

/**
 * Deletes everything held about the person in one transaction and puts the address's keyed hash
 * on the suppression list; then removes the .eml files of the deleted e-mails. Counts only.
 */
export async function erasePerson(
  db: Db,
  secret: string,
  mailDir: string,
  value: unknown,
  /** Where the person held a masterclass place: the waitlist's first is promoted, and e-mailed so. */
  places?: { events: EventsContext; now: Date },
): Promise<ErasureCounts> {
  const email = personKey(value);
  const { counts, files } = await db.transaction(async (tx) => {
    // First the masterclasses the person is registered for, locked in the order every change to a
    // registration locks its event (a cancel link, the owner's changes): a change under way, and
    // the e-mail it queues for the person, is finished before their rows are read; a later one
    // finds nothing left.
    const theirEvents = rowsOf<{ id: string }>(
      await tx.execute(sql`
        select distinct r.event_id as id from ${eventRegistrations} r
        join ${submissions} s on s.id = r.submission_id
        where s.email_key = ${email} order by 1`),
    );
    for (const { id } of theirEvents) await lockEvent(tx, id);
    const { subs, consents, booked, history, registrations, subscriptions, emails } = await findRows(
      tx,
      email,
    );
    const ids = subs.map((s) => s.id);
    const bookingIds = booked.map((b) => b.id);
    const emailIds = emails.map((e) => Number(e.id));
    if (bookingIds.length) {
      await tx.delete(bookingLinkUses).where(inArray(bookingLinkUses.bookingId, bookingIds));
      await tx.delete(bookingStatusEvents).where(inArray(bookingStatusEvents.bookingId, bookingIds));
      await tx.delete(bookings).where(inArray(bookings.id, bookingIds));
    }
    if (registrations.length)
      await tx.delete(eventRegistrations).where(inArray(eventRegistrations.submissionId, ids));
    if (emailIds.length) await tx.delete(outbox).where(inArray(outbox.id, emailIds));
    if (ids.length) {
      await tx.delete(consentRecords).where(inArray(consentRecords.submissionId, ids));
      await tx.delete(submissions).where(inArray(submissions.id, ids));
    }
    if (subscriptions.length)
      await tx.delete(newsletterSubscribers).where(eq(newsletterSubscribers.email, email));
    // A place the person held is free now: it goes to the first on the waitlist, as when a person
    // cancels (under the event's lock, in this transaction).
    let promoted = 0;
    const freed = [...new Set(registrations.filter((r) => r.status === 'registered').map((r) => r.eventId))];
    for (const eventId of places ? freed.sort() : []) {
      const event = await lockEvent(tx, eventId);
      if (event) promoted += await promoteFromWaitlist(tx, places!.events, event, places!.now);
    }
    await tx
      .insert(suppressions)
      .values({ hash: suppressionHash(secret, email), reason: 'erased' })
      .onConflictDoUpdate({ target: suppressions.hash, set: { reason: 'erased' } });
    return {
      counts: {
        submissions: ids.length,
        consents: consents.length,
        bookings: bookingIds.length,
        subscriptions: subscriptions.length,
        emails: emailIds.length,
        emlFiles: 0,
        history: history.length,
        registrations: registrations.length,
        promoted,
      },
      files: emails.map((e) => emlFileName(Number(e.id), e.kind)),
    };
  });
  let removed = 0;
  for (const name of files) {
    try {
      await rm(join(mailDir, name));
      removed += 1;
    } catch {
      // No such file: sent through a relay.
    }
  }
  const { history: _history, ...rest } = counts;
  return { ...rest, emlFiles: removed };
}

/** What the People screen lists: enough to see what is held, not every body. */
export function personView(person: PersonRecords): PersonView {
  return {
    email: person.email,
    suppressed: person.suppressed,
    submissions: person.submissions.map((s) => ({
      id: s.id,
      formType: s.formType,
      receivedAt: s.receivedAt.toISOString(),
      spam: s.spam,
    })),
    consents: person.consents.map((c) => ({
      consentId: c.consentId,
      wording: c.wording,
      givenAt: c.givenAt.toISOString(),
    })),
    bookings: person.bookings.map((b) => ({ id: b.id, reference: b.reference, status: b.status })),
    subscriptions: person.subscriptions.map((s) => ({
      status: s.status,
      createdAt: s.createdAt.toISOString(),
    })),
    emails: person.emails.map((e) => ({
      id: Number(e.id),
      kind: e.kind,
      status: e.status,
      createdAt: e.createdAt.toISOString(),
      bodyRemoved: e.bodyRemovedAt !== null,
    })),
    emlFiles: person.emlFiles.map((f) => f.name),
  };
}

/** The subject access file: every row that names the person, and their e-mails as sent. */
export function subjectAccessJson(person: PersonRecords, now = new Date()): string {
  return JSON.stringify(
    {
      about: person.email,
      madeAt: now.toISOString(),
      suppressed: person.suppressed,
      submissions: person.submissions.map(({ ipHash: _ip, searchText: _s, emailKey: _k, ...row }) => row),
      consents: person.consents,
      bookings: person.bookings,
      bookingHistory: person.bookingHistory,
      masterclassRegistrations: person.registrations.map(({ personKey: _k, ...row }) => row),
      newsletter: person.subscriptions,
      emails: person.emails,
      emlFiles: person.emlFiles,
    },
    null,
    2,
  );
}
