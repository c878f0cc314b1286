import { useEffect, useRef } from 'react';

export interface TriStateBoxProps {
  label: string;
  state: boolean | 'mixed';
  disabled: boolean;
  onChange: (checked: boolean) => void;
}

/** A checkbox that selects a group of boxes: ticked when all of them are, half-ticked when some are. */
export function TriStateBox({ label, state, disabled, onChange }: TriStateBoxProps) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = state === 'mixed';
  }, [state]);
  return (
    <input
      ref={ref}
      type="checkbox"
      aria-label={label}
      aria-checked={state === 'mixed' ? 'mixed' : undefined}
      checked={state === true}
      disabled={disabled}
      // A half-ticked group is completed, not emptied, by a click.
      onChange={() => onChange(state !== true)}
    />
  );
}
