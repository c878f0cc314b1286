import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AuditEntryAnswer, EntriesPageMeta } from '../../../contract/audit.ts';
import { http } from '../../http/index.ts';
import { usePermissions } from '../../permissions/index.ts';
import { Pagination } from '../generic/list/Pagination.tsx';
import { ExportProgress } from '../generic/list/ExportProgress.tsx';
import { useExport } from '../generic/list/useExport.ts';
import type { ScreenProps } from '../ScreenProps.ts';
import { QueryState } from '../shared/QueryState.tsx';
import { RefreshButton } from '../shared/RefreshButton.tsx';
import { ScreenHeading, SCREEN_TITLE_ID } from '../shared/ScreenHeading.tsx';
import { useResourceAccess } from '../shared/useResourceAccess.ts';
import { AUDIT_COLUMNS, AuditEntryRows } from './audit/AuditEntryRows.tsx';
import { AuditFilters } from './audit/AuditFilters.tsx';
import { recordPath } from './audit/auditModules.ts';
import { AUDIT_PAGE_SIZE, useAuditFilters } from './audit/useAuditFilters.ts';
import '../screens.css';
import './custom.css';
import { ColumnHeadings } from '../shared/ColumnHeadings.tsx';
import { BusyButton } from '../shared/BusyButton.tsx';

interface AuditPage {
  data: AuditEntryAnswer[];
  meta: EntriesPageMeta;
}

/** The audit log: every write, newest first, filtered by user, module, action, record and date range; its CSV. */
export default function AuditLogScreen({ resource }: ScreenProps) {
  const state = useAuditFilters();
  const { permissions } = usePermissions();
  const access = useResourceAccess(resource);
  const { progress, exportCsv } = useExport(resource.api);
  const exporting = progress !== null;
  const query = useQuery({
    queryKey: ['audit-log', state.apiParams],
    queryFn: ({ signal }) => http.get<AuditPage>(resource.api, { params: state.apiParams, signal }),
    placeholderData: keepPreviousData,
  });
  const entries = query.data?.data ?? [];
  const meta = query.data?.meta;
  const filtering = Object.keys(state.filters).length > 0;

  return (
    <section className="screen" aria-labelledby={SCREEN_TITLE_ID}>
      <ScreenHeading
        actions={
          <>
            {access.download && (
              <BusyButton
                busy={exporting}
                busyLabel="Downloading…"
                onClick={() => exportCsv(state.filters, null, 'audit-log.csv')}
              >
                Download CSV
              </BusyButton>
            )}
            <RefreshButton query={query} />
          </>
        }
      >
        {resource.label}
      </ScreenHeading>
      <ExportProgress progress={progress} />
      <AuditFilters values={state.filters} onChange={(filters) => state.update({ filters })} />
      <div className="table-region" tabIndex={-1} aria-busy={query.isFetching || undefined}>
        <QueryState query={query} what="the audit log" keepsLoadedData>
          {entries.length === 0 ? (
            <div className="screen-state">
              <p>{filtering ? 'No entries match the filters.' : 'No entries yet.'}</p>
              {filtering && (
                <button
                  type="button"
                  className="button"
                  onClick={() =>
                    state.update({ filters: Object.fromEntries(Object.keys(state.filters).map((key) => [key, ''])) })
                  }
                >
                  Clear filters
                </button>
              )}
            </div>
          ) : (
            <table className="data-table audit-table">
              <ColumnHeadings names={AUDIT_COLUMNS} />
              <tbody>
                {entries.map((entry) => (
                  <AuditEntryRows
                    key={entry.id}
                    entry={entry}
                    recordPath={recordPath(permissions, entry.module, entry.record_id)}
                  />
                ))}
              </tbody>
            </table>
          )}
        </QueryState>
      </div>
      {meta && meta.total > 0 && (
        <>
          {meta.total_is_estimate && <p className="note">The number of entries is an estimate.</p>}
          <Pagination
            page={state.page}
            size={state.size}
            total={meta.total}
            defaultSize={AUDIT_PAGE_SIZE}
            onPage={(page) => state.update({ page })}
            onSize={(size) => state.update({ size })}
          />
        </>
      )}
    </section>
  );
}
