/**
 * The newsletter's personal data: one subscriber row per address, erased by address. Retention
 * reduces a reader who unsubscribed to a keyed hash on the suppression list and deletes their row
 * and their sign-up submissions.
 */
import { eq, sql } from 'drizzle-orm';
import { peopleCopy, retentionCopy } from '~/content/console';
import { rowsOf } from '~/server/kit/db/rows';
import { isConsoleAddress, suppressionHash } from '~/server/kit/mail/outbox';
import { definePersonalData } from '~/server/kit/personal-data';
import { newsletterSubscribers } from './tables.server';

export const newsletterPersonalData = definePersonalData<typeof newsletterSubscribers.$inferSelect>({
  key: 'subscriptions',
  exportAs: 'newsletter',
  title: peopleCopy.newsletter,
  noun: 'newsletter records',
  rows: {
    find: (q, { email }) =>
      q.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, email)),
    show: (n) => ({ text: n.status, at: n.createdAt.toISOString() }),
    async erase(tx, { email }, rows) {
      if (rows.length) await tx.delete(newsletterSubscribers).where(eq(newsletterSubscribers.email, email));
    },
  },
  retention: [
    {
      count: 'unsubscribed',
      describe: () => retentionCopy.unsubscribed,
      async sweep(db, { batchSize, secret, consoleAddresses, deleteSubmissions }) {
        const people = rowsOf<{ email: string }>(
          await db.execute(
            sql`select email from newsletter_subscribers where status = 'unsubscribed' limit ${batchSize}`,
          ),
        );
        if (people.length === 0) return { count: 0, files: [] };
        const files = await db.transaction(async (tx) => {
          const list = sql.join(
            people.map((p) => sql`${p.email}`),
            sql`, `,
          );
          // A console address (an owner who tried the newsletter) is never suppressed.
          const readers = people.filter((p) => !isConsoleAddress(consoleAddresses, p.email));
          if (readers.length) {
            const hashes = sql.join(
              readers.map((p) => sql`(${suppressionHash(secret, p.email)}, 'unsubscribed')`),
              sql`, `,
            );
            await tx.execute(
              sql`insert into suppressions (hash, reason) values ${hashes} on conflict (hash) do nothing`,
            );
          }
          const gone = await deleteSubmissions(
            tx,
            sql`select id from submissions where form_type = 'newsletter' and email_key in (${list})`,
          );
          await tx.execute(sql`delete from newsletter_subscribers where email in (${list})`);
          return gone.files;
        });
        return { count: people.length, files };
      },
    },
    {
      // Which reader each issue reached (decision 046): the address goes after the period, the row
      // stays as the issue's count; an erasure removes a person's rows at once (the e-mails' kind).
      count: 'newsletterSends',
      describe: (periods) => retentionCopy.newsletterSends(periods.newsletterSendMonths),
      async sweep(db, { at, batchSize, periods }) {
        const removed = rowsOf<{ id: number }>(
          await db.execute(sql`
            update outbox set to_address = 'removed-' || id::text,
              message = jsonb_build_object('subject', message->>'subject', 'removed', true)
            where id in (
              select id from outbox
              where mailing_id is not null and to_address not like 'removed-%'
                and created_at < ${at} - ${`${periods.newsletterSendMonths} months`}::interval
              order by created_at limit ${batchSize})
            returning id`),
        );
        return { count: removed.length, files: [] };
      },
    },
  ],
  countLabels: {
    unsubscribed: retentionCopy.countLabels.unsubscribed!,
    newsletterSends: retentionCopy.countLabels.newsletterSends!,
  },
});
