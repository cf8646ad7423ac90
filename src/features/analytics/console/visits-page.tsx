/**
 * The owner's Visits page (decision 042): a range (today, the last 7, 30 or 365 days, or two days
 * of the owner's choosing) kept in the address's query; the totals against the range before, in
 * words; the chart with its figures in a table; the top pages, referrers, campaigns and devices;
 * the goals and the funnels; and the weekly report's switch.
 */
import { useState } from 'react';
import { visitsCopy as copy } from '~/content/visits';
import { useResource, Loaded } from '~/components/console/data';
import { CheckboxField } from '~/components/console/fields';
import { DateFilter, FilterForm } from '~/components/console/filters';
import { post, withQuery } from '~/components/console/http';
import { useAction } from '~/components/console/notices';
import { PageHeading, Section } from '~/components/console/page';
import { useQuery } from '~/components/console/paths';
import { DateTime } from '~/components/console/dates';
import { DataTable, numeric, rowTh, td } from '~/components/console/table';
import { QueryTabs, useQueryChoice } from '~/components/console/tabs';
import { formatLongDate } from '~/lib/uk-dates';
import {
  ANALYTICS_RANGE_LABELS,
  ANALYTICS_RANGES,
  daysBetween,
  type AnalyticsSettings,
  type AnalyticsSummary,
  type DimensionRow,
  type Funnel,
} from '../analytics-console-contract';
import { VisitsChart } from './visits-chart';

const fmt = (n: number) => n.toLocaleString('en-GB');

export function VisitsPage() {
  const [params, setParams] = useQuery();
  const range = useQueryChoice('range', ANALYTICS_RANGES, '30d');
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const complete = range !== 'custom' || (from !== '' && to !== '');
  return (
    <>
      <PageHeading title={copy.title}>{copy.title}</PageHeading>
      <p className="mt-2 max-w-prose text-ink-700">{copy.intro}</p>
      <QueryTabs
        label={copy.rangeLabel}
        name="range"
        values={ANALYTICS_RANGES}
        words={ANALYTICS_RANGE_LABELS}
        current={range}
      />
      {range === 'custom' ? (
        <FilterForm
          // A new address starts the fields from its own dates.
          key={`${from}..${to}`}
          names={['from', 'to']}
          params={params}
          onApply={(next) => {
            next.set('range', 'custom');
            setParams(next);
          }}
          label={copy.customHeading}
          apply={copy.show}
          clear={copy.clear}
          className="sm:grid-cols-2"
          actionsClassName="sm:col-span-2"
        >
          <DateFilter label={copy.from} name="from" params={params} />
          <DateFilter label={copy.to} name="to" params={params} />
        </FilterForm>
      ) : null}
      {complete ? (
        <Figures path={withQuery('/analytics', { range, from, to })} />
      ) : (
        <p className="mt-6 text-ink-700">{copy.chooseDays}</p>
      )}
      <WeeklyReport />
    </>
  );
}

function Figures({ path }: { path: string }) {
  const [resource, reload] = useResource<AnalyticsSummary>(path);
  return (
    <Loaded resource={resource} reload={reload}>
      {(s) => <Summary s={s} />}
    </Loaded>
  );
}

