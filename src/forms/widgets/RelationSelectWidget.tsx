import type { WidgetProps } from '@rjsf/utils';
import { ariaDescribedByIds } from '@rjsf/utils';
import type { ChangeEvent, FocusEvent } from 'react';
import { useRelationOptions } from '../useRelationOptions.ts';
import { RelationComboBox } from './RelationComboBox.tsx';

/**
 * A field holding another resource's record (a relation field); `ui:options.api` names the related API. One record
 * is picked in a combobox that searches the server; an array field is a multi-select of the first options.
 */
export function RelationSelectWidget(props: WidgetProps) {
  return props.schema.type === 'array' ? <RelationMultiSelect {...props} /> : <RelationComboBox {...props} />;
}

function RelationMultiSelect({
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
  const api = String(options.api ?? '');
  const { data = [], isPending, isError } = useRelationOptions(api);
  const multiple = schema.type === 'array';
  const numeric = isNumericSchema(multiple ? (schema.items as WidgetProps['schema']) : schema);
  const decode = (raw: string) => (raw === '' ? undefined : numeric ? Number(raw) : raw);

  const selectedValue = multiple
    ? ((value as unknown[] | undefined) ?? []).map(String)
    : value === undefined || value === null
      ? ''
      : String(value);
  const read = (event: ChangeEvent<HTMLSelectElement> | FocusEvent<HTMLSelectElement>) =>
    multiple ? Array.from(event.target.selectedOptions, (option) => decode(option.value)) : decode(event.target.value);

  return (
    <select
      id={id}
      name={id}
      className="form-control"
      multiple={multiple}
      value={selectedValue}
      required={required}
      disabled={disabled || readonly}
      aria-busy={isPending || undefined}
      aria-invalid={(rawErrors?.length ?? 0) > 0 || undefined}
      aria-describedby={ariaDescribedByIds(id)}
      onChange={(event) => onChange(read(event))}
      onBlur={(event) => onBlur(id, read(event))}
      onFocus={(event) => onFocus(id, read(event))}
    >
      {!multiple && (
        <option value="">{isPending ? 'Loading…' : isError ? 'Could not load the options' : 'Select…'}</option>
      )}
      {data.map((option) => (
        <option key={String(option.value)} value={String(option.value)}>
          {option.label}
        </option>
      ))}
    </select>
  );
}

function isNumericSchema(schema: WidgetProps['schema'] | undefined): boolean {
  return schema?.type === 'integer' || schema?.type === 'number';
}
