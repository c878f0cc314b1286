import { useEffect, useId, useRef } from 'react';
import 'uplot/dist/uPlot.min.css';
import { humanize } from '../../shared/humanize.ts';
import type { MonthlySeries } from './monthlySeries.ts';

const COLORS = ['#1f4fd1', '#18794e', '#c2410c', '#7c3aed', '#0e7490', '#b42318', '#a16207'];
const HEIGHT = 240;

export interface ReportChartProps {
  title: string;
  data: MonthlySeries;
  format: (value: number) => string;
}

/**
 * A line chart (uPlot, loaded with this screen only) and the table behind it: the canvas is for the
 * eye, the table carries the same numbers for keyboard and screen-reader users.
 */
export function ReportChart({ title, data, format }: ReportChartProps) {
  const titleId = useId();
  const holder = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = holder.current;
    if (!element || data.months.length === 0) return;
    let chart: { destroy: () => void } | undefined;
    let cancelled = false;
    void import('uplot').then(({ default: UPlot }) => {
      if (cancelled) return;
      const x = data.months.map((month) => Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)) - 1, 1) / 1000);
      chart = new UPlot(
        {
          width: element.clientWidth || 480,
          height: HEIGHT,
          series: [{}, ...data.series.map((series, index) => ({ label: humanize(series.label), stroke: COLORS[index % COLORS.length], width: 2, value: (_u: unknown, value: number | null) => (value === null ? '—' : format(value)) }))],
          axes: [{}, { values: (_u: unknown, ticks: number[]) => ticks.map(format), size: 70 }],
        },
        [x, ...data.series.map((series) => series.values)],
        element,
      );
    });
    return () => {
      cancelled = true;
      chart?.destroy();
    };
  }, [data, format]);

  return (
    <figure className="panel chart" aria-labelledby={titleId}>
      <figcaption id={titleId}>{title}</figcaption>
      {data.months.length === 0 && <p className="chart__empty">No data in this period.</p>}
      <div ref={holder} aria-hidden="true" />
      <details>
        <summary>Show the numbers</summary>
        <div className="table-region" role="region" aria-label={`${title}, the numbers`} tabIndex={0}>
          <table className="data-table">
            <caption className="visually-hidden">{title}</caption>
            <thead>
              <tr>
                <th scope="col">Month</th>
                {data.series.map((series) => (
                  <th key={series.label} scope="col">
                    {humanize(series.label)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {data.months.map((month, index) => (
                <tr key={month}>
                  <th scope="row">{month}</th>
                  {data.series.map((series) => (
                    <td key={series.label}>{format(series.values[index] ?? 0)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
