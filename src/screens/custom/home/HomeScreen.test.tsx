import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, within } from '@testing-library/react';
import { http as mock, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { renderRoutes } from '../../../test/renderWithRouter.tsx';
import { api, server, signInWith } from '../../testing/renderScreen.tsx';
import type { HomeCard } from '../../../../contract/home.ts';
import { queryClient } from '../../../query/queryClient.ts';
import { HomeScreen, prefetch } from './HomeScreen.tsx';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const CARDS: HomeCard[] = [
  {
    key: 'expiring_subscribers',
    title: 'Expiring subscriptions',
    link: '/subscriber-management/subscribers?status=expiring',
    figures: [
      {
        label: 'subscribers whose subscription is expiring',
        value: 1234,
        unit: 'count',
        link: '/subscriber-management/subscribers?status=expiring',
        previous: null,
      },
    ],
    items: [],
  },
  {
    key: 'revenue',
    title: 'Revenue',
    link: '/admin-reporting-management/reports?from=2026-11-01&to=2026-11-30',
    figures: [
      {
        label: 'received this month',
        value: 123456.5,
        unit: 'rupees',
        link: '/admin-reporting-management/reports?from=2026-11-01&to=2026-11-30',
        previous: {
          label: 'received last month',
          value: 124456.5,
          link: '/admin-reporting-management/reports?from=2026-10-01&to=2026-10-31',
        },
      },
    ],
    items: [],
  },
  {
    key: 'new_subscribers',
    title: 'New subscribers',
    link: '/subscriber-management/subscribers',
    figures: [
      {
        label: 'new subscribers this month',
        value: 52,
        unit: 'count',
        link: null,
        previous: { label: 'new subscribers last month', value: 40, link: null },
      },
    ],
    items: [],
  },
  {
    key: 'last_uploads',
    title: 'Last upload per country and direction',
    link: '/data-upload-management/uploads',
    figures: [],
    items: [
      {
        label: 'India, import',
        detail: '2026-09: Failed',
        at: '2026-11-20T10:00:00.000Z',
        link: '/data-upload-management/uploads?country_id=3&trade_direction=import',
      },
    ],
  },
  { key: 'recent_changes', title: 'Recent changes', link: '/user-management/audit-log', figures: [], items: [] },
];

function renderHome(cards: HomeCard[]) {
  server.use(mock.get(api('home'), () => HttpResponse.json({ data: { cards } })));
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return renderRoutes(
    [
      { path: '/home', element: <HomeScreen /> },
      { path: '*', element: <h1>Elsewhere</h1> },
    ],
    ['/home'],
    (router) => <QueryClientProvider client={client}>{router}</QueryClientProvider>,
  );
}

describe('the home screen', () => {
  it('shows each card under its heading, every figure a link that names what it counts', async () => {
    signInWith({ VOUCHER: ['view'] });
    renderHome(CARDS);
    await screen.findByRole('heading', { name: 'Expiring subscriptions', level: 2 });
    expect(screen.getByRole('heading', { name: 'Home', level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '1,234 subscribers whose subscription is expiring' })).toHaveAttribute(
      'href',
      '/subscriber-management/subscribers?status=expiring',
    );
    // Money in rupees with Indian grouping, and the change on last month in words.
    const revenue = within(screen.getByRole('article', { name: 'Revenue' }));
    expect(revenue.getByRole('link', { name: '₹1,23,456.50 received this month' })).toHaveAttribute(
      'href',
      '/admin-reporting-management/reports?from=2026-11-01&to=2026-11-30',
    );
    expect(revenue.getByText('−₹1,000.00 on last month')).toBeInTheDocument();
    expect(revenue.getByRole('link', { name: '₹1,24,456.50 received last month' })).toHaveAttribute(
      'href',
      '/admin-reporting-management/reports?from=2026-10-01&to=2026-10-31',
    );
    // A figure whose list offers no such filter is said, not linked.
    const added = within(screen.getByRole('article', { name: 'New subscribers' }));
    expect(added.queryAllByRole('link')).toHaveLength(0);
    expect(added.getByText('+12 on last month')).toBeInTheDocument();
  });

  it('lists uploads and changes with a link to the whole list, and says when there are none', async () => {
    signInWith({ VOUCHER: ['view'] });
    renderHome(CARDS);
    const uploads = within(await screen.findByRole('article', { name: 'Last upload per country and direction' }));
    expect(uploads.getByRole('link', { name: 'India, import' })).toHaveAttribute(
      'href',
      '/data-upload-management/uploads?country_id=3&trade_direction=import',
    );
    expect(uploads.getByText(/2026-09: Failed/)).toBeInTheDocument();
    expect(uploads.getByRole('link', { name: 'All data uploads' })).toHaveAttribute(
      'href',
      '/data-upload-management/uploads',
    );
    const changes = within(screen.getByRole('article', { name: 'Recent changes' }));
    expect(changes.getByText('No changes recorded yet.')).toBeInTheDocument();
    expect(changes.getByRole('link', { name: 'The whole audit log' })).toHaveAttribute(
      'href',
      '/user-management/audit-log',
    );
  });

  it('ROUTE-15 sends a user without any card to their first routable path', async () => {
    signInWith({ VOUCHER: ['view'] });
    server.use(
      mock.get(api('user/permission'), () =>
        HttpResponse.json({
          data: {
            VOUCHER: { order: 1, actions: { view: { is_routable: true, route_url: '/voucher-management/vouchers' } } },
          },
        }),
      ),
    );
    const { history } = renderHome([]);
    await screen.findByRole('heading', { name: 'Elsewhere' });
    expect(history.location.pathname).toBe('/voucher-management/vouchers');
  });
});

describe('home cards fetched ahead of the screen', () => {
  it('are asked for once, quietly; the screen then shows them without asking again', async () => {
    signInWith({});
    let asked = 0;
    server.use(
      mock.get(api('home'), () => {
        asked += 1;
        return HttpResponse.json({ data: { cards: CARDS } });
      }),
    );
    queryClient.clear();
    await prefetch();
    expect(asked).toBe(1);
    expect(prefetch()).toBeUndefined();
    renderRoutes(
      [
        {
          path: '/home',
          element: (
            <QueryClientProvider client={queryClient}>
              <HomeScreen />
            </QueryClientProvider>
          ),
        },
      ],
      ['/home'],
    );
    expect(await screen.findByRole('heading', { name: 'Expiring subscriptions' })).toBeInTheDocument();
    expect(asked).toBe(1);
    queryClient.clear();
  });
});
