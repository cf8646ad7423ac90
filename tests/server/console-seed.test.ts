/**
 * The bench's console seed (scripts/console-seed.ts) against what the forms really store: a few
 * thousand rows on Postgres, migrated by the server's own code, each row's fields read back
 * through its form's schema (a row the schema would change or refuse is a seed that drifted from
 * the form), and what hangs off the rows checked against the pipeline's own rules.
 */
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM_TYPES } from '../../src/contract/console';
import { consents } from '../../src/content/consents';
import { createBookingSchema } from '../../src/features/booking/booking-schema';
import { REFERENCE_PATTERN } from '../../src/features/booking/booking-reference';
import { ContactSchema } from '../../src/features/contact/contact-schema';
import { GuideSchema } from '../../src/features/guide/guide-schema';
import { NewsletterSchema } from '../../src/features/newsletter/newsletter-schema';
import { RegistrationSchema } from '../../src/features/events/events-schema';
import { inboxPage } from '../../src/server/console/inbox';
import type { Db } from '../../src/server/kit/db/client';
import { formHandlers } from '../../src/server/root/forms/dispatch-table';
import {
  FORM_SHARES,
  MASTERCLASS_CAPACITY,
  MASTERCLASS_DAYS,
  SPAM_DAYS,
  SPAM_PER_THOUSAND,
  SPAN_DAYS,
  seedConsole,
  type Query,
} from '../../scripts/console-seed';
import { createTestDatabase } from './databases';

const COUNT = 4000;
const NOW = new Date('2026-03-02T10:30:00Z');
const DAY_MS = 86_400_000;

type Row = {
  id: string;
  form_type: string;
  fields: Record<string, unknown>;
  received_at: Date;
  spam: boolean;
  spam_reason: string | null;
  ip_hash: string | null;
  idempotency_key: string | null;
  response: { reference?: string } | null;
};

let drop: (() => Promise<void>) | undefined;
let client: pg.Client;
let query: Query;
let rows: Row[];
let indexesBefore: string[];
let statisticsAfterSeed: number;

const indexNames = async () =>
  (await query(`select indexname from pg_indexes where schemaname = 'public' order by indexname`)).rows.map(
    (r) => String(r.indexname),
  );

beforeAll(async () => {
  // A database migrated by the server's own code (a copy of the run's template), then the seed
  // through one connection of its own, as the bench runs it on Postgres.
  const database = await createTestDatabase('console_seed');
  drop = database.drop;
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
  query = (text) => client.query(text);
  indexesBefore = await indexNames();
  await seedConsole(query, { count: COUNT, now: NOW, chunk: 1500, autovacuum: true });
  rows = (await query('select * from submissions')).rows as Row[];
  statisticsAfterSeed = Number(
    (await query(`select count(*)::int as n from pg_stats where tablename = 'submissions'`)).rows[0]?.n,
  );
});

afterAll(async () => {
  await client?.end();
  await drop?.();
});

