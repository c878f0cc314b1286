import { useEffect, useMemo, useState } from 'react';
import { VALUE_SEPARATOR } from '../../../../contract/listFilters.ts';
import { readableFields } from '../../../../contract/readableFields.ts';
import type { ListDescription, ResourceDescription } from '../../../generated/types.ts';
import type { UseListStateResult } from './useListState.ts';
import { useListViews, useSavedView, type SavedView } from './useListViews.ts';

/**
 * The saved views and columns of a list: the view the address names (or the user's default when it names nothing)
 * applied, a notice when a view cannot open as saved, and the columns shown (the view's, else the user's, else the
 * manifest's).
 */
export function useListCustomisation(resource: ResourceDescription, list: ListDescription, state: UseListStateResult) {
  const actions = useListViews(resource.api);
  const data = actions.views.data;
  const [notice, setNotice] = useState<string | null>(null);
  // After a named view was refused the user is told this is the plain list: the default view does not replace it.
  const [plainAfterRefusal, setPlainAfterRefusal] = useState(false);
  const { viewId, isPlain, viewQuery, openView } = state;
  const namesOnlyView = viewId !== null && Object.keys(viewQuery).length === 0;
  // The view the address names, else the user's default when it names nothing; looked up by id when it is on no page
  // loaded (a user who may open more views than a page holds).
  const wantedId = viewId ?? (isPlain && !plainAfterRefusal ? (data?.preferences.default_view_id ?? null) : null);
  const loaded = wantedId === null ? undefined : data?.views.find((view) => view.id === wantedId);
  const lookUp = data !== undefined && wantedId !== null && !loaded && data.views.length < data.total;
  const single = useSavedView(resource.api, wantedId, lookUp);
  /** That view; null when there is none the user may open; undefined while it is not known yet. */
  const wanted: SavedView | null | undefined = !data
    ? undefined
    : (loaded ?? (!lookUp ? null : single.isPending ? undefined : (single.data ?? null)));

  useEffect(() => {
    if (wanted === undefined) return;
    if (viewId !== null) {
      if (!wanted) {
        setNotice(
          'That saved view is not available to you (deleted, or not shared with your role): this is the plain list.',
        );
        setPlainAfterRefusal(true);
        openView(null, {}, { replace: true });
        return;
      }
      setNotice(
        wanted.dropped.length > 0
          ? `The view “${wanted.name}” opened without what this list no longer has: ${wanted.dropped.join(', ')}.`
          : null,
      );
      if (namesOnlyView) openView(wanted.id, wanted.query, { replace: true });
    } else if (isPlain && wanted) openView(wanted.id, wanted.query, { replace: true });
    // Only when the views arrive or another view is named: not on every change of the list's query.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [data, viewId, wanted]);

  const waiting = !data
    ? actions.views.isPending && (isPlain || viewId !== null)
    : wanted === undefined || (viewId === null ? isPlain && wanted !== null : namesOnlyView || wanted === null);

  const fields = useMemo(
    () =>
      readableFields(resource.entity?.fields ?? []).filter(
        (field) => field.type !== 'array' && field.type !== 'object',
      ),
    [resource],
  );
  const shown = useMemo(() => {
    const known = (names: readonly string[] | null | undefined) =>
      names?.filter((name) => fields.some((field) => field.name === name));
    return (
      [known(state.columns), known(data?.preferences.columns)].find((names) => names && names.length > 0) ??
      list.columns
    );
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
    /** The view the address names, once known: the Views menu shows its name. */
    currentView: viewId !== null ? (wanted ?? null) : null,
    /** The list waits while the address may be about to change to a view (or away from one the user cannot open). */
    waiting,
    /**
     * Whether the list's rows may be asked for: also while the views are on their way to a plain list, in parallel, as
     * most users have no default view (one who has pays one request more, not every user a wait).
     */
    mayFetch: !waiting || (!data && isPlain),
    fields,
    shown,
    setColumns,
    currentQuery,
    openView: (view: SavedView) => openView(view.id, view.query),
  };
}
