/**
 * The weekly report of the visit counts (issue #27 item 4, decision 042), on
 * PostgreSQL with a real SMTP peer: nothing before Monday 07:00 (UK time, GMT or BST); at 07:05
 * one e-mail to the owner with last week's figures against the week before (read from the
 * rollups and the submissions), delivered with its link to the Visits page and no visitor's
 * address or name; a second run, or two at once on two instances, queue nothing more; switched
 * off, nothing (and on again during the Monday, the report); after downtime past the Monday,
 * nothing for that week, and a report held up past its Monday is not delivered; the week's edges
 * across the clocks' changes in March and October.
 */
import { sql } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { changeWords } from '../../src/content/weekly-report';
import {
  runWeeklyReport,
  startWeeklyReport,
  weeklyReportDue,
  weekWords,
  type WeeklyReportOutcome,
} from '../../src/features/analytics/weekly-report.server';
import type { FunnelEnds } from '../../src/features/analytics/funnel-ends.server';
import { addDays, toUtcDate, ukDateOf, ukWallTimeToInstant } from '../../src/lib/uk-dates';
import type { Db } from '../../src/server/kit/db/client';
import type { StoredMessage } from '../../src/server/kit/db/schema';
import { renderEmail } from '../../src/server/kit/mail/layout';
import { storedMessage } from '../../src/server/kit/mail/outbox';
import {
  makeFormsApp,
  OWNER,
  startSmtpPeer,
  testDrivers,
  until,
  type FormsTestApp,
  type SmtpPeer,
} from './forms-support';

const drivers = await testDrivers('weekly_report');
const VISITS_URL = 'https://www.sterling.test/owner/visits';
const uk = (date: string, hhmm: string) => ukWallTimeToInstant(date, hhmm);

/** The first Monday (UK) after today: a week whose report is still to come, whenever the suite runs. */
function nextMonday(): string {
  const today = ukDateOf(new Date());
  const dow = toUtcDate(today).getUTCDay();
  return addDays(today, (8 - dow) % 7 || 7);
}

describe('when the report is due', () => {
  it('from Monday 07:00 UK time to the end of that Monday, in GMT', () => {
    // Monday 1 November 2027, the day after the clocks went back: 07:00 GMT is 07:00 UTC.
    expect(weeklyReportDue(new Date('2027-11-01T06:59:59Z'))).toBeUndefined();
    const due = weeklyReportDue(new Date('2027-11-01T07:00:00Z'));
    expect(due).toEqual({
      week: '2027-10-25',
      from: '2027-10-25',
      to: '2027-10-31',
      until: new Date('2027-11-02T00:00:00Z'),
    });
    expect(weeklyReportDue(new Date('2027-11-01T23:59:59Z'))?.week).toBe('2027-10-25');
    expect(weeklyReportDue(new Date('2027-11-02T00:00:00Z'))).toBeUndefined();
  });

  it('from Monday 07:00 UK time to the end of that Monday, in BST', () => {
    // Monday 29 March 2027, the day after the clocks went forward: 07:00 BST is 06:00 UTC.
    expect(weeklyReportDue(new Date('2027-03-29T05:59:59Z'))).toBeUndefined();
    expect(weeklyReportDue(new Date('2027-03-29T06:00:00Z'))).toEqual({
      week: '2027-03-22',
      from: '2027-03-22',
      to: '2027-03-28',
      until: new Date('2027-03-29T23:00:00Z'),
    });
    // 23:30 UTC on Monday is already Tuesday 00:30 BST.
    expect(weeklyReportDue(new Date('2027-03-29T22:59:59Z'))?.week).toBe('2027-03-22');
    expect(weeklyReportDue(new Date('2027-03-29T23:00:00Z'))).toBeUndefined();
    // 23:30 UTC on Sunday is Monday 00:30 BST: Monday, but long before 07:00.
    expect(weeklyReportDue(new Date('2027-03-28T23:30:00Z'))).toBeUndefined();
  });

  it('never on another day of the week', () => {
    for (let day = 2; day <= 7; day += 1) {
      const date = addDays('2027-11-01', day - 1);
      for (const hhmm of ['00:00', '07:00', '07:05', '12:00', '23:59']) {
        expect(weeklyReportDue(uk(date, hhmm)), `${date} ${hhmm}`).toBeUndefined();
      }
    }
  });

  it('says its week and its changes in words', () => {
    expect(weekWords('2027-03-22', '2027-03-28')).toBe('22 to 28 March 2027');
    expect(weekWords('2027-03-29', '2027-04-04')).toBe('29 March to 4 April 2027');
    expect(weekWords('2026-12-28', '2027-01-03')).toBe('28 December 2026 to 3 January 2027');
    expect(changeWords(120, 100)).toBe('up 20% on the week before (100)');
    expect(changeWords(340, 358)).toBe('down 5% on the week before (358)');
    expect(changeWords(5, 5)).toBe('the same as the week before');
    expect(changeWords(5, 0)).toBe('none the week before');
    expect(changeWords(10_001, 10_000)).toBe('about the same as the week before (10,000)');
  });
});

