import { useId } from 'react';
import { DateRangeInput } from '../../shared/DateRangeInput.tsx';
import { enumLabel } from '../../shared/formatValue.ts';
import type { FilterProps, ListFilter } from './listFilters.ts';
import { RelationFilter } from './RelationFilter.tsx';

export interface ListFiltersProps {
  filters: readonly ListFilter[];
  values: Record<string, string>;
  onChange: (values: Record<string, string>) => void;
}

/** The manifest's filters: selects for enums, booleans and relations, ranges for dates. */
export function ListFilters({ filters, values, onChange }: ListFiltersProps) {
  if (filters.length === 0) return null;
  const set = (patch: Record<string, string>) => onChange({ ...values, ...patch });
  return (
    <div className="list-filters" role="group" aria-label="Filters">
      {filters.map((filter) => {
        const [key = '', toKey = ''] = filter.keys;
        const label = filter.field.title;
        switch (filter.kind) {
          case 'date-range':
            return (
              <DateRangeInput
                key={key}
                label={label}
                value={{ from: values[key] ?? '', to: values[toKey] ?? '' }}
                onChange={(range) => set({ [key]: range.from, [toKey]: range.to })}
              />
            );
          case 'relation':
            return <RelationFilter key={key} label={label} api={filter.field.relation?.api ?? ''} value={values[key] ?? ''} onChange={(value) => set({ [key]: value })} />;
          case 'select': {
            const options = filter.field.type === 'boolean' ? booleanOptions(filter.field.name) : (filter.field.enum ?? []).map((value) => ({ value: String(value), label: enumLabel(filter.field, value) }));
            return <SelectFilter key={key} label={label} options={options} value={values[key] ?? ''} onChange={(value) => set({ [key]: value })} />;
          }
          default:
            return <TextFilter key={key} label={label} value={values[key] ?? ''} onChange={(value) => set({ [key]: value })} />;
        }
      })}
    </div>
  );
}


/** A choice among fixed values, "All" first. */
export function SelectFilter({ label, value, onChange, options }: FilterProps & { options: { value: string; label: string }[] }) {
  const id = useId();
  return (
    <div className="list-filter">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
        <option value="">All</option>
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
