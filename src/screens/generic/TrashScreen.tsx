import { useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import type { TrashEntryAnswer } from '../../../contract/audit.ts';
import type { ScreenProps } from '../ScreenProps.ts';
import { ConfirmDialog } from '../shared/ConfirmDialog.tsx';
import { formatDate } from '../shared/formatValue.ts';
import { QueryState } from '../shared/QueryState.tsx';
import { ScreenHeading, SCREEN_TITLE_ID } from '../shared/ScreenHeading.tsx';
import { useResourceAccess } from '../shared/useResourceAccess.ts';
import { Pagination } from './list/Pagination.tsx';
import { positiveInteger } from './list/useListState.ts';
import { useTrash } from './trash/useTrash.ts';
import '../screens.css';

const DEFAULT_PAGE_SIZE = 20;

/** A resource's deleted records, with who deleted them and when; restore, or delete permanently after confirming. */
export default function TrashScreen({ resource }: ScreenProps) {
  const [params, setParams] = useSearchParams();
  const defaultSize = resource.list?.pageSize ?? DEFAULT_PAGE_SIZE;
  const page = positiveInteger(params.get('page')) ?? 1;
  const size = positiveInteger(params.get('size')) ?? defaultSize;
  const { entries, restore, purge } = useTrash(resource.api, page, size);
  const access = useResourceAccess(resource);
  const [pendingPurge, setPendingPurge] = useState<TrashEntryAnswer | null>(null);
  const tableRegion = useRef<HTMLDivElement>(null);
  const rows = entries.data?.data ?? [];
  const total = entries.data?.meta.total ?? 0;
  const what = resource.label.toLowerCase();
  const nameOf = (entry: TrashEntryAnswer) => entry.label ?? `${resource.singular} #${entry.id}`;
  const go = (next: { page?: number; size?: number }) =>
    setParams((current) => {
      const updated = new URLSearchParams(current);
      if (next.size !== undefined) updated.set('size', String(next.size));
      updated.set('page', String(next.page ?? 1));
      return updated;
    });

  const confirmPurge = async () => {
    if (!pendingPurge) return;
    await purge.mutateAsync(pendingPurge).catch(() => undefined);
    setPendingPurge(null);
    tableRegion.current?.focus();
  };

  return (
    <section className="screen" aria-labelledby={SCREEN_TITLE_ID}>
      <ScreenHeading
        actions={
          resource.routes.view && (
            <Link className="button" to={resource.routes.view}>
              Back to {what}
            </Link>
          )
        }
      >
        {`Trash: ${resource.label}`}
      </ScreenHeading>
      <p>Deleted {what} stay here until they are restored or deleted permanently.</p>
      <div ref={tableRegion} tabIndex={-1} className="table-region" aria-busy={entries.isFetching || undefined}>
        <QueryState query={entries} what={`deleted ${what}`} keepsLoadedData>
          {rows.length === 0 ? (
            <p className="screen-state">The trash is empty: no deleted {what}.</p>
          ) : (
            <table className="data-table">
              <thead>
                <tr>
                  <th scope="col">{resource.singular}</th>
                  <th scope="col">Deleted by</th>
                  <th scope="col">Deleted</th>
                  {access.delete && (
                    <th scope="col" className="actions-cell">
                      Actions
                    </th>
                  )}
                </tr>
              </thead>
              <tbody>
                {rows.map((entry) => (
                  <tr key={entry.id}>
                    <td>{nameOf(entry)}</td>
                    <td>{entry.deleted_by_email ?? '—'}</td>
                    <td>{formatDate(entry.deleted_at, true)}</td>
                    {access.delete && (
                      <td className="actions-cell">
                        <div className="row-actions">
                          <button
                            type="button"
                            className="link-button"
                            aria-label={`Restore ${nameOf(entry)}`}
                            disabled={restore.isPending}
                            onClick={() => restore.mutate(entry)}
                          >
                            Restore
                          </button>
                          <button
                            type="button"
                            className="link-button link-button--danger"
                            aria-label={`Delete permanently ${nameOf(entry)}`}
                            onClick={() => setPendingPurge(entry)}
                          >
                            Delete permanently
                          </button>
                        </div>
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </QueryState>
      </div>
      {total > 0 && (
        <Pagination
          page={page}
          size={size}
          total={total}
          defaultSize={defaultSize}
          onPage={(next) => go({ page: next })}
          onSize={(next) => go({ size: next })}
        />
      )}
      {pendingPurge && (
        <ConfirmDialog
          title={`Delete ${resource.singular.toLowerCase()} permanently?`}
          confirmLabel="Delete permanently"
          destructive
          busy={purge.isPending}
          onConfirm={confirmPurge}
          onCancel={() => setPendingPurge(null)}
        >
          <p>{nameOf(pendingPurge)} will be deleted for good, with no way to restore it. This cannot be undone.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
