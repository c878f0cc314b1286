import type { WidgetProps } from '@rjsf/utils';
import { useEffect, useRef } from 'react';
import { controlAttributes } from './widgetInput.ts';

/**
 * A file to be sent as it is (a trade-data CSV). The field's value is the file's name; the screen gets the file itself
 * through `ui:options.onFile`, and `ui:options.accept` narrows the picker. Emptied when the form's value is (after a
 * send), which its value alone cannot do.
 */
export function FileWidget(props: WidgetProps) {
  const { id, value, options, onBlur, onFocus } = props;
  const input = useRef<HTMLInputElement>(null);
  const onFile = options.onFile as ((file: File | null) => void) | undefined;
  const name = typeof value === 'string' ? value : undefined;
  useEffect(() => {
    if (!name && input.current) input.current.value = '';
  }, [name]);
  return (
    <input
      {...controlAttributes(props)}
      ref={input}
      type="file"
      accept={typeof options.accept === 'string' ? options.accept : undefined}
      onChange={(event) => onFile?.(event.target.files?.[0] ?? null)}
      onBlur={() => onBlur(id, name)}
      onFocus={() => onFocus(id, name)}
    />
  );
}
