import { screen, waitFor, within } from '@testing-library/react';
import { http as mock, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { api, renderScreen, routeOf, server, signInWith } from '../../testing/renderScreen.tsx';
import ListScreen from '../../generic/ListScreen.tsx';
import { serveCountries, uploads } from './uploadTesting.ts';

const route = routeOf(uploads, 'view', 'list');
const upload = (id: number, status: string, rowsAccepted: number | null) => ({
  id,
  country_id: 1,
  country_id_label: 'India',
  trade_direction: 'import',
  period: '2026-09',
  file_name: `shipments-${id}.csv`,
  status,
  rows_accepted: rowsAccepted,
  created_at: '2026-11-26T10:00:00Z',
  version: 1,
});
const progress = (id: number, status: string, read: number) => ({
  upload_id: id,
  status,
  bytes_total: 1000,
  bytes_read: read,
  rows_read: read * 10,
  rows_accepted: read * 10,
  rows_rejected: 0,
  started_at: '2026-11-26T10:00:00Z',
  updated_at: '2026-11-26T10:00:30Z',
  rows_per_second: 400,
  seconds_left: 150,
  cancel_requested: false,
});

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describe('the uploads list', () => {
  it("shows a processing upload's live progress in its Status cell, asks only for the running ones, and reloads the page once one has ended", async () => {
    signInWith({ DATA_UPLOAD_LOGS: ['view'] });
    serveCountries();
    let ended = false;
    const asked: string[] = [];
    let listLoads = 0;
    server.use(
      mock.get(api('uploads'), () => {
        listLoads += 1;
        return HttpResponse.json({
          data: [upload(5, ended ? 'published' : 'processing', ended ? 12_000 : null), upload(4, 'published', 300)],
          meta: { total: 2, page: 1, page_size: 20 },
        });
      }),
      mock.get(api('uploads/progress'), ({ request }) => {
        asked.push(new URL(request.url).searchParams.get('ids')!);
        return HttpResponse.json({ data: [progress(5, ended ? 'published' : 'processing', ended ? 1000 : 420)] });
      }),
    );
    renderScreen(ListScreen, { resource: uploads, route });

    const bar = await screen.findByRole('progressbar', { name: 'Processing: 42% of the file read' });
    const cell = bar.closest('td')!;
    expect(within(cell).getByText('42% · 4,200 rows · about 3 min left')).toBeInTheDocument();
    expect(asked).toEqual(['5']);
    // The finished one is shown as it is, with no bar.
    expect(screen.getAllByRole('progressbar')).toHaveLength(1);

    const loadsBefore = listLoads;
    ended = true;
    await waitFor(() => expect(listLoads).toBeGreaterThan(loadsBefore), { timeout: 5000 });
    await waitFor(() => expect(screen.queryByRole('progressbar')).not.toBeInTheDocument());
    expect(screen.getAllByRole('cell', { name: 'Published' })).toHaveLength(2);
    expect(screen.getByRole('cell', { name: '12,000' })).toBeInTheDocument();
  });

  it('an import the progress says has ended shows its end at once, with no bar, before the page is loaded again', async () => {
    signInWith({ DATA_UPLOAD_LOGS: ['view'] });
    serveCountries();
    server.use(
      mock.get(api('uploads'), () =>
        HttpResponse.json({ data: [upload(5, 'processing', null)], meta: { total: 1, page: 1, page_size: 20 } }),
      ),
      mock.get(api('uploads/progress'), () => HttpResponse.json({ data: [progress(5, 'cancelled', 420)] })),
    );
    renderScreen(ListScreen, { resource: uploads, route });
    expect(await screen.findByRole('cell', { name: 'Cancelled' })).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('asks for no progress when every upload of the page has ended', async () => {
    signInWith({ DATA_UPLOAD_LOGS: ['view'] });
    serveCountries();
    let progressAsked = false;
    server.use(
      mock.get(api('uploads'), () =>
        HttpResponse.json({
          data: [upload(4, 'published', 300), upload(3, 'failed', null)],
          meta: { total: 2, page: 1, page_size: 20 },
        }),
      ),
      mock.get(api('uploads/progress'), () => {
        progressAsked = true;
        return HttpResponse.json({ data: [] });
      }),
    );
    renderScreen(ListScreen, { resource: uploads, route });
    expect(await screen.findByRole('cell', { name: 'Failed' })).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(progressAsked).toBe(false);
  });
});
