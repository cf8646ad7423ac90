/** The words of the console's Visits page (decision 042). */

const number = (n: number) => n.toLocaleString('en-GB');

export const visitsCopy = {
  title: 'Visits',
  intro:
    'Visitors and page views of the site, counted without cookies. A visitor is counted once a day; today’s figures grow as the day goes on.',
  rangeLabel: 'Range',
  customHeading: 'A range of your own',
  from: 'First day',
  to: 'Last day',
  show: 'Show',
  clear: 'Back to the last 30 days',
  chooseDays: 'Choose the first and last day of the range, then press Show.',
  /** The range's first and last day, written out ("1 June 2026"). */
  range: (from: string, to: string) => (from === to ? from : `${from} to ${to}`),
  totalsHeading: 'Totals',
  /** Before the moment today was counted ("3 Jun 2025, 14:05"). */
  countedAt: 'Today’s figures were last counted on',
  visitors: 'Visitors',
  views: 'Page views',
  /** "the 30 days before" */
  before: (range: string, days: number) =>
    range === '12m'
      ? 'the 12 months before'
      : days === 1
        ? 'the day before'
        : `the ${number(days)} days before`,
  /** "Visitors 120, up 20% on the 30 days before" */
  change: (label: string, now: number, was: number, before: string) => {
    const head = `${label} ${number(now)}`;
    if (was === 0) return now === 0 ? `${head}, none in ${before} either` : `${head}, none in ${before}`;
    if (now === was) return `${head}, the same as ${before}`;
    const percent = Math.round((Math.abs(now - was) / was) * 100);
    const size = percent === 0 ? 'less than 1%' : `${number(percent)}%`;
    return `${head}, ${now > was ? 'up' : 'down'} ${size} on ${before}`;
  },
  chartHeading: (perHour: boolean) =>
    perHour ? 'Visitors and page views per hour' : 'Visitors and page views per day',
  chartLabel: (perHour: boolean, range: string) =>
    `Chart of visitors and page views per ${perHour ? 'hour' : 'day'}, ${range}. The same figures are in the table below it.`,
  chartLoading: 'Drawing the chart…',
  figuresSummary: (perHour: boolean) => (perHour ? 'The figures per hour' : 'The figures per day'),
  when: (perHour: boolean) => (perHour ? 'Hour' : 'Day'),
  hour: (at: string) => `${at.slice(11, 13)}:00`,
  pagesHeading: 'Top pages',
  pagesTable: 'Pages by visitors',
  page: 'Page',
  referrersHeading: 'Where visitors came from',
  referrersTable: 'Sites by visitors',
  referrer: 'Site',
  direct: 'Direct / none',
  campaignsHeading: 'Campaigns (UTM tags)',
  sources: 'Sources',
  mediums: 'Mediums',
  campaigns: 'Campaigns',
  source: 'Source',
  medium: 'Medium',
  campaign: 'Campaign',
  devicesHeading: 'Devices',
  devicesTable: 'Devices by visitors',
  device: 'Device',
  deviceNames: { desktop: 'Computer', mobile: 'Phone', tablet: 'Tablet' } as Record<string, string>,
  none: 'None in this range.',
  goalsHeading: 'Goals',
  goalsTable: 'Forms sent',
  goal: 'Form',
  sent: 'Sent',
  sentBefore: (before: string) => `Sent in ${before}`,
  funnelsHeading: 'Funnels',
  funnelsIntro:
    'For each form: the visitors of the pages that hold it, those who started filling it in, the forms sent, and what came of them. Each rate is of the step before.',
  step: 'Step',
  count: 'Count',
  rate: 'Rate',
  noRate: 'none',
  percent: (rate: number) => `${(rate * 100).toLocaleString('en-GB', { maximumFractionDigits: 1 })}%`,
  reportHeading: 'Weekly report',
  reportSwitch: 'Send me the weekly report each Monday',
  reportHint: 'An e-mail with the last week’s figures',
  reportOn: 'The weekly report will be sent each Monday.',
  reportOff: 'The weekly report is switched off.',
};
