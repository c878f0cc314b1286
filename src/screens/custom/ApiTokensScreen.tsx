import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ApiTokenAnswer } from '../../../contract/apiTokens.ts';
import { http } from '../../http/index.ts';
import { toastSuccess } from '../../shell/index.ts';
import { PagedRowsTable, type PageOf } from '../generic/list/PagedRowsTable.tsx';
import { usePaging } from '../generic/list/usePaging.ts';
import type { ScreenProps } from '../ScreenProps.ts';
import { ConfirmDialog } from '../shared/ConfirmDialog.tsx';
import { RefreshButton } from '../shared/RefreshButton.tsx';
import { formatDate } from '../shared/formatValue.ts';
import type { RowsTableColumn } from '../shared/RowsTable.tsx';
import { ScreenHeading, SCREEN_TITLE_ID } from '../shared/ScreenHeading.tsx';
import { useResourceAccess } from '../shared/useResourceAccess.ts';
import { NewTokenDialog } from './apiTokens/NewTokenDialog.tsx';
import { permissionsSummary } from './apiTokens/tokenPermissions.ts';
import '../screens.css';
import './custom.css';
import './apiTokens/apiTokens.css';

const PAGE_SIZE = 50;
const STATUS_LABELS: Record<ApiTokenAnswer['status'], string> = {
  active: 'Active',
  expired: 'Expired',
  revoked: 'Revoked',
};

/** When the token stops, stopped or was revoked, as its status cell says it. */
function statusDate(token: ApiTokenAnswer): string {
  if (token.revoked_at) return `on ${formatDate(token.revoked_at, false)}`;
  return `${token.status === 'expired' ? 'on' : 'until'} ${formatDate(token.expires_at, false)}`;
}

/**
 * API tokens: the credentials other systems call the API with, each with what it may do, who made it, its last use
 * and expiry; make one (its secret shown once) or revoke one.
 */
export default function ApiTokensScreen({ resource }: ScreenProps) {
  const access = useResourceAccess(resource);
  const queryClient = useQueryClient();
  const paging = usePaging(PAGE_SIZE);
  const { page, size } = paging;
  const [making, setMaking] = useState(false);
  const [revoking, setRevoking] = useState<ApiTokenAnswer | null>(null);
  const tokens = useQuery({
    queryKey: ['api-tokens', page, size],
    queryFn: ({ signal }) =>
      http.get<PageOf<ApiTokenAnswer>>(resource.api, { params: { _page: page, _page_size: size }, signal }),
    placeholderData: keepPreviousData,
  });
  const revoke = useMutation({
    mutationFn: (token: ApiTokenAnswer) => http.delete<{ message: string }>(`${resource.api}/${token.id}`),
    onSuccess: (body) => {
      toastSuccess(body.message);
      setRevoking(null);
      void queryClient.invalidateQueries({ queryKey: ['api-tokens'] });
    },
  });
  const columns: RowsTableColumn<ApiTokenAnswer>[] = [
    {
      heading: 'Name',
      cell: (token) => (
        <>
          <strong>{token.name}</strong>
          <br />
          <code className="api-tokens__prefix">{token.prefix}…</code>
        </>
      ),
    },
    {
      heading: 'May',
      cell: (token) => permissionsSummary(token.permissions),
      className: 'api-tokens__permissions',
    },
    {
      heading: 'Made by',
      cell: (token) => (
        <>
          {token.created_by_email}
          <br />
          <span className="api-tokens__secondary">{formatDate(token.created_at, false)}</span>
        </>
      ),
    },
    { heading: 'Last used', cell: (token) => (token.last_used_at ? formatDate(token.last_used_at, true) : 'Never') },
    {
      heading: 'Status',
      cell: (token) => (
        <>
          <span className="status-badge">{STATUS_LABELS[token.status]}</span>
          <br />
          <span className="api-tokens__secondary">{statusDate(token)}</span>
        </>
      ),
    },
    ...(access.delete
      ? [
          {
            heading: 'Actions',
            cell: (token: ApiTokenAnswer) =>
              token.status === 'revoked' ? null : (
                <button
                  type="button"
                  className="button button--danger"
                  aria-label={`Revoke ${token.name}`}
                  onClick={() => setRevoking(token)}
                >
                  Revoke
                </button>
              ),
          },
        ]
      : []),
  ];

  return (
    <section className="screen" aria-labelledby={SCREEN_TITLE_ID}>
      <ScreenHeading
        actions={
          <>
            {access.add && (
              <button type="button" className="button button--primary" onClick={() => setMaking(true)}>
                New API token
              </button>
            )}
            <RefreshButton query={tokens} />
          </>
        }
      >
        {resource.label}
      </ScreenHeading>
      <p className="api-tokens__intro">
        Another system (billing, the website, a CRM) calls the API with a token instead of a person's password. A token
        may do only what it was given, within what the person who made it may do, until it expires or is revoked.
      </p>
      <PagedRowsTable
        query={tokens}
        what="the API tokens"
        empty="No API tokens yet."
        label="API tokens table"
        columns={columns}
        paging={paging}
      />
      {making && (
        <NewTokenDialog
          api={resource.api}
          onClose={(made) => {
            setMaking(false);
            if (made) void queryClient.invalidateQueries({ queryKey: ['api-tokens'] });
          }}
        />
      )}
      {revoking && (
        <ConfirmDialog
          title={`Revoke API token "${revoking.name}"?`}
          confirmLabel="Revoke"
          destructive
          busy={revoke.isPending}
          onConfirm={() => revoke.mutate(revoking)}
          onCancel={() => setRevoking(null)}
        >
          The system using it is refused from its next request on. This cannot be undone: a new token would have to be
          made and given to it.
        </ConfirmDialog>
      )}
    </section>
  );
}
