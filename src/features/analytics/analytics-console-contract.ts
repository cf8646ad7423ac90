/**
 * The console's Visits page (decision 042): visitors and page views for a range of UK days, with
 * the range before it, top pages, referrers, UTM campaigns, devices, goals and funnels; and the
 * weekly report's switch. The owner's alone (decision 032: a helper answers leads, not this).
 */
import { route } from '~/contract/route';
import { isIsoDate, toUtcDate } from '~/lib/uk-dates';
import { z } from '~/lib/zod';

export const ANALYTICS_RANGES = ['today', '7d', '30d', '12m', 'custom'] as const;
export type AnalyticsRange = (typeof ANALYTICS_RANGES)[number];

export const ANALYTICS_RANGE_LABELS: Record<AnalyticsRange, string> = {
  today: 'Today',
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
  '12m': 'Last 12 months',
  custom: 'Custom',
};

/** A custom range is at most this many days (the rollups' retention is longer). */
export const MAX_CUSTOM_DAYS = 5 * 366;

/** The days from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): number {
  return Math.round((toUtcDate(to).getTime() - toUtcDate(from).getTime()) / 86_400_000) + 1;
}

const day = z
  .string({ error: 'Please give the date as YYYY-MM-DD.' })
  .refine(isIsoDate, 'Please give the date as YYYY-MM-DD.')
  .refine((d) => d >= '2000-01-01' && d <= '2099-12-31', 'Please give a date between 2000 and 2099.');

export const analyticsQuery = z
  .object({
    range: z.enum(ANALYTICS_RANGES, { error: 'Please choose a range.' }).default('30d'),
    from: day.optional(),
    to: day.optional(),
  })
  .refine((q) => q.range !== 'custom' || (q.from !== undefined && q.to !== undefined), {
    message: 'Please give both dates of the custom range.',
  })
  .refine((q) => q.range !== 'custom' || !q.from || !q.to || q.from <= q.to, {
    message: 'The first date must not be after the last.',
  })
  .refine((q) => q.range !== 'custom' || !q.from || !q.to || daysBetween(q.from, q.to) <= MAX_CUSTOM_DAYS, {
    message: 'Please choose a range of at most five years.',
  });

export type AnalyticsQuery = z.input<typeof analyticsQuery>;

export type Figures = { visitors: number; views: number };

/** One value of a dimension ('' is none: "Direct / none" in the console). */
export type DimensionRow = { value: string; visitors: number; views: number };

export type FunnelStep = {
  label: string;
  count: number;
  /** Of the step before, 0-1; null for the first or after 0. */ rate: number | null;
};

export type Funnel = { formType: string; name: string; steps: FunnelStep[] };

export type Goal = { formType: string; name: string; count: number; previous: number };

export type AnalyticsSummary = {
  range: AnalyticsRange;
  /** The UK days of the range, inclusive. */
  from: string;
  to: string;
  /** The range of the same length just before. */
  previousFrom: string;
  previousTo: string;
  totals: Figures;
  previousTotals: Figures;
  /** Per UK day (per UK hour, as 'YYYY-MM-DD HH', for today). */
  series: ({ at: string } & Figures)[];
  pages: DimensionRow[];
  referrers: DimensionRow[];
  utmSources: DimensionRow[];
  utmMediums: DimensionRow[];
  utmCampaigns: DimensionRow[];
  devices: DimensionRow[];
  goals: Goal[];
  funnels: Funnel[];
  /** When today's figures were counted (they are counted at most once a minute); null without today. */
  todayCountedAt: string | null;
};

export type AnalyticsSettings = { weeklyReport: boolean };

export const analyticsSettingsBody = z.strictObject({
  weeklyReport: z.boolean({ error: 'Please say whether to send the weekly report.' }),
});

export const analyticsRoutes = {
  summary: route<AnalyticsSummary>()({ method: 'GET', path: '/analytics', query: analyticsQuery }),
  settings: route<AnalyticsSettings>()({ method: 'GET', path: '/analytics/settings' }),
  saveSettings: route<AnalyticsSettings>()({
    method: 'POST',
    path: '/analytics/settings',
    body: analyticsSettingsBody,
  }),
};
