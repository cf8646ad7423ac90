/**
 * The contact form keeps nothing of its own: a message is its submission, deleted 24 months after
 * it arrived (RETENTION.contactMonths).
 */
import { sql } from 'drizzle-orm';
import { retentionCopy } from '~/content/console';
import { definePersonalData } from '~/server/kit/personal-data';

export const contactPersonalData = definePersonalData({
  key: 'contact',
  title: 'Contact messages',
  noun: 'contact messages',
  retention: [
    {
      count: 'contact',
      describe: (p) => retentionCopy.contact(p.contactMonths),
      submissions: ({ at, periods, batchSize }) => sql`select id from submissions
        where form_type = 'contact' and not spam and received_at < ${at} - make_interval(months => ${periods.contactMonths})
        limit ${batchSize}`,
    },
  ],
  countLabels: { contact: retentionCopy.countLabels.contact! },
});
