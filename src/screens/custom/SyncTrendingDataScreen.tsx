import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../http/index.ts';
import { useCanAccess } from '../../permissions/index.ts';
import { toastSuccess } from '../../shell/index.ts';
import type { ScreenProps } from '../ScreenProps.ts';
import { formatDate, formatValue } from '../shared/formatValue.ts';
import { QueryState } from '../shared/QueryState.tsx';
import { ScreenHeading, SCREEN_TITLE_ID } from '../shared/ScreenHeading.tsx';
import '../screens.css';
import { ColumnHeadings } from '../shared/ColumnHeadings.tsx';
import { BusyButton } from '../shared/BusyButton.tsx';

interface Trending {
  synced_at: string | null;
  items: { hs_code: string; product: string; shipments: number; value: number }[];
}

/** The trending products computed from uploaded data, and (with the refresh permission) recomputing them. */
export default function SyncTrendingDataScreen({ resource }: ScreenProps) {
  const queryClient = useQueryClient();
  const canRefresh = useCanAccess(resource.module, 'refresh').allowed && resource.actions.includes('refresh');
  const key = ['resource', resource.api];
  const trending = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => http.get<{ data: Trending }>(resource.api, { signal }).then((body) => body.data),
  });
  const sync = useMutation({
    mutationFn: () =>
      http.post<{ data: { synced_at: string; rows: number }; message?: string }>(`${resource.api}/refresh`),
    onSuccess: (body) => {
      toastSuccess(body.message ?? `Trending data synced: ${body.data.rows} products.`);
      void queryClient.invalidateQueries({ queryKey: key });
    },
  });

  return (
    <section className="screen" aria-labelledby={SCREEN_TITLE_ID}>
      <ScreenHeading
        actions={
          canRefresh && (
            <BusyButton
              className="button button--primary"
              onClick={() => sync.mutate()}
              busy={sync.isPending}
              busyLabel="Syncing…"
            >
              Sync now
            </BusyButton>
          )
        }
      >
        {resource.label}
      </ScreenHeading>
      <QueryState query={trending} what="trending data">
        {trending.data && (
          <>
            <p>Last synced: {trending.data.synced_at ? formatDate(trending.data.synced_at, true) : 'never'}</p>
            {trending.data.items.length === 0 ? (
              <p className="screen-state">No trending products yet.</p>
            ) : (
              <table className="data-table">
                <caption className="visually-hidden">Trending products</caption>
                <ColumnHeadings names={['HS code', 'Product', 'Shipments', 'Value']} />
                <tbody>
                  {trending.data.items.map((item) => (
                    <tr key={item.hs_code}>
                      <td>{item.hs_code}</td>
                      <td>{item.product}</td>
                      <td>{formatValue(undefined, item, 'shipments')}</td>
                      <td>{formatValue(undefined, item, 'value')}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </>
        )}
      </QueryState>
    </section>
  );
}
