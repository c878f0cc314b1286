import type { ReactNode } from 'react';
import { readableFields } from '../../../contract/readableFields.ts';
import { useParams } from 'react-router-dom';
import type { FieldDescription } from '../../generated/types.ts';
import type { ScreenProps } from '../ScreenProps.ts';
import { HistorySection } from '../history/HistorySection.tsx';
import { QueryState } from '../shared/QueryState.tsx';
import { RecordActions } from '../shared/RecordActions.tsx';
import { ScreenHeading, SCREEN_TITLE_ID } from '../shared/ScreenHeading.tsx';
import { useRecord } from '../shared/useRecord.ts';
import '../screens.css';
import { RecordFields } from '../shared/RecordFields.tsx';

export interface DetailScreenProps extends ScreenProps {
  /** What a module's own detail screen shows below the fields (a user's e-mail verification). */
  children?: ReactNode;
}

/** One record of any resource, every readable field labelled, its history, with the way to edit it and back to the list. */
export default function DetailScreen({ resource, children }: DetailScreenProps) {
  const { id = '' } = useParams();
  const record = useRecord(resource.api, id);
  const fields = readableFields(resource.entity?.fields ?? []);
  const heading = record.data ? titleOf(record.data, fields, resource.singular) : resource.singular;

  return (
    <section className="screen" aria-labelledby={SCREEN_TITLE_ID}>
      <ScreenHeading actions={<RecordActions resource={resource} id={id} />}>{heading}</ScreenHeading>
      <QueryState query={record} what={resource.singular.toLowerCase()}>
        {record.data && <RecordFields fields={fields} record={record.data} />}
      </QueryState>
      {record.data && children}
      {record.data && <HistorySection resource={resource} recordId={id} version={Number(record.data.version)} />}
    </section>
  );
}

/** "Voucher DIWALI50": the singular and the record's first text field. */
function titleOf(record: Record<string, unknown>, fields: readonly FieldDescription[], singular: string): string {
  const named = fields.find(
    (field) => field.type === 'string' && !field.system && !field.relation && typeof record[field.name] === 'string',
  );
  return named ? `${singular} ${String(record[named.name])}` : singular;
}
