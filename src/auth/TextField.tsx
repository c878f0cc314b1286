import { useId, type InputHTMLAttributes } from 'react';
import type { AuthField } from './useAuthForm.ts';

export interface TextFieldProps extends Pick<
  InputHTMLAttributes<HTMLInputElement>,
  'type' | 'autoComplete' | 'autoFocus' | 'inputMode'
> {
  label: string;
  name: string;
  field: AuthField;
}

/** A labelled input with its error message tied to it for assistive technology. */
export function TextField({ label, name, field, type = 'text', ...input }: TextFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        {...input}
        id={id}
        name={name}
        type={type}
        value={field.value}
        onChange={(event) => field.onChange(event.target.value)}
        onBlur={field.onBlur}
        aria-invalid={field.error ? true : undefined}
        aria-describedby={field.error ? errorId : undefined}
      />
      {/* Always rendered: the space is kept, so an error appearing on blur does not move the button under the pointer. */}
      <p id={errorId} className="field-error">
        {field.error}
      </p>
    </div>
  );
}
