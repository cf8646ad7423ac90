/**
 * The weekly report on the visit counts (decision 042): when it is due, and its words. The
 * report of the week Monday..Sunday just ended is e-mailed to the owner each Monday from
 * WEEKLY_REPORT_FROM (UK time) until that Monday ends; after downtime that covers the whole
 * Monday it is not sent at all (the Visits page has the same figures at any time).
 */

/** The UK wall time on Monday from which the week before's report is due. */
export const WEEKLY_REPORT_FROM = '07:00';

/** The outbox's kind of the report's e-mail. */
export const WEEKLY_REPORT_KIND = 'analytics.weekly';

/** How many pages and referrers the e-mail lists. */
export const WEEKLY_REPORT_TOP = 5;

const plural = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString('en-GB')} ${n === 1 ? one : many}`;

/** A figure against the week before, in words: "up 20% on the week before (100)". */
export function changeWords(now: number, before: number): string {
  if (now === before) return `the same as the week before`;
  if (before === 0) return 'none the week before';
  const percent = Math.round((Math.abs(now - before) / before) * 100);
  const was = before.toLocaleString('en-GB');
  if (percent === 0) return `about the same as the week before (${was})`;
  return `${now > before ? 'up' : 'down'} ${percent}% on the week before (${was})`;
}

export const weeklyReportCopy = {
  subject: (visitors: number, leads: number) =>
    `Your week on the site: ${plural(visitors, 'visitor')}, ${plural(leads, 'lead')}`,
  preheader: (visitors: number, previous: number, leads: number) =>
    `${plural(visitors, 'visitor')} (${changeWords(visitors, previous)}) and ${plural(leads, 'lead')}.`,
  /** `week`: "23 to 29 March 2026". */
  heading: (week: string) => `Your week on the site, ${week}`,
  intro: 'Visitors are counted once a day each, without cookies; the figures are UK days, Monday to Sunday.',
  visitors: 'Visitors',
  views: 'Page views',
  figure: (now: number, before: number) => `${now.toLocaleString('en-GB')}, ${changeWords(now, before)}`,
  pagesHeading: 'Top pages',
  pagesNone: 'No pages were viewed.',
  referrersHeading: 'Where visitors came from',
  referrersNone: 'No visitors.',
  /** A referrer of '' (typed in, a bookmark, or a link without its site's name). */
  direct: 'Direct / none',
  visitorsAndViews: (visitors: number, views: number) =>
    `${plural(visitors, 'visitor')}, ${plural(views, 'view')}`,
  leadsHeading: 'Leads by form',
  lead: (now: number, before: number) =>
    `${now.toLocaleString('en-GB')} (the week before: ${before.toLocaleString('en-GB')})`,
  allLeads: 'All forms',
  funnelsHeading: 'From visit to lead',
  /** A funnel step: its count and its share of the step before. */
  step: (count: number, rate: number | null) =>
    rate === null
      ? count.toLocaleString('en-GB')
      : `${count.toLocaleString('en-GB')} (${Math.round(rate * 100)}% of the step before)`,
  funnelsQuiet: (names: string[]) => `Nobody visited the pages of: ${names.join(', ')}.`,
  button: 'Open Visits',
  footer:
    'You receive this report each Monday morning. To stop it, switch off the weekly report on the Visits page of the console.',
};
