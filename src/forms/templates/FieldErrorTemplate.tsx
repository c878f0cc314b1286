import { errorId, type FieldErrorProps } from '@rjsf/utils';

/** A field's errors as plain text under it, with the id the field's aria-describedby points at. */
export function FieldErrorTemplate({ errors = [], fieldPathId }: FieldErrorProps) {
  const shown = errors.filter(Boolean);
  if (shown.length === 0) return null;
  return (
    <p id={errorId(fieldPathId)} className="field-error">
      {shown.map((error, index) => (
        <span key={index}>{error}</span>
      ))}
    </p>
  );
}
