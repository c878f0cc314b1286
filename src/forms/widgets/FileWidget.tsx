import type { WidgetProps } from '@rjsf/utils';
import { ariaDescribedByIds } from '@rjsf/utils';
import { useEffect, useRef } from 'react';

/**
 * A file to be sent as it is (a trade-data CSV). The field's value is the file's name; the screen gets the file itself
 * through `ui:options.onFile`, and `ui:options.accept` narrows the picker. Emptied when the form's value is (after a
 * send), which its value alone cannot do.
 */
export function FileWidget({
  id,
  value,
  required,
  disabled,
  readonly,
  options,
  onBlur,
  onFocus,
  rawErrors,
}: WidgetProps) {
  const input = useRef<HTMLInputElement>(null);
  const onFile = options.onFile as ((file: File | null) => void) | undefined;
  const name = typeof value === 'string' ? value : undefined;
  useEffect(() => {
    if (!name && input.current) input.current.value = '';
  }, [name]);
  return (
    <input
      ref={input}
      id={id}
      name={id}
      type="file"
      className="form-control"
      accept={typeof options.accept === 'string' ? options.accept : undefined}
      required={required}
      disabled={disabled || readonly}
      aria-invalid={(rawErrors?.length ?? 0) > 0 || undefined}
      aria-describedby={ariaDescribedByIds(id)}
      onChange={(event) => onFile?.(event.target.files?.[0] ?? null)}
      onBlur={() => onBlur(id, name)}
      onFocus={() => onFocus(id, name)}
    />
  );
}
