import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http as mock, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { customResource } from '../testing/fixtures.ts';
import { api, renderScreen, routeOf, server, signInWith } from '../testing/renderScreen.tsx';
import SyncTrendingDataScreen from './SyncTrendingDataScreen.tsx';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const resource = customResource(
  'SYNC_TRENDING_DATA',
  'sync-trending-data',
  ['view', 'refresh'],
  '/data-upload-management/sync-trending-data',
);
const route = routeOf(resource, 'view', 'sync-trending-data');

describe('SyncTrendingDataScreen', () => {
  it('lists trending products and offers Sync now only with the refresh permission', async () => {
    signInWith({ SYNC_TRENDING_DATA: ['view'] });
    server.use(
      mock.get(api('sync-trending-data'), () =>
        HttpResponse.json({
          data: { synced_at: null, items: [{ hs_code: '0901', product: 'Coffee', shipments: 12, value: 3400 }] },
        }),
      ),
    );
    renderScreen(SyncTrendingDataScreen, { resource, route });
    expect(await screen.findByRole('cell', { name: 'Coffee' })).toBeInTheDocument();
    expect(screen.getByText('Last synced: never')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Sync now' })).not.toBeInTheDocument();
  });

  it('syncs and reloads the list with the refresh permission', async () => {
    signInWith({ SYNC_TRENDING_DATA: ['view', 'refresh'] });
    let synced = false;
    server.use(
      mock.get(api('sync-trending-data'), () =>
        HttpResponse.json({ data: { synced_at: synced ? '2026-11-20T10:00:00Z' : null, items: [] } }),
      ),
      mock.post(api('sync-trending-data/refresh'), () => {
        synced = true;
        return HttpResponse.json({ data: { synced_at: '2026-11-20T10:00:00Z', rows: 0 } });
      }),
    );
    const user = userEvent.setup();
    renderScreen(SyncTrendingDataScreen, { resource, route });
    await user.click(await screen.findByRole('button', { name: 'Sync now' }));
    await waitFor(() => expect(screen.queryByText('Last synced: never')).not.toBeInTheDocument());
  });
});
