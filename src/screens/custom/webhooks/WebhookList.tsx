import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { WebhookAnswer } from '../../../../contract/webhooks.ts';
import type { ResourceDescription } from '../../../generated/types.ts';
import { PagedRowsTable } from '../../generic/list/PagedRowsTable.tsx';
import { usePaging } from '../../generic/list/usePaging.ts';
import { RefreshButton } from '../../shared/RefreshButton.tsx';
import { formatDate } from '../../shared/formatValue.ts';
import type { RowsTableColumn } from '../../shared/RowsTable.tsx';
import { ScreenHeading } from '../../shared/ScreenHeading.tsx';
import { useResourceAccess } from '../../shared/useResourceAccess.ts';
import { DeliveryStateBadge } from './DeliveryStateBadge.tsx';
import { WebhookDialog } from './WebhookDialog.tsx';
import { eventsSummary } from './webhookEvents.ts';
import { useWebhookEvents, useWebhooks, WEBHOOKS_QUERY } from './webhookQueries.ts';

const PAGE_SIZE = 50;

export interface WebhookListProps {
  resource: ResourceDescription;
  /** The address of one webhook's detail. */
  detailPath: (id: number) => string;
}

/** What is waiting: "2 pending · 1 failed", or that nothing is. */
function queueText(webhook: WebhookAnswer): string {
  const parts = [
    ...(webhook.pending > 0 ? [`${webhook.pending} pending`] : []),
    ...(webhook.failed > 0 ? [`${webhook.failed} failed`] : []),
  ];
  return parts.length > 0 ? parts.join(' · ') : 'None';
}

/** The webhooks: each one's receiver, the events it wants, whether it is on and how its deliveries go; make one. */
export function WebhookList({ resource, detailPath }: WebhookListProps) {
  const access = useResourceAccess(resource);
  const queryClient = useQueryClient();
  const paging = usePaging(PAGE_SIZE);
  const [making, setMaking] = useState(false);
  const webhooks = useWebhooks(resource.api, paging.page, paging.size);
  const choices = useWebhookEvents(resource.api).data ?? [];
  const columns: RowsTableColumn<WebhookAnswer>[] = [
    {
      heading: 'Webhook',
      cell: (webhook) => (
        <>
          <Link to={detailPath(webhook.id)} className="webhooks__name">
            {webhook.name}
          </Link>
          <br />
          <span className="webhooks__url">{webhook.url}</span>
        </>
      ),
      className: 'webhooks__receiver',
    },
    { heading: 'Events', cell: (webhook) => eventsSummary(webhook.events, choices), className: 'webhooks__events' },
    {
      heading: 'Status',
      cell: (webhook) => <span className="status-badge">{statusBadge(webhook)}</span>,
    },
    {
      heading: 'Last delivery',
      cell: ({ last_delivery: last }) =>
        last ? (
          <>
            <DeliveryStateBadge state={last.state} />
            <br />
            <span className="webhooks__secondary">
              {formatDate(last.at, true)}
              {last.response_status !== null && ` · HTTP ${last.response_status}`}
            </span>
          </>
        ) : (
          'Nothing sent yet'
        ),
    },
    { heading: 'Waiting or failed', cell: queueText },
  ];

  return (
    <>
      <ScreenHeading
        actions={
          <>
            {access.add && (
              <button type="button" className="button button--primary" onClick={() => setMaking(true)}>
                New webhook
              </button>
            )}
            <RefreshButton query={webhooks} />
          </>
        }
      >
        {resource.label}
      </ScreenHeading>
      <p className="webhook-help">
        A webhook tells another system (billing, the website, a CRM) when records change here: each event it wants is
        sent to its URL as a POST, signed with its secret so that the receiver can check it came from here, and tried
        again until the receiver takes it. Open a webhook to see its deliveries.
      </p>
      <PagedRowsTable
        query={webhooks}
        what="the webhooks"
        empty="No webhooks yet: no other system is told of changes."
        label="Webhooks table"
        columns={columns}
        paging={paging}
      />
      {making && (
        <WebhookDialog
          api={resource.api}
          onClose={(made) => {
            setMaking(false);
            if (made) void queryClient.invalidateQueries({ queryKey: [WEBHOOKS_QUERY] });
          }}
        />
      )}
    </>
  );
}

function statusBadge({ enabled, paused_reason, maker_active }: WebhookAnswer): string {
  if (enabled) return maker_active ? 'Enabled' : 'Silent: maker inactive';
  return paused_reason === null ? 'Paused' : 'Paused: deliveries failing';
}