describe('the console seed', () => {
  it('covers exactly the forms of the dispatch table', () => {
    expect([...FORM_TYPES].sort()).toEqual(Object.keys(formHandlers).sort());
    expect(Object.keys(FORM_SHARES).sort()).toEqual(Object.keys(formHandlers).sort());
  });

  it("stores each form's fields exactly as its schema returns them", () => {
    const schemaOf = (row: Row) => {
      switch (row.form_type) {
        case 'contact':
          return ContactSchema;
        case 'bitcoin_guide':
          return GuideSchema;
        case 'newsletter':
          return NewsletterSchema;
        case 'masterclass':
          return RegistrationSchema;
        case 'booking':
          // A booking's dates are checked against the day it was sent.
          return createBookingSchema(() => new Date(row.received_at));
        default:
          throw new Error(`unexpected form ${row.form_type}`);
      }
    };
    const drifted: unknown[] = [];
    for (const row of rows) {
      const parsed = schemaOf(row).safeParse(row.fields);
      if (!parsed.success)
        drifted.push({ form: row.form_type, issues: parsed.error.issues, fields: row.fields });
      else if (JSON.stringify(sorted(parsed.data)) !== JSON.stringify(sorted(row.fields)))
        drifted.push({ form: row.form_type, stored: row.fields, schema: parsed.data });
    }
    expect(drifted.slice(0, 3)).toEqual([]);
    // Each form's rows use every optional part somewhere: a second choice, notes, a company address.
    const bookings = rows.filter((r) => r.form_type === 'booking');
    expect(bookings.some((r) => r.fields.secondChoiceDate !== '')).toBe(true);
    expect(bookings.some((r) => r.fields.secondChoiceDate === '')).toBe(true);
    expect(bookings.some((r) => r.fields.notes !== '')).toBe(true);
  });

  it('mixes forms, spam and two years of arrivals as described', async () => {
    for (const [form, share] of Object.entries(FORM_SHARES)) {
      const n = rows.filter((r) => r.form_type === form).length;
      // Masterclass registrations only over their last MASTERCLASS_DAYS (the rest of that share are guides).
      const expected =
        form === 'masterclass'
          ? (share / 1000) * (MASTERCLASS_DAYS / SPAN_DAYS)
          : form === 'bitcoin_guide'
            ? (share + FORM_SHARES.masterclass * (1 - MASTERCLASS_DAYS / SPAN_DAYS)) / 1000
            : share / 1000;
      const slack = form === 'masterclass' ? 0.35 : 0.2;
      expect(n / COUNT, form).toBeGreaterThan(expected * (1 - slack));
      expect(n / COUNT, form).toBeLessThan(expected * (1 + slack));
    }
    for (const row of rows.filter((r) => r.form_type === 'masterclass'))
      expect(NOW.getTime() - new Date(row.received_at).getTime()).toBeLessThan(MASTERCLASS_DAYS * DAY_MS);
    const spam = rows.filter((r) => r.spam);
    expect(spam.length / COUNT).toBeGreaterThan((SPAM_PER_THOUSAND / 1000) * 0.6);
    expect(spam.length / COUNT).toBeLessThan((SPAM_PER_THOUSAND / 1000) * 1.4);
    expect(new Set(spam.map((r) => r.spam_reason))).toEqual(new Set(['honeypot', 'too-fast']));
    expect(rows.filter((r) => !r.spam).every((r) => r.spam_reason === null)).toBe(true);

    const ages = rows.map((r) => (NOW.getTime() - new Date(r.received_at).getTime()) / DAY_MS);
    expect(Math.min(...ages)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...ages)).toBeLessThanOrEqual(SPAN_DAYS);
    expect(Math.max(...ages)).toBeGreaterThan(SPAN_DAYS - 30);
    for (const row of spam)
      expect(NOW.getTime() - new Date(row.received_at).getTime()).toBeLessThan(SPAM_DAYS * DAY_MS);
    // Stored in the order they arrived, as a live table is (the planner's correlation is near 1).
    await query('analyze submissions');
    const order = await query(
      `select correlation from pg_stats where tablename = 'submissions' and attname = 'received_at'`,
    );
    expect(Number(order.rows[0]?.correlation)).toBeGreaterThan(0.95);
    // The hourly sweep clears a hashed client address once it is a day old: none older is left.
    for (const row of rows) {
      const old = NOW.getTime() - new Date(row.received_at).getTime() > DAY_MS;
      expect(row.ip_hash === null).toBe(old);
    }
    // Different people: many distinct addresses, in more than one style.
    const emails = new Set(rows.map((r) => r.fields.email));
    expect(emails.size).toBeGreaterThan(COUNT * 0.5);
    expect([...emails].some((e) => String(e).endsWith('.co.uk'))).toBe(true);
    expect([...emails].some((e) => String(e).endsWith('@gmail.com'))).toBe(true);
  });

  it('writes the consents, bookings and e-mails that go with delivered submissions', async () => {
    const delivered = rows.filter((r) => !r.spam);
    const consented = delivered.filter((r) =>
      ['contact', 'bitcoin_guide', 'masterclass'].includes(r.form_type),
    );
    const records = (await query('select submission_id, consent_id, wording, given_at from consent_records'))
      .rows;
    expect(records).toHaveLength(consented.length);
    const wording = new Map<string, string>(Object.values(consents).map((c) => [c.id, c.text]));
    for (const record of records) expect(record.wording).toBe(wording.get(String(record.consent_id)));

    const requests = delivered.filter((r) => r.form_type === 'booking');
    const bookings = (await query('select submission_id, reference, status from bookings')).rows;
    expect(bookings).toHaveLength(requests.length);
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const booking of bookings) {
      expect(String(booking.reference)).toMatch(REFERENCE_PATTERN);
      expect(byId.get(String(booking.submission_id))?.response?.reference).toBe(booking.reference);
    }
    expect(rows.filter((r) => r.spam).every((r) => r.idempotency_key === null && r.response === null)).toBe(
      true,
    );

    // Every delivered registration holds a place or a waitlist entry at its month's event, which
    // starts after it arrived; no event has more places taken than it has.
    const registrations = delivered.filter((r) => r.form_type === 'masterclass');
    expect(registrations.length).toBeGreaterThan(0);
    const places = (
      await query(`select r.submission_id, r.status, r.event_id, e.starts_at, e.capacity
                   from event_registrations r join events e on e.id = r.event_id`)
    ).rows;
    expect(places).toHaveLength(registrations.length);
    for (const place of places) {
      const row = byId.get(String(place.submission_id))!;
      expect(place.event_id).toBe(row.fields.eventId);
      expect(new Date(String(place.starts_at)).getTime()).toBeGreaterThan(
        new Date(row.received_at).getTime(),
      );
    }
    const taken = (
      await query(`select max(n)::int as most from (select count(*) as n from event_registrations
                   where status = 'registered' group by event_id) t`)
    ).rows[0]?.most;
    expect(Number(taken)).toBeLessThanOrEqual(MASTERCLASS_CAPACITY);

    const mail = (
      await query(`select status, count(*)::int as n, count(distinct submission_id)::int as submissions
                   from outbox where audience = 'owner' group by status`)
    ).rows;
    // Every delivered submission's e-mails went out; nothing waits for the outbox worker.
    expect(mail).toEqual([{ status: 'sent', n: delivered.length, submissions: delivered.length }]);
  });

  it('puts back every index the migrations made', async () => {
    expect(await indexNames()).toEqual(indexesBefore);
  });

  it('leaves Postgres with planner statistics, as autovacuum leaves a live database', () => {
    expect(statisticsAfterSeed).toBeGreaterThan(0);
  });

  it('is what the inbox lists and finds', async () => {
    const db = drizzle(client) as unknown as Db;
    const first = await inboxPage(db, { status: 'received' });
    expect(first.items).toHaveLength(50);
    const found = await inboxPage(db, { status: 'all', q: 'smith' });
    expect(found.items.length).toBeGreaterThan(0);
    for (const item of found.items) {
      expect(
        `${item.name} ${item.email} ${item.company ?? ''} ${item.excerpt ?? ''}`.toLowerCase(),
      ).toContain('smith');
    }
  });
});

function sorted(value: unknown): unknown {
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)),
  );
}
