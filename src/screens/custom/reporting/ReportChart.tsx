import { useEffect, useId, useRef, useSyncExternalStore } from 'react';
import type uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { darkSchemeShown, subscribeToScheme } from '../../../shell/colourScheme.ts';
import { formatMonth } from '../../shared/formatValue.ts';
import { monthTicks, valueAxisWidth, VALUE_STEPS } from './chartAxes.ts';
import { legendMonth } from './legendMonth.ts';
import { isEmpty, type MonthlySeries } from './monthlySeries.ts';

/** Line colours, each at least 3:1 against its scheme's panel; and the axes' text and grid lines. */
const LIGHT = {
  lines: ['#1f4fd1', '#18794e', '#c2410c', '#7c3aed', '#0e7490', '#b42318', '#a16207'],
  axis: '#5b6678',
  grid: '#e4e8ef',
};
const DARK = {
  lines: ['#78a8f5', '#5bd08a', '#fb923c', '#b794f6', '#38bdf8', '#f97a6e', '#facc15'],
  axis: '#a4aebd',
  grid: '#2b3441',
};
const HEIGHT = 240;

export interface ReportChartProps {
  title: string;
  data: MonthlySeries;
  format: (value: number) => string;
  /** A month to mark with a dot on each line (an upload under review among the months before it). */
  marked?: string | undefined;
}

/**
 * A line chart (uPlot, loaded with this screen only) and the table behind it: the canvas is for the eye, the table
 * carries the same numbers for keyboard and screen-reader users. The chart follows its panel's width; a period
 * without activity says so instead of drawing empty axes.
 */
export function ReportChart({ title, data, format, marked }: ReportChartProps) {
  const titleId = useId();
  const holder = useRef<HTMLDivElement>(null);
  const empty = isEmpty(data);
  // The canvas is drawn again in the other scheme's colours when it changes.
  const dark = useSyncExternalStore(subscribeToScheme, darkSchemeShown);

  useEffect(() => {
    const element = holder.current;
    if (!element || empty) return;
    let chart: uPlot | undefined;
    let resizing: ResizeObserver | undefined;
    let cancelled = false;
    void import('uplot').then(({ default: UPlot }) => {
      if (cancelled) return;
      const colours = dark ? DARK : LIGHT;
      const axis = { stroke: colours.axis, grid: { stroke: colours.grid }, ticks: { stroke: colours.grid } };
      const { months } = data;
      const markedIndex = marked === undefined ? -1 : months.indexOf(marked);
      const plotWidth = (u: uPlot) => u.bbox.width / (window.devicePixelRatio || 1);
      chart = new UPlot(
        {
          width: element.clientWidth || 480,
          height: HEIGHT,
          // Months are spaced evenly by their place, not by their length in days.
          scales: {
            x: { time: false, range: () => [-0.5, months.length - 0.5] },
            y: { range: (_u, _min, max) => [0, Math.max(max, 1) * 1.05] },
          },
          series: [
            // The legend reads the hovered month, else the latest with activity (legendMonth), never "—".
            {
              label: 'Month',
              value: (_u: uPlot, _raw: number | null, _series: number, index: number | null) =>
                formatMonth(months[legendMonth(data, index)] ?? ''),
            },
            ...data.series.map((series, index) => ({
              label: series.label,
              stroke: colours.lines[index % colours.lines.length],
              width: 2,
              ...(markedIndex >= 0 ? { points: { show: true, size: 10, width: 2, filter: [markedIndex] } } : {}),
              value: (_u: uPlot, _raw: number | null, _series: number, at: number | null) =>
                format(series.values[legendMonth(data, at)] ?? 0),
            })),
          ],
          axes: [
            {
              ...axis,
              splits: (u: uPlot) =>
                monthTicks(months.length, Number.isFinite(plotWidth(u)) ? plotWidth(u) : element.clientWidth),
              values: (_u: uPlot, splits: number[]) => splits.map((index) => formatMonth(months[index] ?? '')),
            },
            {
              ...axis,
              incrs: VALUE_STEPS,
              values: (_u: uPlot, ticks: number[]) => ticks.map(format),
              size: (_u: uPlot, values: string[] | null) => valueAxisWidth(values ?? []),
            },
          ],
        },
        [months.map((_month, index) => index), ...data.series.map((series) => series.values)],
        element,
      );
      if (typeof ResizeObserver === 'function') {
        resizing = new ResizeObserver(() => chart?.setSize({ width: element.clientWidth, height: HEIGHT }));
        resizing.observe(element);
      }
    });
    return () => {
      cancelled = true;
      resizing?.disconnect();
      chart?.destroy();
    };
  }, [data, format, empty, dark, marked]);

  return (
    <figure className="panel chart" aria-labelledby={titleId}>
      <figcaption id={titleId}>{title}</figcaption>
      {empty ? (
        <p className="chart__empty">Nothing in this period.</p>
      ) : (
        <>
          <div ref={holder} className="chart__canvas" aria-hidden="true" />
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
                        {series.label}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {data.months.map((month, index) => (
                    <tr key={month}>
                      <th scope="row">{formatMonth(month)}</th>
                      {data.series.map((series) => (
                        <td key={series.label}>{format(series.values[index] ?? 0)}</td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </details>
        </>
      )}
    </figure>
  );
}
