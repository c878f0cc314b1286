import { useEffect, useRef, useState, type FormEvent, type RefObject } from 'react';
import { ConditionValue } from './ConditionValue.tsx';
import {
  conditionsOf,
  isComplete,
  OPERATOR_LABELS,
  operatorsOf,
  withCondition,
  type Condition,
  type Operator,
} from './filterConditions.ts';
import type { ListFilter } from './listFilters.ts';
import { useLatest } from './useLatest.ts';
import { SelectFilter } from './FilterControls.tsx';
import './filterPopover.css';

export interface FilterPopoverProps {
  id: string;
  filters: readonly ListFilter[];
  values: Record<string, string>;
  /** The field to show first (a chip being changed); null: the first not filtered yet. */
  field: string | null;
  /** The Filter control (its button and this dialog): a press outside it closes the dialog. */
  root: RefObject<HTMLDivElement | null>;
  onApply: (values: Record<string, string>) => void;
  /** `refocus`: give focus back to the Filter button (Escape, Cancel), not when the user went elsewhere. */
  onClose: (refocus: boolean) => void;
}

/** The condition a field's filter starts from: the one in force, else its first operator with nothing chosen. */
function startOf(filter: ListFilter, values: Record<string, string>): Condition {
  return conditionsOf(filter, values)[0] ?? { operator: operatorsOf(filter)[0]!, values: [] };
}

/**
 * The Filter dialog: a field (the manifest's filters), an operator that fits it and a value, applied as one condition
 * of that field (replacing the one it had). Not modal: Escape or Cancel close it and give focus back to the button; a
 * press or focus outside closes it.
 */
export default function FilterPopover({ id, filters, values, field, root, onApply, onClose }: FilterPopoverProps) {
  const panel = useRef<HTMLDivElement>(null);
  const [name, setName] = useState(
    () => field ?? (filters.find((filter) => conditionsOf(filter, values).length === 0) ?? filters[0]!).field.name,
  );
  const filter = filters.find((candidate) => candidate.field.name === name) ?? filters[0]!;
  const [draft, setDraft] = useState(() => startOf(filter, values));
  // The latest choice, for a submit that follows a change in the same keystroke (Enter in a text filter).
  const latest = useRef(draft);
  const [missing, setMissing] = useState(false);
  const change = (next: Condition) => {
    latest.current = next;
    setDraft(next);
    setMissing(false);
  };
  const close = useLatest(onClose);

  useEffect(() => {
    panel.current?.querySelector<HTMLElement>('select, input, button')?.focus();
    const onPointerDown = (event: MouseEvent) => {
      if (!root.current?.contains(event.target as Node)) close.current(false);
    };
    document.addEventListener('mousedown', onPointerDown);
    return () => document.removeEventListener('mousedown', onPointerDown);
  }, [root, close]);

  const chooseField = (next: string) => {
    setName(next);
    change(startOf(filters.find((candidate) => candidate.field.name === next) ?? filter, values));
  };
  const chooseOperator = (operator: Operator) => {
    const ofValues = (op: Operator) => op === 'is' || op === 'any';
    const kept = ofValues(operator) && ofValues(draft.operator) ? draft.values : [];
    change({ operator, values: operator === 'is' ? kept.slice(0, 1) : kept });
  };
  const apply = (event: FormEvent) => {
    event.preventDefault();
    if (isComplete(latest.current)) onApply(withCondition(filter, values, latest.current));
    else setMissing(true);
  };

  return (
    <div
      ref={panel}
      id={id}
      className="filter-popover"
      role="dialog"
      aria-labelledby={`${id}-title`}
      onKeyDown={(event) => {
        // A picker's own Escape (giving up its typing) comes first.
        if (event.key !== 'Escape' || event.nativeEvent.defaultPrevented) return;
        event.preventDefault();
        onClose(true);
      }}
      onBlur={(event) => {
        if (event.relatedTarget instanceof Node && !root.current?.contains(event.relatedTarget)) onClose(false);
      }}
    >
      <p id={`${id}-title`} className="filter-popover__title">
        {field ? 'Change filter' : 'Add a filter'}
      </p>
      <form className="filter-popover__form" onSubmit={apply} noValidate>
        <div className="filter-popover__row">
          <SelectFilter
            label="Field"
            allLabel={null}
            value={name}
            options={filters.map((each) => ({ value: each.field.name, label: each.field.title }))}
            onChange={chooseField}
          />
          <SelectFilter
            label="Condition"
            allLabel={null}
            value={draft.operator}
            options={operatorsOf(filter).map((op) => ({ value: op, label: OPERATOR_LABELS[op] }))}
            onChange={(op) => chooseOperator(op as Operator)}
          />
        </div>
        <ConditionValue key={`${name}:${draft.operator}`} filter={filter} condition={draft} onChange={change} />
        {missing && (
          <p className="filter-popover__error" role="alert">
            Choose a value first.
          </p>
        )}
        <div className="filter-popover__actions">
          <button type="submit" className="button button--primary">
            Apply
          </button>
          <button type="button" className="button" onClick={() => onClose(true)}>
            Cancel
          </button>
        </div>
      </form>
    </div>
  );
}
