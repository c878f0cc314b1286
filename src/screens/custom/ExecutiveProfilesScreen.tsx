import { SUBSCRIBER_FIELDS } from '../../../contract/modules.ts';
import { readableFields } from '../../../contract/readableFields.ts';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router-dom';
import { http } from '../../http/index.ts';
import { useCanAccess } from '../../permissions/index.ts';
import type { ScreenProps } from '../ScreenProps.ts';
import { HistorySection } from '../history/HistorySection.tsx';
import { formatValue, type Row } from '../shared/formatValue.ts';
import { QueryState } from '../shared/QueryState.tsx';
import { RecordActions } from '../shared/RecordActions.tsx';
import { ScreenHeading, SCREEN_TITLE_ID } from '../shared/ScreenHeading.tsx';
import { useRecord } from '../shared/useRecord.ts';
import { useFieldDescription } from '../shared/useResourceDescription.ts';
import '../screens.css';
import './custom.css';
import { ColumnHeadings } from '../shared/ColumnHeadings.tsx';
import { RecordFields } from '../shared/RecordFields.tsx';

/** An executive, and the subscribers assigned to them: the only ones they see (executive_access). */
export default function ExecutiveProfilesScreen({ resource }: ScreenProps) {
  const { id = '' } = useParams();
  const executive = useRecord(resource.api, id);
  const viewerIsExecutive = useCanAccess('SUBSCRIBERS', 'executive_access').allowed;
  const subscribers = useQuery({
    queryKey: ['resource', resource.api, 'subscribers', id],
    queryFn: ({ signal }) =>
      http.get<{ data: Row[] }>(`${resource.api}/${id}/subscribers`, { signal }).then((body) => body.data),
  });
  const subscriberStatus = useFieldDescription('SUBSCRIBERS', SUBSCRIBER_FIELDS.status.field);
  const fields = readableFields(resource.entity?.fields ?? []).filter((field) => field.name !== 'id');
  const code = executive.data?.employee_code;

  return (
    <section className="screen" aria-labelledby={SCREEN_TITLE_ID}>
      <ScreenHeading actions={<RecordActions resource={resource} id={id} />}>
        {typeof code === 'string' ? `Executive ${code}` : 'Executive'}
      </ScreenHeading>
      {viewerIsExecutive && (
        <p className="note">
          You have executive access: subscriber screens show you only the subscribers assigned to you.
        </p>
      )}
      <QueryState query={executive} what="the executive">
        {executive.data && <RecordFields fields={fields} record={executive.data} className="detail-list panel" />}
      </QueryState>
      <section className="panel" aria-labelledby="assigned-title">
        <h2 id="assigned-title">Assigned subscribers{subscribers.data ? ` (${subscribers.data.length})` : ''}</h2>
        <p>With executive access, this executive sees only these subscribers in every subscriber screen and export.</p>
        <QueryState query={subscribers} what="the assigned subscribers">
          {subscribers.data?.length === 0 ? (
            <p>No subscribers are assigned to this executive.</p>
          ) : (
            <table className="data-table">
              <ColumnHeadings names={['Name', 'Email', 'Company', 'Status']} />
              <tbody>
                {(subscribers.data ?? []).map((subscriber) => (
                  <tr key={String(subscriber.id)}>
                    <td>{formatValue(undefined, subscriber, 'name')}</td>
                    <td>{formatValue(undefined, subscriber, 'email')}</td>
                    <td>{formatValue(undefined, subscriber, 'company_name')}</td>
                    <td>{formatValue(subscriberStatus, subscriber, SUBSCRIBER_FIELDS.status.field)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </QueryState>
      </section>
      {executive.data && <HistorySection resource={resource} recordId={id} version={Number(executive.data.version)} />}
    </section>
  );
}
