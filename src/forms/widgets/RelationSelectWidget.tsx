import type { WidgetProps } from '@rjsf/utils';
import { useRelationOptions } from '../useRelationOptions.ts';
import { RelationComboBox } from './RelationComboBox.tsx';
import { controlAttributes, valueEvents } from './widgetInput.ts';

/**
 * A field holding another resource's record (a relation field); `ui:options.api` names the related API. One record
 * is picked in a combobox that searches the server; an array field is a multi-select of the first options.
 */
export function RelationSelectWidget(props: WidgetProps) {
  return props.schema.type === 'array' ? <RelationMultiSelect {...props} /> : <RelationComboBox {...props} />;
}

/** An array of relation ids: a multi-select of the related API's first options. */
function RelationMultiSelect(props: WidgetProps) {
  const { schema, options, value } = props;
  const { data = [], isPending } = useRelationOptions(String(options.api ?? ''));
  const items = schema.items as WidgetProps['schema'] | undefined;
  const numeric = items?.type === 'integer' || items?.type === 'number';
  const read = (select: HTMLSelectElement) =>
    Array.from(select.selectedOptions, (option) => (numeric ? Number(option.value) : option.value));
  return (
    <select
      {...controlAttributes(props)}
      {...valueEvents(props, read)}
      multiple
      value={((value as unknown[] | undefined) ?? []).map(String)}
      aria-busy={isPending || undefined}
    >
      {data.map((option) => (
        <option key={String(option.value)} value={String(option.value)}>
          {option.label}
        </option>
      ))}
    </select>
  );
}
