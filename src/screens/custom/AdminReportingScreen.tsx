import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { http } from '../../http/index.ts';
import { useExport } from '../generic/list/useExport.ts';
import type { ScreenProps } from '../ScreenProps.ts';
import { DateRangeInput, type DateRange } from '../shared/DateRangeInput.tsx';
import { QueryState } from '../shared/QueryState.tsx';
import { ScreenHeading, SCREEN_TITLE_ID } from '../shared/ScreenHeading.tsx';
import { useResourceAccess } from '../shared/useResourceAccess.ts';
import { monthlySeries } from './reporting/monthlySeries.ts';
import { ReportChart } from './reporting/ReportChart.tsx';
import '../screens.css';
import './custom.css';

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

/** Charts of the business over a date range, each with the table behind it. */
export default function AdminReportingScreen({ resource }: ScreenProps) {
  const [range, setRange] = useState<DateRange>(lastYear);
  const summary = useQuery<Summary>({
    queryKey: ['resource', resource.api, 'summary', range],
    queryFn: ({ signal }) => http.get<{ data: Summary }>(`${resource.api}/summary`, { params: { from: range.from, to: range.to }, signal }).then((body) => body.data),
    placeholderData: keepPreviousData,
  });
  const access = useResourceAccess(resource);
  const { progress, exportCsv } = useExport(`${resource.api}/summary`);
  const exporting = progress !== null;
  const charts = useMemo(() => {
    const data = summary.data;
    if (!data) return [];
    return [
      { title: 'Subscribers by plan', data: monthlySeries(data.subscribers_by_plan), format: formatCount },
      { title: 'Points consumed', data: monthlySeries(data.points_consumed), format: formatCount },
      { title: 'Uploads per month', data: monthlySeries(data.uploads_per_month), format: formatCount },
      { title: 'Revenue from subscriptions and top-ups', data: monthlySeries(data.revenue), format: formatRupees },
    ];
  }, [summary.data]);

  return (
    <section className="screen" aria-labelledby={SCREEN_TITLE_ID}>
      <ScreenHeading
        actions={
          access.download && (
            <button
              type="button"
              className="button"
              disabled={exporting}
              aria-busy={exporting || undefined}
              onClick={() => exportCsv({ from: range.from, to: range.to }, null, `admin-report-${range.from}-to-${range.to}.csv`)}
            >
              {exporting ? 'Downloading…' : 'Download CSV'}
            </button>
          )
        }
      >
        Admin reporting
      </ScreenHeading>
      <DateRangeInput label="Period" value={range} onChange={(next) => next.from && next.to && setRange(next)} />
      <QueryState isPending={summary.isPending} isError={summary.isError} what="the reports" onRetry={() => summary.refetch()}>
        <div className="chart-grid" aria-busy={summary.isFetching || undefined}>
          {charts.map((chart) => (
            <ReportChart key={chart.title} {...chart} />
          ))}
        </div>
      </QueryState>
    </section>
  );
}
