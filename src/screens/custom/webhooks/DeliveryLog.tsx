import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { PING_EVENT, type WebhookDeliveryAnswer } from '../../../../contract/webhooks.ts';
import { http } from '../../../http/index.ts';
import { toastSuccess } from '../../../shell/index.ts';
import { PagedRowsTable } from '../../generic/list/PagedRowsTable.tsx';
import { usePaging } from '../../generic/list/usePaging.ts';
import { BusyButton } from '../../shared/BusyButton.tsx';
import { formatDate } from '../../shared/formatValue.ts';
import type { RowsTableColumn } from '../../shared/RowsTable.tsx';
import { DeliveryDetailsDialog } from './DeliveryDetailsDialog.tsx';
import { DeliveryStateBadge } from './DeliveryStateBadge.tsx';
import { useDeliveries, WEBHOOKS_QUERY, type DeliveryFilter } from './webhookQueries.ts';

const PAGE_SIZE = 20;

const FILTERS: { value: DeliveryFilter | ''; label: string }[] = [
  { value: '', label: 'All' },
  { value: 'pending', label: 'Pending' },
  { value: 'delivered', label: 'Delivered' },
  { value: 'failed', label: 'Failed' },
];

export interface DeliveryLogProps {
  api: string;
  webhookId: number;
  /** The user may edit webhooks: "Send again" is offered. */
  maySendAgain: boolean;
}

/**
 * A webhook's deliveries, newest first, filtered by state: each one's event, state, attempts and the receiver's
 * status; its body and the receiver's answer in full; and "Send again" (a new delivery of the same event).
 */
export function DeliveryLog({ api, webhookId, maySendAgain }: DeliveryLogProps) {
  const queryClient = useQueryClient();
  const filterId = useId();
  const [state, setState] = useState<DeliveryFilter | null>(null);
  const paging = usePaging(PAGE_SIZE);
  const [reading, setReading] = useState<WebhookDeliveryAnswer | null>(null);
  const deliveries = useDeliveries(api, { webhookId, state, page: paging.page, size: paging.size });
  const sendAgain = useMutation({
    mutationFn: (delivery: WebhookDeliveryAnswer) =>
      http.post<{ data: WebhookDeliveryAnswer; message: string }>(
        `${api}/${webhookId}/deliveries/${delivery.id}/resend`,
      ),
    onSuccess: (body) => {
      toastSuccess(body.message);
      void queryClient.invalidateQueries({ queryKey: [WEBHOOKS_QUERY] });
    },
  });
  const columns: RowsTableColumn<WebhookDeliveryAnswer>[] = [
    {
      heading: 'Event',
      cell: (delivery) => (
        <>
          <code>{delivery.event}</code>
          {delivery.event === PING_EVENT && <span className="webhooks__secondary"> (test)</span>}
          {delivery.replay_of !== null && (
            <>
              <br />
              <span className="webhooks__secondary">sends #{delivery.replay_of} again</span>
            </>
          )}
        </>
      ),
    },
    {
      heading: 'State',
      cell: (delivery) => (
        <>
          <DeliveryStateBadge state={delivery.state} />
          {delivery.next_attempt_at && (
            <>
              <br />
              <span className="webhooks__secondary">next attempt {formatDate(delivery.next_attempt_at, true)}</span>
            </>
          )}
        </>
      ),
    },
    { heading: 'Attempts', cell: (delivery) => delivery.attempts },
    {
      heading: 'HTTP status',
      cell: (delivery) => delivery.response_status ?? (delivery.attempts > 0 ? 'No answer' : '—'),
    },
    { heading: 'When', cell: (delivery) => formatDate(delivery.created_at, true), className: 'webhooks__when' },
    {
      heading: 'Actions',
      cell: (delivery) => (
        <div className="row-actions">
          <button
            type="button"
            className="link-button"
            aria-label={`Details of delivery #${delivery.id}`}
            onClick={() => setReading(delivery)}
          >
            Details
          </button>
          {maySendAgain && (
            <BusyButton
              className="link-button"
              aria-label={`Send again: delivery #${delivery.id}`}
              busy={sendAgain.isPending && sendAgain.variables.id === delivery.id}
              onClick={() => sendAgain.mutate(delivery)}
            >
              Send again
            </BusyButton>
          )}
        </div>
      ),
    },
  ];

  return (
    <section className="panel" aria-labelledby={`${filterId}-title`}>
      <div className="webhook-log__heading">
        <h2 id={`${filterId}-title`}>Delivery log</h2>
        <div className="field webhook-log__filter">
          <label htmlFor={filterId}>State</label>
          <select
            id={filterId}
            value={state ?? ''}
            onChange={(event) => {
              const chosen = FILTERS.find((filter) => filter.value === event.target.value)?.value;
              setState(chosen || null);
              paging.onPage(1);
            }}
          >
            {FILTERS.map((filter) => (
              <option key={filter.value} value={filter.value}>
                {filter.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      <PagedRowsTable
        query={deliveries}
        what="the deliveries"
        empty={state ? `No ${state} deliveries.` : 'Nothing sent to it yet.'}
        label="Deliveries table"
        columns={columns}
        className="data-table webhook-log__table"
        paging={paging}
        pagerOnSinglePage
      />
      {reading && <DeliveryDetailsDialog delivery={reading} onClose={() => setReading(null)} />}
    </section>
  );
}
