import { useId, type ReactNode } from 'react';
import { useRelationLabel } from '../../../forms/useRelationOptions.ts';
import { conditionsOf, describe, withoutCondition, type Condition } from './filterConditions.ts';
import type { ListFilter } from './listFilters.ts';
import './filterChips.css';

export interface FilterChipsProps {
  filters: readonly ListFilter[];
  values: Record<string, string>;
  search: string;
  onChange: (values: Record<string, string>) => void;
  /** Opens the Filter control on this field, to change its condition. */
  onEdit: (field: string) => void;
  onClearSearch: () => void;
  onClearAll: () => void;
}

/** The search and every filter in force, each a chip of field, operator and value: its text changes it, its × removes it. */
export function FilterChips({
  filters,
  values,
  search,
  onChange,
  onEdit,
  onClearSearch,
  onClearAll,
}: FilterChipsProps) {
  const chips = filters.flatMap((filter) => conditionsOf(filter, values).map((condition) => ({ filter, condition })));
  if (chips.length === 0 && search.trim() === '') return null;
  return (
    <ul className="filter-chips" aria-label="Search and filters in force">
      {search.trim() !== '' && (
        <Chip onRemove={onClearSearch}>
          <span className="filter-chip__field">Search</span> <span className="filter-chip__operator">contains</span>{' '}
          <span className="filter-chip__value">{search.trim()}</span>
        </Chip>
      )}
      {chips.map(({ filter, condition }) => (
        <Chip
          key={`${filter.field.name}:${condition.operator}`}
          onEdit={() => onEdit(filter.field.name)}
          onRemove={() => onChange(withoutCondition(filter, values, condition.operator))}
        >
          <ConditionText filter={filter} condition={condition} />
        </Chip>
      ))}
      <li>
        <button type="button" className="link-button" onClick={onClearAll}>
          Clear all
        </button>
      </li>
    </ul>
  );
}

function Chip({ children, onEdit, onRemove }: { children: ReactNode; onEdit?: () => void; onRemove: () => void }) {
  const id = useId();
  const text = (
    <span id={`${id}-text`} className="filter-chip__text">
      {children}
    </span>
  );
  return (
    <li className="filter-chip">
      {onEdit ? (
        <button type="button" className="filter-chip__edit" aria-haspopup="dialog" onClick={onEdit}>
          {text}
        </button>
      ) : (
        text
      )}
      <button
        type="button"
        className="filter-chip__remove"
        aria-labelledby={`${id}-remove ${id}-text`}
        onClick={onRemove}
      >
        <span id={`${id}-remove`} hidden>
          Remove filter:
        </span>
        <span aria-hidden="true">×</span>
      </button>
    </li>
  );
}

function ConditionText({ filter, condition }: { filter: ListFilter; condition: Condition }) {
  const { operator, values } = describe(filter, condition);
  const relation =
    filter.kind === 'relation' && filter.field.relation && (condition.operator === 'is' || condition.operator === 'any')
      ? filter.field.relation.api
      : null;
  return (
    <>
      <span className="filter-chip__field">{filter.field.title}</span>{' '}
      <span className="filter-chip__operator">{operator}</span>
      {values.length > 0 && ' '}
      {values.length > 0 && (
        <span className="filter-chip__value">
          {relation
            ? condition.values.map((id, index) => (
                <span key={id}>
                  {index > 0 && ', '}
                  <RelationLabel api={relation} id={id} />
                </span>
              ))
            : values.join(', ')}
        </span>
      )}
    </>
  );
}

function RelationLabel({ api, id }: { api: string; id: string }) {
  const { label } = useRelationLabel(api, id);
  return <>{label ?? `#${id}`}</>;
}
