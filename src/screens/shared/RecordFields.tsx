import type { FieldDescription } from '../../generated/types.ts';
import { DetailItem } from './DetailItem.tsx';
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
        <DetailItem key={field.name} term={field.title}>
          {formatValue(field, record)}
        </DetailItem>
      ))}
    </dl>
  );
}
