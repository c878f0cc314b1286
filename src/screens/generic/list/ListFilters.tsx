import { lazy, Suspense, useId, useRef } from 'react';
import type { ListFilter } from './listFilters.ts';

const FilterPopover = lazy(() => import('./FilterPopover.tsx'));
const loadPopover = () => void import('./FilterPopover.tsx');

export interface ListFiltersProps {
  filters: readonly ListFilter[];
  values: Record<string, string>;
  onChange: (values: Record<string, string>) => void;
  /** The field whose condition the dialog shows ('' for the first, or one the user picks), or null when it is closed. */
  open: string | null;
  onOpenChange: (open: string | null) => void;
}

/**
 * The list's "Filter" button: closed by default, it opens a small dialog where a field, an operator and a value make a
 * filter (its code loads on first use). Applied, the dialog closes and focus comes back to the button.
 */
export function ListFilters({ filters, values, onChange, open, onOpenChange }: ListFiltersProps) {
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const dialogId = useId();
  if (filters.length === 0) return null;
  const close = (refocus: boolean) => {
    onOpenChange(null);
    if (refocus) button.current?.focus();
  };
  return (
    <div ref={root} className="filter-control">
      <button
        ref={button}
        type="button"
        className="button"
        aria-haspopup="dialog"
        aria-expanded={open !== null}
        aria-controls={open !== null ? dialogId : undefined}
        onPointerEnter={loadPopover}
        onFocus={loadPopover}
        onClick={() => onOpenChange(open === null ? '' : null)}
      >
        <svg
          aria-hidden="true"
          width="16"
          height="16"
          viewBox="0 0 16 16"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.6"
          strokeLinejoin="round"
        >
          <path d="M2 3h12l-4.5 5.5V13l-3 1.5V8.5z" />
        </svg>
        Filter
      </button>
      {open !== null && (
        <Suspense fallback={null}>
          <FilterPopover
            key={open}
            id={dialogId}
            filters={filters}
            values={values}
            field={open || null}
            root={root}
            onApply={(next) => {
              onChange(next);
              close(true);
            }}
            onClose={close}
          />
        </Suspense>
      )}
    </div>
  );
}
