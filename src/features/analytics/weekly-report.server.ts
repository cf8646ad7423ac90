/**
 * The weekly report (decision 042): each Monday morning the owner gets one e-mail with the week
 * Monday..Sunday just ended (UK days): visitors and page views against the week before, the top
 * pages and referrers, the leads of each form against the week before and the funnels, with a
 * link to the console's Visits page. The figures are the dashboard's (`analyticsSummary` of the
 * week as a custom range), so the e-mail and the page never disagree; they are counts, and name
 * nobody.
 *
 * When: due from Monday 07:00 UK time (GMT or BST, whichever the clocks show that Monday) until
 * that Monday ends at midnight UK time. After downtime that covers the rest of the Monday, the
 * week's report is not sent at all: on Tuesday it would be news of a week already gone, and the
 * Visits page shows the same figures at any time. The e-mail carries the same limit as its
 * `notAfter`, so a report held up by the relay is dropped at midnight rather than delivered days
 * later (decision 038's rule for reminders).
 *
 * Once: the week's `analytics_reports` row is inserted in the transaction that queues the
 * e-mail (`on conflict do nothing`); a second run, or a second instance, that finds the row
 * taken queues nothing. Switched off on the Visits page (`analytics_settings.weekly_report`,
 * no row meaning on): nothing is sent and no mark is taken, so switching it back on during the
 * Monday still sends that week's report.
 */
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import {
  WEEKLY_REPORT_FROM,
  WEEKLY_REPORT_KIND,
  WEEKLY_REPORT_TOP,
  weeklyReportCopy as copy,
} from '~/content/weekly-report';
import { addDays, formatLongDate, MONTHS, toUtcDate, ukDateOf, ukWallTimeToInstant } from '~/lib/uk-dates';
import type { Db, Queryable } from '~/server/kit/db/client';
import { rowsOf } from '~/server/kit/db/rows';
import type { EmailBlock } from '~/server/kit/mail/layout';
import { enqueueEmails, type OutgoingEmail } from '~/server/kit/mail/outbox';
import { errorCode } from '~/server/kit/log-safe';
import { runEvery, type PeriodicJob } from '~/server/kit/timer';
import type { AnalyticsSummary, DimensionRow } from './analytics-console-contract';
import { analyticsSummary } from './dashboard.server';
import type { FunnelEnds } from './funnel-ends.server';

/** The report that is due: its week's Monday (the mark) and Sunday, and when it stops being due. */
export type DueReport = { week: string; from: string; to: string; until: Date };

/**
 * The report due at `now`, if any: on a Monday (UK) from WEEKLY_REPORT_FROM until the Monday
 * ends, the week Monday..Sunday before it. Undefined at any other time.
 */
export function weeklyReportDue(now: Date): DueReport | undefined {
  const today = ukDateOf(now);
  if (toUtcDate(today).getUTCDay() !== 1) return undefined;
  if (now.getTime() < ukWallTimeToInstant(today, WEEKLY_REPORT_FROM).getTime()) return undefined;
  // Midnight at the end of the Monday, as UK clocks show it (no clock change falls on a Monday night).
  const until = ukWallTimeToInstant(addDays(today, 1), '00:00');
  if (now.getTime() >= until.getTime()) return undefined;
  return { week: addDays(today, -7), from: addDays(today, -7), to: addDays(today, -1), until };
}

/** "23 to 29 March 2026", "30 March to 5 April 2026", "29 December 2025 to 4 January 2026". */
export function weekWords(from: string, to: string): string {
  const [fy, fm, fd] = from.split('-').map(Number) as [number, number, number];
  const [ty, tm] = to.split('-').map(Number) as [number, number, number];
  if (fy !== ty) return `${formatLongDate(from)} to ${formatLongDate(to)}`;
  if (fm !== tm) return `${fd} ${MONTHS[fm - 1]} to ${formatLongDate(to)}`;
  return `${fd} to ${formatLongDate(to)}`;
}

const top = (rows: readonly DimensionRow[]) =>
  [...rows].sort((a, b) => b.visitors - a.visitors || b.views - a.views).slice(0, WEEKLY_REPORT_TOP);

function dimensionBlocks(
  heading: string,
  none: string,
  rows: readonly DimensionRow[],
  label: (value: string) => string,
): EmailBlock[] {
  const shown = top(rows);
  return [
    { type: 'paragraph', text: heading },
    shown.length === 0
      ? { type: 'small', text: none }
      : {
          type: 'fields',
          rows: shown.map(
            (row) => [label(row.value), copy.visitorsAndViews(row.visitors, row.views)] as const,
          ),
        },
  ];
}

/** The leads of the week: the goals' counts added up. */
export const leadsOf = (summary: Pick<AnalyticsSummary, 'goals'>) =>
  summary.goals.reduce((sum, goal) => sum + goal.count, 0);

