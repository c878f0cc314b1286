import type { WidgetProps } from '@rjsf/utils';
import { ariaDescribedByIds } from '@rjsf/utils';
import { RelationPicker } from '../RelationPicker.tsx';

/** A form's relation field: the record picked by searching the server (RelationPicker), its id the field's value. */
export function RelationComboBox({
  id,
  schema,
  options,
  value,
  required,
  disabled,
  readonly,
  onChange,
  onBlur,
  onFocus,
  rawErrors,
}: WidgetProps) {
  const numeric = schema.type === 'integer' || schema.type === 'number';
  const chosen = value === undefined || value === null || value === '' ? null : (value as string | number);
  return (
    <RelationPicker
      id={id}
      api={String(options.api ?? '')}
      value={chosen}
      label={String(schema.title ?? 'the field')}
      required={required}
      disabled={disabled || readonly}
      invalid={(rawErrors?.length ?? 0) > 0}
      describedBy={ariaDescribedByIds(id)}
      onChange={(option) => onChange(option === null ? undefined : numeric ? Number(option.value) : option.value)}
      onFocus={() => onFocus(id, chosen ?? undefined)}
      onBlur={() => onBlur(id, chosen ?? undefined)}
    />
  );
}
