import { useId, useState } from 'react';

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
  // What the user typed, held here: the owner may apply a change later (a router transition), and a second change
  // made before then must build on the first, not on the value the owner has not passed down yet.
  const [draft, setDraft] = useState(value);
  const [given, setGiven] = useState(value);
  if (given.from !== value.from || given.to !== value.to) {
    setGiven(value);
    setDraft(value);
  }
  const change = (next: DateRange) => {
    // Half a range is the owner's to take (a filter from a date on) or to refuse (a report keeps its last range).
    if (next.from && next.to) setDraft(next);
    onChange(next);
  };
  return (
    <fieldset className="date-range">
      <legend>{label}</legend>
      <label htmlFor={`${id}-from`}>From</label>
      <input
        id={`${id}-from`}
        type="date"
        value={draft.from}
        max={draft.to || undefined}
        onChange={(event) => change({ ...draft, from: event.target.value })}
      />
      <label htmlFor={`${id}-to`}>To</label>
      <input
        id={`${id}-to`}
        type="date"
        value={draft.to}
        min={draft.from || undefined}
        onChange={(event) => change({ ...draft, to: event.target.value })}
      />
    </fieldset>
  );
}
