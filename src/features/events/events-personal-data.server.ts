/**
 * The masterclasses' personal data: a registration hangs off the person's submission (erased with
 * it by cascade; the details are in the submission). Erasing a person who held a place gives it to
 * the first on the waitlist, as a cancellation does. Registrations are deleted with their
 * submissions 12 months after the masterclass (RETENTION.masterclassMonthsAfterEvent).
 */
import { eq, inArray, sql } from 'drizzle-orm';
import { peopleCopy, retentionCopy } from '~/content/console';
import { rowsOf } from '~/server/kit/db/rows';
import { definePersonalData } from '~/server/kit/personal-data';
import { lockEvent, promoteFromWaitlist } from './events-actions.server';
import { eventRegistrations, events } from './tables.server';

type Registration = typeof eventRegistrations.$inferSelect & { eventTitle: string };

export const eventsPersonalData = definePersonalData<Registration>({
  key: 'registrations',
  exportAs: 'masterclassRegistrations',
  title: peopleCopy.registrations,
  noun: 'masterclass registrations',
  rows: {
    // The masterclasses they are registered for, locked in the order every change to a registration
    // locks its event (a cancel link, the owner's changes): a change under way, and the e-mail it
    // queues for the person, is finished before their rows are read; a later one finds nothing left.
    async lock(tx, { submissionIds }) {
      if (submissionIds.length === 0) return;
      const theirs = rowsOf<{ id: string }>(
        await tx.execute(sql`select distinct event_id as id from ${eventRegistrations}
          where ${inArray(eventRegistrations.submissionId, submissionIds)} order by 1`),
      );
      for (const { id } of theirs) await lockEvent(tx, id);
    },
    find: async (q, { submissionIds }) => {
      if (submissionIds.length === 0) return [];
      const rows = await q
        .select({ registration: eventRegistrations, eventTitle: events.title })
        .from(eventRegistrations)
        .innerJoin(events, eq(events.id, eventRegistrations.eventId))
        .where(inArray(eventRegistrations.submissionId, submissionIds));
      return rows.map((r) => ({ ...r.registration, eventTitle: r.eventTitle }));
    },
    show: (r) => ({ text: `${r.eventTitle} (${r.status})`, at: r.createdAt.toISOString() }),
    // The keyed hash of the address is not about the person beyond the address itself.
    export: ({ personKey: _k, ...row }) => row,
    // A place the person held is free now: it goes to the first on the waitlist, under the event's
    // lock, in the erasure's transaction.
    async afterErase(tx, rows, { config, links, now }) {
      let promoted = 0;
      const freed = [...new Set(rows.filter((r) => r.status === 'registered').map((r) => r.eventId))];
      for (const eventId of freed.sort()) {
        const event = await lockEvent(tx, eventId);
        if (event) promoted += await promoteFromWaitlist(tx, { config, links }, event, now);
      }
      return { promoted };
    },
  },
  retention: [
    {
      count: 'masterclass',
      describe: (p) => retentionCopy.masterclass(p.masterclassMonthsAfterEvent),
      // Counted from the end of their event (few events, each indexed).
      submissions: ({ at, periods, batchSize }) => sql`select r.submission_id as id
        from event_registrations r join events e on e.id = r.event_id
        where e.ends_at < ${at} - make_interval(months => ${periods.masterclassMonthsAfterEvent})
        limit ${batchSize}`,
    },
  ],
  countLabels: { masterclass: retentionCopy.countLabels.masterclass! },
});
