import { useId } from 'react';

export interface CodeFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
}

/** A field for a code of the authenticator app (or a recovery code, where one is accepted). */
export function CodeField({ label, value, onChange }: CodeFieldProps) {
  const id = useId();
  return (
    <div className="field two-factor__field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name="code"
        autoComplete="one-time-code"
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}
