import { useId } from 'react';

export interface DateRange {
  from: string;
  to: string;
}

export interface DateRangeInputProps {
  label: string;
  value: DateRange;
  onChange: (value: DateRange) => void;
}

/** Two dates grouped under one label; the end cannot be before the start. */
export function DateRangeInput({ label, value, onChange }: DateRangeInputProps) {
  const id = useId();
  return (
    <fieldset className="date-range">
      <legend>{label}</legend>
      <label htmlFor={`${id}-from`}>From</label>
      <input id={`${id}-from`} type="date" value={value.from} max={value.to || undefined} onChange={(event) => onChange({ ...value, from: event.target.value })} />
      <label htmlFor={`${id}-to`}>To</label>
      <input id={`${id}-to`} type="date" value={value.to} min={value.from || undefined} onChange={(event) => onChange({ ...value, to: event.target.value })} />
    </fieldset>
  );
}