/** The report's e-mail to `to`, from the week's summary. */
export function weeklyReportEmail(
  summary: AnalyticsSummary,
  o: { to: string; visitsUrl: string; notAfter: Date },
): OutgoingEmail {
  const { totals, previousTotals: before } = summary;
  const leads = leadsOf(summary);
  const leadsBefore = summary.goals.reduce((sum, goal) => sum + goal.previous, 0);
  const active = summary.funnels.filter((f) => f.steps.some((step) => step.count > 0));
  const quiet = summary.funnels.filter((f) => !active.includes(f)).map((f) => f.name);
  const blocks: EmailBlock[] = [
    { type: 'small', text: copy.intro },
    {
      type: 'fields',
      rows: [
        [copy.visitors, copy.figure(totals.visitors, before.visitors)],
        [copy.views, copy.figure(totals.views, before.views)],
      ],
    },
    ...dimensionBlocks(copy.pagesHeading, copy.pagesNone, summary.pages, (path) => path),
    ...dimensionBlocks(
      copy.referrersHeading,
      copy.referrersNone,
      summary.referrers,
      (host) => host || copy.direct,
    ),
    { type: 'paragraph', text: copy.leadsHeading },
    {
      type: 'fields',
      rows: [
        ...summary.goals.map((goal) => [goal.name, copy.lead(goal.count, goal.previous)] as const),
        [copy.allLeads, copy.lead(leads, leadsBefore)],
      ],
    },
    { type: 'paragraph', text: copy.funnelsHeading },
    ...active.flatMap((funnel): EmailBlock[] => [
      { type: 'small', text: funnel.name },
      {
        type: 'fields',
        rows: funnel.steps.map((step) => [step.label, copy.step(step.count, step.rate)] as const),
      },
    ]),
    ...(quiet.length > 0 ? [{ type: 'small', text: copy.funnelsQuiet(quiet) } as const] : []),
    { type: 'button', label: copy.button, url: o.visitsUrl },
  ];
  return {
    kind: WEEKLY_REPORT_KIND,
    to: o.to,
    subject: copy.subject(totals.visitors, leads),
    notAfter: o.notAfter,
    content: {
      preheader: copy.preheader(totals.visitors, before.visitors, leads),
      heading: copy.heading(weekWords(summary.from, summary.to)),
      blocks,
      footer: [{ type: 'small', text: copy.footer }],
    },
  };
}

/** Whether the owner wants the report (no settings row: yes). */
export async function weeklyReportOn(q: Queryable): Promise<boolean> {
  const [row] = rowsOf<{ on: boolean }>(
    await q.execute(sql`select weekly_report as "on" from analytics_settings where id = 1`),
  );
  return row?.on ?? true;
}

async function reported(q: Queryable, week: string): Promise<boolean> {
  return rowsOf(await q.execute(sql`select 1 from analytics_reports where week = ${week}::date`)).length > 0;
}

export type WeeklyReportDeps = {
  db: Db;
  ownerEmail: string;
  funnelEnds: FunnelEnds;
  /** The console's Visits page, absolute (the e-mail's button). */
  visitsUrl: string;
};

/**
 * `queued`: this run queued the week's report (its outbox row's id). `not due`: outside Monday
 * 07:00..midnight (UK). `off`: switched off. `done`: the week's report was queued already, by
 * this instance or another.
 */
export type WeeklyReportOutcome =
  | { outcome: 'queued'; week: string; outboxId: number }
  | { outcome: 'not due' }
  | { outcome: 'off' | 'done'; week: string };

/** Queues the week's report if it is due, wanted and not yet queued. */
export async function runWeeklyReport(deps: WeeklyReportDeps & { now?: Date }): Promise<WeeklyReportOutcome> {
  const { db, now = new Date() } = deps;
  const due = weeklyReportDue(now);
  if (!due) return { outcome: 'not due' };
  const { week } = due;
  if (await reported(db, week)) return { outcome: 'done', week };
  if (!(await weeklyReportOn(db))) return { outcome: 'off', week };
  // Days the counting's chores have not rolled up yet (after a stop) are read from the raw views.
  const summary = await analyticsSummary(
    db,
    { range: 'custom', from: due.from, to: due.to },
    // Last week holds no today: nothing of today is counted or read.
    { funnelEnds: deps.funnelEnds, now, todayMaxAgeMs: 0 },
  );
  const email = weeklyReportEmail(summary, {
    to: deps.ownerEmail,
    visitsUrl: deps.visitsUrl,
    notAfter: due.until,
  });
  return db.transaction(async (tx): Promise<WeeklyReportOutcome> => {
    const taken = rowsOf(
      await tx.execute(sql`
        insert into analytics_reports (week, queued_at) values (${week}::date, ${now})
        on conflict (week) do nothing returning week`),
    );
    if (taken.length === 0) return { outcome: 'done', week };
    const [outboxId] = await enqueueEmails(tx, null, [email]);
    await tx.execute(
      sql`update analytics_reports set outbox_id = ${String(outboxId)} where week = ${week}::date`,
    );
    return { outcome: 'queued', week, outboxId: outboxId! };
  });
}

/**
 * The report's schedule: a first look ~20 s after start, then every 5 minutes (a report is due
 * for 17 hours each Monday, so a run that fails is tried again long before it stops being due).
 */
export function startWeeklyReport(
  deps: WeeklyReportDeps & { log: FastifyBaseLogger; wakeOutbox(): void; clock?: () => Date },
  schedule = { firstAfterMs: 20_000, everyMs: 5 * 60_000 },
): PeriodicJob<WeeklyReportOutcome | undefined> {
  return runEvery(async () => {
    try {
      const result = await runWeeklyReport({ ...deps, now: deps.clock?.() });
      if (result.outcome === 'queued') {
        deps.log.info({ week: result.week, outboxId: result.outboxId }, 'visit counts: weekly report queued');
        deps.wakeOutbox();
      }
      return result;
    } catch (error) {
      deps.log.warn(
        { err: { code: errorCode(error) } },
        'visit counts: the weekly report failed; tried again in 5 minutes',
      );
      return undefined;
    }
  }, schedule);
}
