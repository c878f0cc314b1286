import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { http } from '../../http/index.ts';
import { useExport } from '../generic/list/useExport.ts';
import type { ScreenProps } from '../ScreenProps.ts';
import { DateRangeInput, type DateRange } from '../shared/DateRangeInput.tsx';
import { formatDate } from '../shared/formatValue.ts';
import { QueryState } from '../shared/QueryState.tsx';
import { ScreenHeading, SCREEN_TITLE_ID } from '../shared/ScreenHeading.tsx';
import { useResourceAccess } from '../shared/useResourceAccess.ts';
import { isEmpty, monthlySeries } from './reporting/monthlySeries.ts';
import { ReportChart } from './reporting/ReportChart.tsx';
import '../screens.css';
import './custom.css';
import { BusyButton } from '../shared/BusyButton.tsx';

type Series = Record<string, unknown>[];

interface Summary {
  subscribers_by_plan: Series;
  points_consumed: Series;
  uploads_per_month: Series;
  revenue: Series;
}

const count = new Intl.NumberFormat('en-IN');
const rupees = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', maximumFractionDigits: 0 });
const formatCount = (value: number) => count.format(value);
const formatRupees = (value: number) => rupees.format(value);

/** The last twelve months, the report's default range. */
function lastYear(): DateRange {
  const to = new Date();
  const from = new Date(Date.UTC(to.getUTCFullYear() - 1, to.getUTCMonth() + 1, 1));
  return { from: from.toISOString().slice(0, 10), to: to.toISOString().slice(0, 10) };
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The range the address names (`?from=2026-01-01&to=2026-06-30`), or the last twelve months when it names none. */
function rangeOf(params: URLSearchParams): DateRange {
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  return DATE.test(from) && DATE.test(to) && from <= to ? { from, to } : lastYear();
}

/** Charts of the business over a date range (kept in the address, so a report can be bookmarked and shared). */
export default function AdminReportingScreen({ resource }: ScreenProps) {
  const [params, setParams] = useSearchParams();
  const range = useMemo(() => rangeOf(params), [params]);
  const setRange = (next: DateRange) => setParams({ from: next.from, to: next.to }, { replace: true });
  const summary = useQuery<Summary>({
    queryKey: ['resource', resource.api, 'summary', range],
    queryFn: ({ signal }) =>
      http
        .get<{ data: Summary }>(`${resource.api}/summary`, { params: { from: range.from, to: range.to }, signal })
        .then((body) => body.data),
    placeholderData: keepPreviousData,
  });
  const access = useResourceAccess(resource);
  const { progress, exportCsv } = useExport(`${resource.api}/summary`);
  const exporting = progress !== null;
  const charts = useMemo(() => {
    const data = summary.data;
    if (!data) return [];
    return [
      { title: 'Subscribers by plan', data: monthlySeries(data.subscribers_by_plan, range), format: formatCount },
      { title: 'Points consumed', data: monthlySeries(data.points_consumed, range), format: formatCount },
      { title: 'Uploads per month', data: monthlySeries(data.uploads_per_month, range), format: formatCount },
      {
        title: 'Revenue from subscriptions and top-ups',
        data: monthlySeries(data.revenue, range),
        format: formatRupees,
      },
    ];
  }, [summary.data, range]);
  const nothing = charts.length > 0 && charts.every((chart) => isEmpty(chart.data));

  return (
    <section className="screen" aria-labelledby={SCREEN_TITLE_ID}>
      <ScreenHeading
        actions={
          access.download && (
            <BusyButton
              busy={exporting}
              busyLabel="Downloading…"
              onClick={() =>
                exportCsv({ from: range.from, to: range.to }, null, `admin-report-${range.from}-to-${range.to}.csv`)
              }
            >
              Download CSV
            </BusyButton>
          )
        }
      >
        Admin reporting
      </ScreenHeading>
      <DateRangeInput label="Period" value={range} onChange={(next) => next.from && next.to && setRange(next)} />
      <QueryState query={summary} what="the reports">
        {nothing ? (
          <p className="screen-state">
            Nothing happened between {formatDate(range.from, false)} and {formatDate(range.to, false)}: no
            subscriptions, points, uploads or revenue. Choose another period.
          </p>
        ) : (
          <div className="chart-grid" aria-busy={summary.isFetching || undefined}>
            {charts.map((chart) => (
              <ReportChart key={chart.title} {...chart} />
            ))}
          </div>
        )}
      </QueryState>
    </section>
  );
}
