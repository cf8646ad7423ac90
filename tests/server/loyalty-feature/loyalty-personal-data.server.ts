/**
 * A feature that exists only for a test: loyalty points, one row per submission, kept 6 months
 * after they were given. Its table and its declaration are all it has; the test adds the
 * declaration to the registry, as a real feature adds one line to src/server/root/personal-data.ts.
 */
import { sql } from 'drizzle-orm';
import { integer, pgTable, timestamp, uuid } from 'drizzle-orm/pg-core';
import { submissions } from '../../../src/server/kit/db/schema';
import { definePersonalData, rowsOfSubmissions } from '../../../src/server/kit/personal-data';

export const loyaltyPoints = pgTable('loyalty_points', {
  id: uuid('id').primaryKey().defaultRandom(),
  submissionId: uuid('submission_id')
    .notNull()
    .references(() => submissions.id, { onDelete: 'cascade' }),
  points: integer('points').notNull(),
  givenAt: timestamp('given_at', { withTimezone: true }).notNull().defaultNow(),
});

/** What a migration of the feature would create. */
export const LOYALTY_TABLE = `create table if not exists loyalty_points (
  id uuid primary key default gen_random_uuid(),
  submission_id uuid not null references submissions(id) on delete cascade,
  points integer not null,
  given_at timestamptz not null default now())`;

export const loyaltyPersonalData = definePersonalData<typeof loyaltyPoints.$inferSelect>({
  key: 'loyalty',
  title: 'Loyalty points',
  noun: 'loyalty records',
  rows: {
    find: (q, person) => rowsOfSubmissions(q, loyaltyPoints, loyaltyPoints.submissionId, person),
    show: (row) => ({ text: `${row.points} points`, at: row.givenAt.toISOString() }),
    export: ({ id: _id, ...row }) => row,
  },
  retention: [
    {
      count: 'loyalty',
      describe: () => 'Loyalty points: 6 months after they were given.',
      submissions: ({ at, batchSize }) => sql`select submission_id as id from loyalty_points
        where given_at < ${at} - make_interval(months => 6) limit ${batchSize}`,
    },
  ],
  countLabels: { loyalty: 'loyalty records' },
});
