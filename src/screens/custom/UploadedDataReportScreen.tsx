import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { useRelationLabel } from '../../forms/useRelationOptions.ts';
import type { ListDescription } from '../../generated/types.ts';
import { http } from '../../http/index.ts';
import type { ScreenProps } from '../ScreenProps.ts';
import { RelationFilter } from '../generic/list/RelationFilter.tsx';
import { SearchBox } from '../generic/list/SearchBox.tsx';
import { useListState } from '../generic/list/useListState.ts';
import { enumLabel, formatValue, type Row } from '../shared/formatValue.ts';
import { humanize } from '../shared/humanize.ts';
import { QueryState } from '../shared/QueryState.tsx';
import { ScreenHeading, SCREEN_TITLE_ID } from '../shared/ScreenHeading.tsx';
import { useResourceDescription } from '../shared/useResourceDescription.ts';
import { useCanAccess } from '../../permissions/index.ts';
import { AREAS } from '../../generated/routes.ts';
import { KeysetPager } from './uploadedData/KeysetPager.tsx';
import { TradeExportPanel } from './uploadedData/TradeExportPanel.tsx';
import { useTradeExport } from './uploadedData/useTradeExport.ts';
import '../screens.css';
import { BusyButton } from '../shared/BusyButton.tsx';

const REPORT_LIST: ListDescription = {
  columns: [],
  search: ['q'],
  filters: [],
  sort: { field: 'period', direction: 'desc' },
  pageSize: 20,
  bulkEdit: [],
};
const FILTER_KEYS = ['country_id', 'trade_direction', 'period', 'upload_id'] as const;
/** Where a record's upload is shown: the uploads' detail route, its `:id` the record's upload_id. */
const UPLOAD_ROUTE = AREAS.flatMap((area) => area.routes).find(
  (route) => route.module === 'DATA_UPLOAD_LOGS' && route.action === 'view_detail',
)?.path;

/** A page of the report as its API answers it (docs/api.md, "Uploaded data report"). */
interface ReportPage {
  data: Row[];
  meta: {
    total: number;
    total_is_estimate: boolean;
    page_size: number;
    next: string | null;
    previous: string | null;
    export_in_background: boolean;
  };
}

/** Which page is shown: the first, or the one after / before a cursor, and the position of its first record. */
interface PagePlace {
  cursor: { _after: string } | { _before: string } | null;
  first: number;
}

/** The trade records that uploads brought in, by country, direction, period and upload, paged by keyset on the server. */
export default function UploadedDataReportScreen({ resource }: ScreenProps) {
  const state = useListState(REPORT_LIST, FILTER_KEYS);
  const canSeeUploads = useCanAccess('DATA_UPLOAD_LOGS', 'view_detail').allowed;
  const canExport = useCanAccess(resource.module, 'download').allowed;
  const exporter = useTradeExport(resource.api);
  // A record's country, direction and period are its upload's: named as the upload's fields name them.
  const uploadFields = useResourceDescription('DATA_UPLOAD_LOGS')?.entity?.fields ?? [];
  const uploadField = (name: string) => uploadFields.find((field) => field.name === name);
  const countriesApi = uploadField('country_id')?.relation?.api ?? 'countries';
  const direction = uploadField('trade_direction');
  const ids = { direction: useId(), period: useId() };
  // The report is always newest shipment first (docs/api.md): it takes no `_sort` / `_order` and no page number.
  const { _sort: _unsorted, _order: _unordered, _page: _numbered, _page_size: size, ...filter } = state.apiParams;
  const filterKey = JSON.stringify([filter, size]);
  // A new filter or page size starts again from the first page.
  const [place, setPlace] = useState<PagePlace & { filterKey: string }>({ cursor: null, first: 1, filterKey });
  const current = place.filterKey === filterKey ? place : { cursor: null, first: 1, filterKey };
  const params = { ...filter, _page_size: size, ...current.cursor };
  const report = useQuery({
    queryKey: ['resource', resource.api, params],
    queryFn: ({ signal }) => http.get<ReportPage>(resource.api, { params, signal }),
    placeholderData: keepPreviousData,
  });
  const rows = report.data?.data ?? [];
  const meta = report.data?.meta;
  const columns = Object.keys(rows[0] ?? {}).filter((key) => key !== 'id' && !key.endsWith('_label'));
  const setFilter = (key: (typeof FILTER_KEYS)[number], value: string) =>
    state.update({ filters: { ...state.filters, [key]: value } });
  const cell = (row: Row, column: string) => {
    // The report answers bare country ids: each is named by the countries' options, asked for once per country.
    if (column === 'country_id' && row[`${column}_label`] === undefined && row[column] !== null)
      return <CountryName api={countriesApi} id={row[column] as number} />;
    if (column === 'upload_id') {
      const upload = String(row.upload_id);
      return canSeeUploads && UPLOAD_ROUTE ? (
        <Link to={UPLOAD_ROUTE.replace(':id', upload)}>Upload {upload}</Link>
      ) : (
        `Upload ${upload}`
      );
    }
    return formatValue(uploadField(column), row, column);
  };

  return (
    <section className="screen" aria-labelledby={SCREEN_TITLE_ID}>
      <ScreenHeading>{resource.label}</ScreenHeading>
      <div className="list-toolbar">
        <SearchBox
          value={state.search}
          label="Search records"
          onSearch={(search) => state.update({ search }, { replace: true })}
        />
        <RelationFilter
          label="Country"
          api={countriesApi}
          value={state.filters.country_id ?? ''}
          onChange={(value) => setFilter('country_id', value)}
        />
        <div className="list-filter">
          <label htmlFor={ids.direction}>{direction?.title ?? 'Trade direction'}</label>
          <select
            id={ids.direction}
            value={state.filters.trade_direction ?? ''}
            onChange={(event) => setFilter('trade_direction', event.target.value)}
          >
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
          <input
            id={ids.period}
            type="month"
            value={state.filters.period ?? ''}
            onChange={(event) => setFilter('period', event.target.value)}
          />
        </div>
        {state.filters.upload_id && (
          <p className="list-filter">
            Upload {state.filters.upload_id}{' '}
            <button type="button" className="button" onClick={() => setFilter('upload_id', '')}>
              All uploads
            </button>
          </p>
        )}
        {canExport && meta && meta.total > 0 && (
          <BusyButton
            busy={exporter.downloading}
            busyLabel="Downloading…"
            onClick={() => void exporter.start(filter as Record<string, string>, meta.export_in_background)}
          >
            {meta.export_in_background ? 'Export CSV in the background' : 'Export CSV'}
          </BusyButton>
        )}
      </div>
      <TradeExportPanel job={exporter.job} downloading={exporter.downloading} download={exporter.download} />
      <QueryState query={report} what="trade records" keepsLoadedData>
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
      {meta && rows.length > 0 && (
        <KeysetPager
          first={current.first}
          shown={rows.length}
          size={state.size}
          defaultSize={REPORT_LIST.pageSize}
          total={meta.total}
          estimated={meta.total_is_estimate}
          hasPrevious={meta.previous !== null}
          hasNext={meta.next !== null}
          onPrevious={() =>
            setPlace({ cursor: { _before: meta.previous! }, first: Math.max(1, current.first - state.size), filterKey })
          }
          onNext={() => setPlace({ cursor: { _after: meta.next! }, first: current.first + rows.length, filterKey })}
          onSize={(next) => state.update({ size: next })}
        />
      )}
    </section>
  );
}

function CountryName({ api, id }: { api: string; id: number }) {
  const { label } = useRelationLabel(api, id);
  return <>{label ?? `#${id}`}</>;
}
