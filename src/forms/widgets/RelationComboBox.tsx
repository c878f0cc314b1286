import type { WidgetProps } from '@rjsf/utils';
import { RelationPicker } from '../RelationPicker.tsx';
import { controlAttributes } from './widgetInput.ts';

/** A form's relation field: the record picked by searching the server (RelationPicker), its id the field's value. */
export function RelationComboBox(props: WidgetProps) {
  const { id, schema, options, value, onChange, onBlur, onFocus } = props;
  const control = controlAttributes(props);
  const numeric = schema.type === 'integer' || schema.type === 'number';
  const chosen = value === undefined || value === null || value === '' ? null : (value as string | number);
  return (
    <RelationPicker
      id={id}
      api={String(options.api ?? '')}
      value={chosen}
      label={String(schema.title ?? 'the field')}
      required={control.required}
      disabled={control.disabled}
      invalid={control['aria-invalid'] === true}
      describedBy={control['aria-describedby']}
      onChange={(option) => onChange(option === null ? undefined : numeric ? Number(option.value) : option.value)}
      onFocus={() => onFocus(id, chosen ?? undefined)}
      onBlur={() => onBlur(id, chosen ?? undefined)}
    />
  );
}
