import { useId, useState } from 'react';
import type { FilterProps } from './listFilters.ts';

/** A choice among fixed values, "All" (or what `allLabel` says, the value '') first; `allLabel` null: none. */
export function SelectFilter({
  label,
  value,
  onChange,
  options,
  allLabel = 'All',
}: FilterProps & { options: { value: string; label: string }[]; allLabel?: string | null }) {
  const id = useId();
  return (
    <div className="list-filter">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
        {allLabel !== null && <option value="">{allLabel}</option>}
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
  // What is typed, followed by the value when the owner changes it (a cleared filter, back and forward).
  const [text, setText] = useState(value);
  const [given, setGiven] = useState(value);
  if (given !== value) {
    setGiven(value);
    setText(value);
  }
  const commit = () => text !== value && onChange(text);
  return (
    <div className="list-filter">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onBlur={commit}
        onKeyDown={(event) => event.key === 'Enter' && commit()}
      />
    </div>
  );
}
