import type { FieldDescription } from '../../generated/types.ts';
import { formatValue, type Row } from './formatValue.ts';

/** A record's fields as a definition list: each field's title, and its value as a person reads it. */
export function RecordFields({
  fields,
  record,
  className = 'detail-list',
}: {
  fields: readonly FieldDescription[];
  record: Row;
  className?: string;
}) {
  return (
    <dl className={className}>
      {fields.map((field) => (
        <div key={field.name} className="detail-list__item">
          <dt>{field.title}</dt>
          <dd>{formatValue(field, record)}</dd>
        </div>
      ))}
    </dl>
  );
}
