import { useEffect, useMemo, useState } from 'react';
import { VALUE_SEPARATOR } from '../../../../contract/listFilters.ts';
import { readableFields } from '../../../../contract/readableFields.ts';
import type { ListDescription, ResourceDescription } from '../../../generated/types.ts';
import type { UseListStateResult } from './useListState.ts';
import { useListViews, type SavedView } from './useListViews.ts';

/**
 * The saved views and columns of a list: the view the address names (or the user's default when it names nothing)
 * applied, a notice when a view cannot open as saved, and the columns shown (the view's, else the user's, else the
 * manifest's).
 */
export function useListCustomisation(resource: ResourceDescription, list: ListDescription, state: UseListStateResult) {
  const actions = useListViews(resource.api);
  // An answer without the user's settings (a request the session's end cut short) counts as none yet.
  const data = actions.views.data?.preferences ? actions.views.data : undefined;
  const [notice, setNotice] = useState<string | null>(null);
  const { viewId, isPlain, viewQuery, openView } = state;
  const namesOnlyView = viewId !== null && Object.keys(viewQuery).length === 0;

  useEffect(() => {
    if (!data) return;
    if (viewId !== null) {
      const view = data.views.find((candidate) => candidate.id === viewId);
      if (!view) {
        setNotice('That saved view is not available to you (deleted, or not shared with your role): this is the plain list.');
        openView(null, {}, { replace: true });
        return;
      }
      setNotice(view.dropped.length > 0 ? `The view “${view.name}” opened without what this list no longer has: ${view.dropped.join(', ')}.` : null);
      if (namesOnlyView) openView(view.id, view.query, { replace: true });
    } else if (isPlain && data.preferences.default_view_id !== null) {
      const view = data.views.find((candidate) => candidate.id === data.preferences.default_view_id);
      if (view) openView(view.id, view.query, { replace: true });
    }
    // Only when the views arrive or another view is named: not on every change of the list's query.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [data, viewId]);

  const fields = useMemo(() => readableFields(resource.entity?.fields ?? []).filter((field) => field.type !== 'array' && field.type !== 'object'), [resource]);
  const shown = useMemo(() => {
    const known = (names: readonly string[] | null | undefined) => names?.filter((name) => fields.some((field) => field.name === name));
    return [known(state.columns), known(data?.preferences.columns)].find((names) => names && names.length > 0) ?? list.columns;
  }, [state.columns, data, list.columns, fields]);

  const setColumns = (columns: string[] | null) => {
    actions.setPreferences.mutate({ columns });
    if (state.columns) state.update({ columns: null }, { replace: true });
  };
  const currentQuery = useMemo(() => {
    const isStandard = shown.join(VALUE_SEPARATOR) === list.columns.join(VALUE_SEPARATOR);
    const { columns: _columns, ...rest } = viewQuery;
    return isStandard ? rest : { ...rest, columns: shown.join(VALUE_SEPARATOR) };
  }, [viewQuery, shown, list.columns]);

  return {
    actions,
    data,
    notice,
    dismissNotice: () => setNotice(null),
    /** The list waits while the address may be about to change to a view (or away from one the user cannot open). */
    waiting: data ? (isPlain && data.views.some((view) => view.id === data.preferences.default_view_id)) || (viewId !== null && (namesOnlyView || !data.views.some((view) => view.id === viewId))) : actions.views.isPending && (isPlain || viewId !== null),
    fields,
    shown,
    setColumns,
    currentQuery,
    openView: (view: SavedView) => openView(view.id, view.query),
  };
}
