import { useId } from 'react';
import { RelationPicker } from '../../../forms/RelationPicker.tsx';
import type { FilterProps } from './listFilters.ts';

/** A related record searched on the server as the user types, so every record can be picked, not only the first page. */
export function RelationFilter({
  api,
  label,
  value,
  onChange,
  placeholder = 'All: type to search',
}: FilterProps & { api: string; placeholder?: string }) {
  const id = useId();
  return (
    <div className="list-filter">
      <label htmlFor={id}>{label}</label>
      <RelationPicker
        id={id}
        api={api}
        label={label}
        value={value === '' ? null : value}
        placeholder={placeholder}
        onChange={(option) => onChange(option ? String(option.value) : '')}
      />
    </div>
  );
}