type Seed = { day: string; dimension: string; value: string; visitors: number; views: number };

describe.each(drivers)('the weekly report on $name', (driver) => {
  let t: FormsTestApp;
  let second: FormsTestApp | undefined;
  let smtp: SmtpPeer;
  let drop: () => Promise<void>;
  let db: Db;
  const ends: [string, string][] = [];
  const funnelEnds: FunnelEnds = {
    booking: async (_q, from, to) => {
      ends.push([from, to]);
      return 1;
    },
  };
  const run = (now: Date, on: Db = db) =>
    runWeeklyReport({ db: on, ownerEmail: OWNER, funnelEnds, visitsUrl: VISITS_URL, now });
  const reports = () =>
    t.query<{
      id: string;
      to_address: string;
      audience: string;
      message: StoredMessage | string;
      status: string;
      last_error: string | null;
    }>(
      `select id::text, to_address, audience, message, status, last_error from outbox where kind = 'analytics.weekly' order by id`,
    );
  const marks = () =>
    t.query<{ week: string; outbox_id: string }>(
      `select week::text as week, outbox_id from analytics_reports order by week`,
    );
  /** The queued report's text and HTML, as the layout renders them. */
  async function rendered() {
    const [row] = await reports();
    const message = storedMessage(row!.message as StoredMessage) as StoredMessage;
    return { row: row!, message, ...renderEmail(message.content) };
  }

  async function seedDays(rows: { day: string; visitors: number; views: number }[]) {
    for (const r of rows) {
      await db.execute(
        sql`insert into analytics_days (day, visitors, views) values (${r.day}::date, ${r.visitors}, ${r.views})`,
      );
    }
  }
  async function seedDaily(rows: Seed[]) {
    for (const r of rows) {
      await db.execute(sql`
        insert into analytics_daily (day, dimension, value, visitors, views)
        values (${r.day}::date, ${r.dimension}, ${r.value}, ${r.visitors}, ${r.views})`);
    }
  }
  let n = 0;
  async function submission(formType: string, at: Date, spam = false) {
    n += 1;
    const fields = {
      firstName: 'Alice',
      lastName: `Visitor${n}`,
      email: `visitor${n}@example.org`,
      message: 'Hello',
    };
    await db.execute(sql`
      insert into submissions (id, form_type, fields, received_at, spam)
      values (gen_random_uuid(), ${formType}, ${JSON.stringify(fields)}::jsonb, ${at.toISOString()}::timestamptz, ${spam})`);
  }

  beforeAll(async () => {
    smtp = await startSmtpPeer();
    const env = await driver.env();
    drop = env.drop;
    t = await makeFormsApp({ SMTP_URL: smtp.url, ...env.env });
    db = t.app.services.database.db;
    if (driver.name === 'PostgreSQL') second = await makeFormsApp({ SMTP_URL: smtp.url, ...env.env });
  });
  afterAll(async () => {
    await second?.app.close();
    await t?.app.close();
    await smtp?.close();
    await drop?.();
  });
  beforeEach(async () => {
    ends.length = 0;
    for (const table of [
      'outbox',
      'submissions',
      'analytics_reports',
      'analytics_settings',
      'analytics_days',
      'analytics_daily',
    ]) {
      await t.query(`delete from ${table}`);
    }
  });

  /** Last week (the report's) and the week before, with figures to compare. */
  async function seedTwoWeeks(monday: string) {
    const week = addDays(monday, -7);
    const before = addDays(monday, -14);
    const visitors = [10, 20, 15, 25, 30, 12, 8]; // 120
    const views = [30, 50, 45, 70, 80, 40, 25]; // 340
    await seedDays(visitors.map((v, i) => ({ day: addDays(week, i), visitors: v, views: views[i]! })));
    await seedDays(
      [...Array(7).keys()].map((i) => ({
        day: addDays(before, i),
        visitors: i < 2 ? 20 : 12,
        views: i < 2 ? 54 : 50,
      })),
    ); // 100, 358
    // A day outside both weeks, that neither counts.
    await seedDays([{ day: addDays(before, -1), visitors: 999, views: 999 }]);
    await seedDaily([
      { day: week, dimension: 'page', value: '/', visitors: 30, views: 60 },
      { day: addDays(week, 3), dimension: 'page', value: '/', visitors: 30, views: 50 },
      { day: week, dimension: 'page', value: '/book', visitors: 30, views: 40 },
      { day: week, dimension: 'page', value: '/contact', visitors: 20, views: 25 },
      { day: week, dimension: 'page', value: '/resources', visitors: 15, views: 20 },
      { day: week, dimension: 'page', value: '/about', visitors: 10, views: 12 },
      { day: week, dimension: 'page', value: '/articles/sixth-page', visitors: 5, views: 5 },
      { day: before, dimension: 'page', value: '/pricing-week-before', visitors: 90, views: 90 },
      { day: week, dimension: 'referrer', value: '', visitors: 70, views: 200 },
      { day: week, dimension: 'referrer', value: 'www.google.com', visitors: 30, views: 80 },
      { day: week, dimension: 'referrer', value: 'duckduckgo.com', visitors: 10, views: 20 },
      { day: week, dimension: 'referrer', value: 'www.linkedin.com', visitors: 5, views: 10 },
      { day: week, dimension: 'referrer', value: 'x.com', visitors: 3, views: 5 },
      { day: week, dimension: 'referrer', value: 'news.sixth-referrer.example', visitors: 2, views: 2 },
      { day: week, dimension: 'funnel', value: 'booking', visitors: 30, views: 40 },
      { day: week, dimension: 'started', value: 'booking', visitors: 6, views: 6 },
    ]);
    // Last week: two booking requests (one at 23:30 on the Sunday) and a contact message; a
    // message held as spam, and one sent after midnight (this week's), that do not count.
    await submission('booking', uk(addDays(week, 1), '10:00'));
    await submission('booking', uk(addDays(week, 6), '23:30'));
    await submission('contact', uk(addDays(week, 2), '09:00'));
    await submission('contact', uk(addDays(week, 2), '09:30'), true);
    await submission('contact', uk(monday, '00:30'));
    // The week before: one contact message.
    await submission('contact', uk(addDays(before, 4), '12:00'));
  }

  it('before Monday 07:00 nothing; at 07:05 one report of last week against the week before', async () => {
    const monday = nextMonday();
    await seedTwoWeeks(monday);
    expect(await run(uk(addDays(monday, -1), '18:00'))).toEqual({ outcome: 'not due' });
    expect(await run(uk(monday, '06:59'))).toEqual({ outcome: 'not due' });
    expect(await reports()).toEqual([]);
    expect(await marks()).toEqual([]);

    const result = await run(uk(monday, '07:05'));
    expect(result).toMatchObject({ outcome: 'queued', week: addDays(monday, -7) });
    const { row, message, text, html } = await rendered();
    expect(row).toMatchObject({ to_address: OWNER, audience: 'owner' });
    expect(await marks()).toEqual([{ week: addDays(monday, -7), outbox_id: row.id }]);
    // Not sent once the Monday is over (UK midnight).
    expect(message.notAfter).toBe(uk(addDays(monday, 1), '00:00').toISOString());
    expect(message.subject).toBe('Your week on the site: 120 visitors, 3 leads');
    expect(ends).toEqual([[addDays(monday, -7), addDays(monday, -1)]]);

    expect(text).toContain(`Your week on the site, ${weekWords(addDays(monday, -7), addDays(monday, -1))}`);
    expect(text).toContain('Visitors: 120, up 20% on the week before (100)');
    expect(text).toContain('Page views: 340, down 5% on the week before (358)');
    // The top five pages and referrers, summed over the week's days.
    expect(text).toContain('Top pages\n\n/: 60 visitors, 110 views\n/book: 30 visitors, 40 views');
    expect(text).toContain('/about: 10 visitors, 12 views');
    expect(text).not.toContain('sixth');
    expect(text).not.toContain('/pricing-week-before');
    expect(text).toContain('Direct / none: 70 visitors, 200 views\nwww.google.com: 30 visitors, 80 views');
    expect(text).toContain('x.com: 3 visitors, 5 views');
    // Leads by form, against the week before.
    expect(text).toContain('Strategy session booking: 2 (the week before: 0)');
    expect(text).toContain('Contact message: 1 (the week before: 1)');
    expect(text).toContain('All forms: 3 (the week before: 1)');
    // The booking funnel, its end counted by the feature that owns it.
    expect(text).toContain(
      'Strategy session booking\n\nVisited the page: 30\nStarted the form: 6 (20% of the step before)\nSent: 2 (33% of the step before)\nConfirmed by the owner: 1 (50% of the step before)',
    );
    expect(text).toContain(
      'Nobody visited the pages of: Free guide, Newsletter sign-up, Masterclass registration.',
    );
    expect(text).toContain(`Open Visits: ${VISITS_URL}`);
    expect(html).toContain(`href="${VISITS_URL}"`);
    // Counts only: no visitor's address or name.
    for (const part of [text, html, JSON.stringify(message)]) {
      expect(part).not.toMatch(/example\.org|Alice|Visitor\d/);
    }

    // Delivered to the owner by the outbox, as it was queued.
    const mail = (await until(
      () => smtp.mails.find((m) => m.header('subject') === message.subject),
      15_000,
    ))!;
    expect(mail.envelopeTo).toEqual([OWNER]);
    expect(mail.text).toContain('Visitors: 120, up 20% on the week before (100)');
    expect(mail.html).toContain(`href="${VISITS_URL}"`);
    expect(`${mail.text}${mail.html}`).not.toMatch(/example\.org|Alice/);
  });

  it('a second run queues nothing more, nor do two at once (on two instances on PostgreSQL)', async () => {
    const monday = nextMonday();
    await seedTwoWeeks(monday);
    expect((await run(uk(monday, '07:05'))).outcome).toBe('queued');
    expect(await run(uk(monday, '07:10'))).toEqual({ outcome: 'done', week: addDays(monday, -7) });
    expect(await reports()).toHaveLength(1);

    await t.query('delete from analytics_reports');
    await t.query(`delete from outbox where kind = 'analytics.weekly'`);
    const other = second?.app.services.database.db ?? db;
    const both = await Promise.all([run(uk(monday, '09:00')), run(uk(monday, '09:00'), other)]);
    expect(both.map((r: WeeklyReportOutcome) => r.outcome).sort()).toEqual(['done', 'queued']);
    expect(await reports()).toHaveLength(1);
    expect(await marks()).toHaveLength(1);
  });

  it('switched off: nothing, and no mark; switched on again during the Monday: the report', async () => {
    const monday = nextMonday();
    await t.query(`insert into analytics_settings (id, weekly_report) values (1, false)`);
    expect(await run(uk(monday, '07:05'))).toEqual({ outcome: 'off', week: addDays(monday, -7) });
    expect(await reports()).toEqual([]);
    expect(await marks()).toEqual([]);

    await t.query(`update analytics_settings set weekly_report = true where id = 1`);
    expect((await run(uk(monday, '15:00'))).outcome).toBe('queued');
    // An empty week says so in words.
    const { message, text } = await rendered();
    expect(message.subject).toBe('Your week on the site: 0 visitors, 0 leads');
    expect(text).toContain('Visitors: 0, the same as the week before');
    expect(text).toContain('No pages were viewed.');
  });

  it('after downtime past the Monday: nothing for that week; the next Monday reports the next week', async () => {
    const monday = nextMonday();
    expect((await run(uk(monday, '23:59'))).outcome).toBe('queued');
    await t.query('delete from analytics_reports');
    await t.query(`delete from outbox where kind = 'analytics.weekly'`);

    for (const at of [
      uk(addDays(monday, 1), '00:00'),
      uk(addDays(monday, 1), '09:00'),
      uk(addDays(monday, 3), '07:05'),
    ]) {
      expect(await run(at)).toEqual({ outcome: 'not due' });
    }
    expect(await reports()).toEqual([]);
    expect(await marks()).toEqual([]);
    expect(await run(uk(addDays(monday, 7), '07:05'))).toMatchObject({ outcome: 'queued', week: monday });
  });

  it('a report held up past its Monday (the relay down) is not delivered late', async () => {
    // A Monday at least a week gone: queued as at 07:05 that day, it reaches the worker after its midnight.
    const monday = addDays(nextMonday(), -14);
    const result = await run(uk(monday, '07:05'));
    expect(result.outcome).toBe('queued');
    const skipped = await until(async () => {
      const [row] = await reports();
      return row?.status === 'skipped' ? row : undefined;
    });
    expect(skipped.last_error).toBe('late');
    const { message } = await rendered();
    expect(
      smtp.mails.some(
        (m) =>
          m.header('subject') === message.subject &&
          m.text.includes(weekWords(addDays(monday, -7), addDays(monday, -1))),
      ),
    ).toBe(false);
  });

  it('the week across the clocks going forward (March) is Monday to Sunday in UK time', async () => {
    // Reported on Monday 29 March 2027: the week of 22 to 28 March, whose Sunday began in GMT and ended in BST.
    await submission('contact', new Date('2027-03-21T23:30:00Z')); // Sunday 21 March 23:30 GMT: the week before
    await submission('contact', new Date('2027-03-22T00:30:00Z')); // Monday 22 March 00:30 GMT
    await submission('contact', new Date('2027-03-28T22:30:00Z')); // Sunday 28 March 23:30 BST
    await submission('contact', new Date('2027-03-28T23:30:00Z')); // Monday 29 March 00:30 BST: this week
    expect(await run(new Date('2027-03-29T05:55:00Z'))).toEqual({ outcome: 'not due' }); // 06:55 BST
    expect(await run(new Date('2027-03-29T06:05:00Z'))).toMatchObject({
      outcome: 'queued',
      week: '2027-03-22',
    }); // 07:05 BST
    const { message, text } = await rendered();
    expect(message.notAfter).toBe('2027-03-29T23:00:00.000Z');
    expect(text).toContain('Your week on the site, 22 to 28 March 2027');
    expect(text).toContain('Contact message: 2 (the week before: 1)');
  });

  it('the week across the clocks going back (October) is Monday to Sunday in UK time', async () => {
    // Reported on Monday 1 November 2027: the week of 25 to 31 October, whose Sunday began in BST.
    await submission('contact', new Date('2027-10-24T22:30:00Z')); // Sunday 24 October 23:30 BST: the week before
    await submission('contact', new Date('2027-10-24T23:30:00Z')); // Monday 25 October 00:30 BST
    await submission('contact', new Date('2027-10-31T23:30:00Z')); // Sunday 31 October 23:30 GMT
    await submission('contact', new Date('2027-11-01T00:30:00Z')); // Monday 1 November 00:30 GMT: this week
    expect(await run(new Date('2027-11-01T06:05:00Z'))).toEqual({ outcome: 'not due' }); // 06:05 GMT
    expect(await run(new Date('2027-11-01T07:05:00Z'))).toMatchObject({
      outcome: 'queued',
      week: '2027-10-25',
    });
    const { message, text } = await rendered();
    expect(message.notAfter).toBe('2027-11-02T00:00:00.000Z');
    expect(text).toContain('Your week on the site, 25 to 31 October 2027');
    expect(text).toContain('Contact message: 2 (the week before: 1)');
  });

  it('runs on its timer: a due report is queued by a tick and the outbox woken; stop ends it', async () => {
    const monday = nextMonday();
    let woken = 0;
    const job = startWeeklyReport(
      {
        db,
        ownerEmail: OWNER,
        funnelEnds,
        visitsUrl: VISITS_URL,
        log: pino({ level: 'silent' }),
        wakeOutbox: () => (woken += 1),
        clock: () => uk(monday, '08:00'),
      },
      { firstAfterMs: 10, everyMs: 3_600_000 },
    );
    await until(() => woken === 1);
    expect(await marks()).toHaveLength(1);
    expect(await job.run()).toEqual({ outcome: 'done', week: addDays(monday, -7) });
    await job.stop();
    expect(woken).toBe(1);
    expect(await reports()).toHaveLength(1);
  });
});
