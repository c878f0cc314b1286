import { useId } from 'react';
import { DATE_PRESETS, splitValues, VALUE_SEPARATOR } from '../../../../contract/listFilters.ts';
import { DateRangeInput } from '../../shared/DateRangeInput.tsx';
import { enumLabel } from '../../shared/formatValue.ts';
import { keysOf, type FilterProps, type ListFilter } from './listFilters.ts';
import { RelationFilter } from './RelationFilter.tsx';

export interface ListFiltersProps {
  filters: readonly ListFilter[];
  values: Record<string, string>;
  onChange: (values: Record<string, string>) => void;
}

/** Select values that are no field value: the field's emptiness, and several values chosen. */
const EMPTY = ':empty';
const NOT_EMPTY = ':not-empty';
const SEVERAL = ':several';

/**
 * The manifest's filters: selects for enums (each choice adds a value; chips remove them), booleans and date presets,
 * pickers for relations, ranges for dates, and "is empty" / "is not empty" where a field may be left empty.
 */
export function ListFilters({ filters, values, onChange }: ListFiltersProps) {
  if (filters.length === 0) return null;
  const set = (patch: Record<string, string>) => onChange({ ...values, ...patch });
  return (
    <div className="list-filters" role="group" aria-label="Filters">
      {filters.map((filter) => {
        const keys = keysOf(filter);
        const label = filter.field.title;
        const empty = values[keys.empty] ?? '';
        const emptiness = filter.emptiable ? emptyOptions : [];
        const setEmptiness = (choice: string) => (choice === EMPTY ? 'true' : choice === NOT_EMPTY ? 'false' : '');
        switch (filter.kind) {
          case 'date':
            return (
              <div key={keys.value} className="list-filter list-filter--dates">
                <SelectFilter
                  label={`${label}: when`}
                  value={empty === 'true' ? EMPTY : empty === 'false' ? NOT_EMPTY : (values[keys.range] ?? '')}
                  allLabel="Any time"
                  options={[...Object.entries(DATE_PRESETS).map(([value, text]) => ({ value, label: text })), ...emptiness]}
                  onChange={(choice) => set({ [keys.range]: choice.startsWith(':') ? '' : choice, [keys.empty]: setEmptiness(choice), [keys.from]: '', [keys.to]: '' })}
                />
                <DateRangeInput
                  label={label}
                  value={{ from: values[keys.from] ?? '', to: values[keys.to] ?? '' }}
                  onChange={(range) => set({ [keys.from]: range.from, [keys.to]: range.to, [keys.range]: '', [keys.empty]: '' })}
                />
              </div>
            );
          case 'relation': {
            const chosen = splitValues(values[keys.value] ?? '');
            return (
              <div key={keys.value} className="list-filter-pair">
                <RelationFilter
                  label={label}
                  api={filter.field.relation?.api ?? ''}
                  value={chosen.length === 1 ? chosen[0]! : ''}
                  placeholder={chosen.length > 1 ? `${chosen.length} chosen: type to add` : undefined}
                  onChange={(value) => set({ [keys.value]: value === '' ? (chosen.length > 1 ? chosen.join(VALUE_SEPARATOR) : '') : addValue(chosen, value), [keys.empty]: '' })}
                />
                {filter.emptiable && (
                  <EmptinessFilter label={label} value={empty} onChange={(emptiness) => set({ [keys.empty]: emptiness, [keys.value]: emptiness === '' ? (values[keys.value] ?? '') : '' })} />
                )}
              </div>
            );
          }
          case 'choice':
          case 'boolean': {
            const field = filter.field;
            const chosen = splitValues(values[keys.value] ?? '');
            const options = field.type === 'boolean' ? booleanOptions(field.name) : (field.enum ?? []).map((value) => ({ value: String(value), label: enumLabel(field, value) }));
            const current = empty === 'true' ? EMPTY : empty === 'false' ? NOT_EMPTY : chosen.length > 1 ? SEVERAL : (chosen[0] ?? '');
            return (
              <SelectFilter
                key={keys.value}
                label={label}
                value={current}
                several={chosen.length > 1 ? `${chosen.length} chosen` : undefined}
                options={[...options, ...emptiness]}
                onChange={(choice) => {
                  if (choice === '' || choice.startsWith(':')) set({ [keys.value]: '', [keys.empty]: setEmptiness(choice) });
                  else set({ [keys.value]: filter.multiple && current !== EMPTY && current !== NOT_EMPTY ? addValue(chosen, choice) : choice, [keys.empty]: '' });
                }}
              />
            );
          }
          default:
            return (
              <div key={keys.value} className="list-filter-pair">
                <TextFilter label={label} value={values[keys.value] ?? ''} onChange={(value) => set({ [keys.value]: value, [keys.empty]: '' })} />
                {filter.emptiable && (
                  <EmptinessFilter label={label} value={empty} onChange={(emptiness) => set({ [keys.empty]: emptiness, [keys.value]: emptiness === '' ? (values[keys.value] ?? '') : '' })} />
                )}
              </div>
            );
        }
      })}
    </div>
  );
}

/** "Is empty" / "is not empty" beside a filter of values: `value` and `onChange` speak the address's `true`, `false` or ''. */
function EmptinessFilter({ label, value, onChange }: FilterProps) {
  return (
    <SelectFilter
      label={`${label}: empty or not`}
      value={value === 'true' ? EMPTY : value === 'false' ? NOT_EMPTY : ''}
      allLabel="Either"
      options={emptyOptions}
      onChange={(choice) => onChange(choice === EMPTY ? 'true' : choice === NOT_EMPTY ? 'false' : '')}
    />
  );
}

const emptyOptions = [
  { value: EMPTY, label: 'Is empty' },
  { value: NOT_EMPTY, label: 'Is not empty' },
];

function addValue(chosen: readonly string[], value: string): string {
  return (chosen.includes(value) ? chosen : [...chosen, value]).join(VALUE_SEPARATOR);
}

/** A choice among fixed values, "All" first; `several` lets more than one be chosen. */
export function SelectFilter({ label, value, onChange, options, allLabel = 'All', several }: FilterProps & { options: { value: string; label: string }[]; allLabel?: string; several?: string }) {
  const id = useId();
  return (
    <div className="list-filter">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
        <option value="">{allLabel}</option>
        {several && (
          <option value={SEVERAL} disabled hidden>
            {several}
          </option>
        )}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Applied when the user leaves the field or presses Enter, not on every keystroke. */
export function TextFilter({ label, value, onChange }: FilterProps) {
  const id = useId();
  const commit = (text: string) => text !== value && onChange(text);
  return (
    <div className="list-filter">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        key={value}
        defaultValue={value}
        onBlur={(event) => commit(event.target.value)}
        onKeyDown={(event) => event.key === 'Enter' && commit(event.currentTarget.value)}
      />
    </div>
  );
}

function booleanOptions(name: string) {
  return name === 'is_active'
    ? [
        { value: 'true', label: 'Active' },
        { value: 'false', label: 'Inactive' },
      ]
    : [
        { value: 'true', label: 'Yes' },
        { value: 'false', label: 'No' },
      ];
}
