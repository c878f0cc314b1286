import { lazy, Suspense, useState, type ComponentType } from 'react';
import type { ResourceDescription } from '../../../generated/types.ts';
import { FilterChips } from './FilterChips.tsx';
import type { ListCustomiseProps } from './ListCustomise.tsx';
import { ListFilters } from './ListFilters.tsx';
import type { ListFilter } from './listFilters.ts';
import { SearchBox } from './SearchBox.tsx';
import type { useListCustomisation } from './useListCustomisation.ts';
import type { UseListStateResult } from './useListState.ts';
import './listToolbar.css';

type ListCustomiseMenus = ComponentType<ListCustomiseProps>;
/** The Views and Columns menus: their own chunk, fetched as soon as the list's code is there. */
let LoadedCustomise: ListCustomiseMenus | undefined;
const loadingCustomise = import('./ListCustomise.tsx').then((module) => (LoadedCustomise = module.default));
const LazyCustomise = lazy(() => loadingCustomise.then((loaded) => ({ default: loaded })));

export interface ListToolbarProps {
  resource: ResourceDescription;
  filters: readonly ListFilter[];
  state: UseListStateResult;
  customisation: ReturnType<typeof useListCustomisation>;
}

/**
 * One line above a list: its search, the Filter button, then the Views and Columns menus; under it, the search and
 * filters in force as chips. All of it lives in the address (useListState), so views and links keep it.
 */
export function ListToolbar({ resource, filters, state, customisation }: ListToolbarProps) {
  /** The field whose filter the Filter dialog shows ('' its own choice), or null when it is closed. */
  const [open, setOpen] = useState<string | null>(null);
  // Chosen once: loaded, the menus render at once (a lazy component would suspend on its first render regardless).
  const [ListCustomise] = useState<ListCustomiseMenus>(() => LoadedCustomise ?? LazyCustomise);
  const setFilters = (values: Record<string, string>) => state.update({ filters: values });
  return (
    <>
      <div className="list-toolbar list-toolbar--compact">
        {resource.list && resource.list.search.length > 0 && (
          <SearchBox
            hideLabel
            value={state.search}
            label={`Search ${resource.label.toLowerCase()}`}
            onSearch={(search) => state.update({ search }, { replace: true })}
          />
        )}
        <ListFilters
          filters={filters}
          values={state.filters}
          onChange={setFilters}
          open={open}
          onOpenChange={setOpen}
        />
        <Suspense fallback={null}>
          <ListCustomise
            views={
              customisation.data
                ? {
                    data: customisation.data,
                    actions: customisation.actions,
                    current: customisation.currentView,
                    currentQuery: customisation.currentQuery,
                    onOpen: customisation.openView,
                  }
                : null
            }
            columns={{ fields: customisation.fields, shown: customisation.shown, onChange: customisation.setColumns }}
          />
        </Suspense>
      </div>
      <FilterChips
        filters={filters}
        values={state.filters}
        search={state.search}
        onChange={setFilters}
        onEdit={setOpen}
        onClearSearch={() => state.update({ search: '' })}
        onClearAll={() => state.update({ search: '', filters: {} })}
      />
    </>
  );
}