function Summary({ s }: { s: AnalyticsSummary }) {
  const before = copy.before(s.range, daysBetween(s.from, s.to));
  const perHour = s.range === 'today';
  const rangeWords = copy.range(formatLongDate(s.from), formatLongDate(s.to));
  return (
    <>
      <Section id="visits-totals" heading={copy.totalsHeading} className="mt-8">
        <p className="text-ink-700">{rangeWords}</p>
        {s.todayCountedAt ? (
          <p className="text-sm text-ink-700">
            {copy.countedAt} <DateTime iso={s.todayCountedAt} />.
          </p>
        ) : null}
        <ul className="mt-2 grid gap-2 sm:grid-cols-2">
          <li className="card p-4 text-lg font-semibold text-ink-900">
            {copy.change(copy.visitors, s.totals.visitors, s.previousTotals.visitors, before)}
          </li>
          <li className="card p-4 text-lg font-semibold text-ink-900">
            {copy.change(copy.views, s.totals.views, s.previousTotals.views, before)}
          </li>
        </ul>
      </Section>

      <Section id="visits-chart" heading={copy.chartHeading(perHour)} className="mt-8">
        <VisitsChart series={s.series} perHour={perHour} label={copy.chartLabel(perHour, rangeWords)} />
        <details className="mt-4">
          <summary className="cursor-pointer font-medium text-link">{copy.figuresSummary(perHour)}</summary>
          <DataTable
            label={copy.figuresSummary(perHour)}
            minWidth="min-w-[20rem]"
            columns={[copy.when(perHour), numeric(copy.visitors), numeric(copy.views)]}
          >
            {s.series.map((p) => (
              <tr key={p.at}>
                <th scope="row" className={rowTh}>
                  {perHour ? copy.hour(p.at) : formatLongDate(p.at)}
                </th>
                <td className={`${td} text-right`}>{fmt(p.visitors)}</td>
                <td className={`${td} text-right`}>{fmt(p.views)}</td>
              </tr>
            ))}
          </DataTable>
        </details>
      </Section>

      <div className="mt-8 grid gap-8 lg:grid-cols-2">
        <Section id="visits-pages" heading={copy.pagesHeading}>
          <Values rows={s.pages} label={copy.pagesTable} column={copy.page} />
        </Section>
        <Section id="visits-referrers" heading={copy.referrersHeading}>
          <Values rows={s.referrers} label={copy.referrersTable} column={copy.referrer} />
        </Section>
        <Section id="visits-devices" heading={copy.devicesHeading}>
          <Values
            rows={s.devices}
            label={copy.devicesTable}
            column={copy.device}
            words={(v) => copy.deviceNames[v] ?? v}
          />
        </Section>
      </div>

      <Section id="visits-campaigns" heading={copy.campaignsHeading} className="mt-8">
        <div className="grid gap-6 lg:grid-cols-3">
          <Values rows={s.utmSources} label={copy.sources} column={copy.source} />
          <Values rows={s.utmMediums} label={copy.mediums} column={copy.medium} />
          <Values rows={s.utmCampaigns} label={copy.campaigns} column={copy.campaign} />
        </div>
      </Section>

      <Section id="visits-goals" heading={copy.goalsHeading} className="mt-8">
        <DataTable
          label={copy.goalsTable}
          minWidth="min-w-[24rem]"
          columns={[copy.goal, numeric(copy.sent), numeric(copy.sentBefore(before))]}
        >
          {s.goals.map((g) => (
            <tr key={g.formType}>
              <th scope="row" className={rowTh}>
                {g.name}
              </th>
              <td className={`${td} text-right`}>{fmt(g.count)}</td>
              <td className={`${td} text-right`}>{fmt(g.previous)}</td>
            </tr>
          ))}
        </DataTable>
      </Section>

      <Section id="visits-funnels" heading={copy.funnelsHeading} className="mt-8">
        <p className="mt-1 max-w-prose text-ink-700">{copy.funnelsIntro}</p>
        <div className="grid gap-x-8 lg:grid-cols-2">
          {s.funnels.map((f) => (
            <FunnelTable key={f.formType} funnel={f} />
          ))}
        </div>
      </Section>
    </>
  );
}

/** One dimension's top values; '' is "Direct / none". */
function Values({
  rows,
  label,
  column,
  words = (v) => v,
}: {
  rows: DimensionRow[];
  label: string;
  column: string;
  words?: (value: string) => string;
}) {
  if (rows.length === 0)
    return (
      <div>
        <p className="mt-4 font-medium text-ink-900">{label}</p>
        <p className="mt-1 text-ink-700">{copy.none}</p>
      </div>
    );
  return (
    <DataTable
      label={label}
      minWidth="min-w-[18rem]"
      columns={[column, numeric(copy.visitors), numeric(copy.views)]}
    >
      {rows.map((r) => (
        <tr key={r.value}>
          <th scope="row" className={rowTh}>
            {r.value === '' ? copy.direct : words(r.value)}
          </th>
          <td className={`${td} text-right`}>{fmt(r.visitors)}</td>
          <td className={`${td} text-right`}>{fmt(r.views)}</td>
        </tr>
      ))}
    </DataTable>
  );
}

function FunnelTable({ funnel }: { funnel: Funnel }) {
  return (
    <DataTable
      label={funnel.name}
      minWidth="min-w-[20rem]"
      columns={[copy.step, numeric(copy.count), numeric(copy.rate)]}
    >
      {funnel.steps.map((step) => (
        <tr key={step.label}>
          <th scope="row" className={rowTh}>
            {step.label}
          </th>
          <td className={`${td} text-right`}>{fmt(step.count)}</td>
          <td className={`${td} text-right`}>
            {step.rate === null ? (
              <>
                <span aria-hidden="true">–</span>
                <span className="sr-only">{copy.noRate}</span>
              </>
            ) : (
              copy.percent(step.rate)
            )}
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

function WeeklyReport() {
  const [resource, reload] = useResource<AnalyticsSettings>('/analytics/settings');
  return (
    <Section id="visits-report" heading={copy.reportHeading} className="mt-10">
      <Loaded resource={resource} reload={reload}>
        {(settings) => <ReportSwitch initial={settings.weeklyReport} />}
      </Loaded>
    </Section>
  );
}

/** The switch, saved as soon as it is changed (and put back if the save is refused). */
function ReportSwitch({ initial }: { initial: boolean }) {
  const [on, setOn] = useState(initial);
  const { busy, run } = useAction();
  async function change(weeklyReport: boolean) {
    setOn(weeklyReport);
    const saved = await run(
      'report',
      () => post<AnalyticsSettings>('/analytics/settings', { weeklyReport }),
      (answer) => (answer.weeklyReport ? copy.reportOn : copy.reportOff),
    );
    setOn(saved ? saved.weeklyReport : !weeklyReport);
  }
  return (
    <CheckboxField
      className="mt-2"
      label={copy.reportSwitch}
      hint={copy.reportHint}
      checked={on}
      disabled={busy !== null}
      onChange={(checked) => void change(checked)}
    />
  );
}
