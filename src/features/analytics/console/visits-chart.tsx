/**
 * The Visits page's chart: visitors and page views per day (per hour for today), drawn by uPlot.
 * uPlot is loaded by this component when it first shows, so it reaches the console's Visits page
 * alone, never a public page's bundle; its few rules are in the console's stylesheet. The chart is one image to a screen
 * reader (named by `label`); the figures it draws are in the table beside it (VisitsPage).
 */
import { useEffect, useRef, useState } from 'react';
import type uPlot from 'uplot';
import { visitsCopy as copy } from '~/content/visits';
import type { AnalyticsSummary } from '../analytics-console-contract';

/** uPlot's axis date template with the day before the month, as the UK writes dates ("7/12/26"). */
export const ukDateTemplate = (template: string) => template.replaceAll('{M}/{D}', '{D}/{M}');

/** The lines' colours: the site's ink and a deep amber, each above 4.5:1 on white. */
const COLOURS = { visitors: '#1e3a5f', views: '#a14a00' };

/** 'YYYY-MM-DD' or 'YYYY-MM-DD HH' as seconds, the UK day or hour written as if it were UTC. */
function secondsOf(at: string): number {
  const [date = '', hour = '0'] = at.split(' ');
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return Date.UTC(y, m - 1, d, Number(hour)) / 1000;
}

export function VisitsChart({
  series,
  perHour,
  label,
}: {
  series: AnalyticsSummary['series'];
  perHour: boolean;
  label: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [drawn, setDrawn] = useState(false);

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    let chart: uPlot | undefined;
    let observer: ResizeObserver | undefined;
    let gone = false;
    void import('uplot').then(({ default: UPlot }) => {
      if (gone) return;
      const size = () => ({ width: Math.max(240, element.clientWidth), height: 260 });
      const data: uPlot.AlignedData = [
        series.map((p) => secondsOf(p.at)),
        series.map((p) => p.visitors),
        series.map((p) => p.views),
      ];
      chart = new UPlot(
        {
          ...size(),
          // The dates are UK days and hours written as UTC: shown as they are, wherever the browser is.
          tzDate: (ts) => UPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
          // UK dates on the axis: day before month (uPlot writes "12/7" for 7 December).
          fmtDate: (template) => UPlot.fmtDate(ukDateTemplate(template)),
          legend: { show: false },
          scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(4, max)] } },
          axes: [
            {},
            {
              values: (_u, ticks) => ticks.map((t) => (Number.isInteger(t) ? t.toLocaleString('en-GB') : '')),
            },
          ],
          series: [
            {},
            {
              label: copy.visitors,
              stroke: COLOURS.visitors,
              width: 2,
              points: { show: series.length <= 62 },
            },
            {
              label: copy.views,
              stroke: COLOURS.views,
              width: 2,
              dash: [6, 4],
              points: { show: series.length <= 62 },
            },
          ],
        },
        data,
        element,
      );
      observer = new ResizeObserver(() => chart?.setSize(size()));
      observer.observe(element);
      setDrawn(true);
    });
    return () => {
      gone = true;
      observer?.disconnect();
      chart?.destroy();
    };
  }, [series, perHour]);

  return (
    <div className="mt-4">
      <ul className="flex flex-wrap gap-4 text-sm text-ink-800" aria-hidden="true">
        <li className="flex items-center gap-2">
          <span className="inline-block h-0.5 w-6" style={{ background: COLOURS.visitors }} />
          {copy.visitors}
        </li>
        <li className="flex items-center gap-2">
          <span
            className="inline-block w-6 border-t-2 border-dashed"
            style={{ borderColor: COLOURS.views }}
          />
          {copy.views}
        </li>
      </ul>
      <div ref={box} role="img" aria-label={label} className="visits-chart mt-2 min-h-[260px] w-full">
        {drawn ? null : <p className="text-ink-600">{copy.chartLoading}</p>}
      </div>
    </div>
  );
}
