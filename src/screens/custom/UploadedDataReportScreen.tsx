import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useRelationLabel } from '../../forms/useRelationOptions.ts';
import type { ListDescription } from '../../generated/types.ts';
import { http } from '../../http/index.ts';
import type { ScreenProps } from '../ScreenProps.ts';
import { RelationFilter } from '../generic/list/RelationFilter.tsx';
import { Pagination } from '../generic/list/Pagination.tsx';
import { SearchBox } from '../generic/list/SearchBox.tsx';
import type { ListPage } from '../generic/list/useListMutations.ts';
import { useListState } from '../generic/list/useListState.ts';
import { enumLabel, formatValue, type Row } from '../shared/formatValue.ts';
import { humanize } from '../shared/humanize.ts';
import { QueryState } from '../shared/QueryState.tsx';
import { ScreenHeading, SCREEN_TITLE_ID } from '../shared/ScreenHeading.tsx';
import { useResourceDescription } from '../shared/useResourceDescription.ts';
import '../screens.css';

const REPORT_LIST: ListDescription = { columns: [], search: ['q'], filters: [], sort: { field: 'period', direction: 'desc' }, pageSize: 20, bulkEdit: [] };
const FILTER_KEYS = ['country_id', 'trade_direction', 'period'] as const;

/** The trade records that uploads brought in, by country, direction and period, paged on the server. */
export default function UploadedDataReportScreen({ resource }: ScreenProps) {
  const state = useListState(REPORT_LIST, FILTER_KEYS);
  // A record's country, direction and period are its upload's: named as the upload's fields name them.
  const uploadFields = useResourceDescription('DATA_UPLOAD_LOGS')?.entity?.fields ?? [];
  const uploadField = (name: string) => uploadFields.find((field) => field.name === name);
  const countriesApi = uploadField('country_id')?.relation?.api ?? 'countries';
  const direction = uploadField('trade_direction');
  const ids = { direction: useId(), period: useId() };
  // The report is always newest shipment first (docs/api.md): it takes no `_sort` / `_order`, and refuses them.
  const { _sort: _unsorted, _order: _unordered, ...params } = state.apiParams;
  const report = useQuery({
    queryKey: ['resource', resource.api, params],
    queryFn: ({ signal }) => http.get<ListPage>(resource.api, { params, signal }),
    placeholderData: keepPreviousData,
  });
  const rows = report.data?.data ?? [];
  const columns = Object.keys(rows[0] ?? {}).filter((key) => key !== 'id' && !key.endsWith('_label'));
  const setFilter = (key: (typeof FILTER_KEYS)[number], value: string) => state.update({ filters: { ...state.filters, [key]: value } });
  const cell = (row: Row, column: string) => {
    // The report answers bare country ids: each is named by the countries' options, asked for once per country.
    if (column === 'country_id' && row[`${column}_label`] === undefined && row[column] !== null) return <CountryName api={countriesApi} id={row[column] as number} />;
    return formatValue(uploadField(column), row, column);
  };

  return (
    <section className="screen" aria-labelledby={SCREEN_TITLE_ID}>
      <ScreenHeading>{resource.label}</ScreenHeading>
      <div className="list-toolbar">
        <SearchBox value={state.search} label="Search records" onSearch={(search) => state.update({ search }, { replace: true })} />
        <RelationFilter label="Country" api={countriesApi} value={state.filters.country_id ?? ''} onChange={(value) => setFilter('country_id', value)} />
        <div className="list-filter">
          <label htmlFor={ids.direction}>{direction?.title ?? 'Trade direction'}</label>
          <select id={ids.direction} value={state.filters.trade_direction ?? ''} onChange={(event) => setFilter('trade_direction', event.target.value)}>
            <option value="">All</option>
            {(direction?.enum ?? []).map((value) => (
              <option key={String(value)} value={String(value)}>
                {enumLabel(direction!, value)}
              </option>
            ))}
          </select>
        </div>
        <div className="list-filter">
          <label htmlFor={ids.period}>Period</label>
          <input id={ids.period} type="month" value={state.filters.period ?? ''} onChange={(event) => setFilter('period', event.target.value)} />
        </div>
      </div>
      <QueryState isPending={report.isPending} isError={report.isError && !report.data} what="trade records" onRetry={() => report.refetch()}>
        {rows.length === 0 ? (
          <p className="screen-state">No trade records match.</p>
        ) : (
          <div className="table-region">
            <table className="data-table">
              <caption className="visually-hidden">Uploaded trade records</caption>
              <thead>
                <tr>
                  {columns.map((column) => (
                    <th key={column} scope="col">
                      {uploadField(column)?.title ?? humanize(column.replace(/_id$/, ''))}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rows.map((row, index) => (
                  <tr key={String(row.id ?? index)}>
                    {columns.map((column) => (
                      <td key={column}>{cell(row, column)}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </QueryState>
      {(report.data?.meta.total ?? 0) > 0 && (
        <Pagination page={state.page} size={state.size} total={report.data?.meta.total ?? 0} defaultSize={REPORT_LIST.pageSize} onPage={(page) => state.update({ page })} onSize={(size) => state.update({ size })} />
      )}
    </section>
  );
}

function CountryName({ api, id }: { api: string; id: number }) {
  const { label } = useRelationLabel(api, id);
  return <>{label ?? `#${id}`}</>;
}
