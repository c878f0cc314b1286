import { QueryClient } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { http as mock, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ToastHost } from '../../../shell/ToastHost.tsx';
import { vouchers } from '../../testing/fixtures.ts';
import { api, server, signInWith, viewsAnswer } from '../../testing/renderScreen.tsx';
import { listPageKey, prefetchList } from './useListPage.ts';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** Serves the list and its views, noting each call's path and query. */
function serveList(status = 200) {
  const asked: string[] = [];
  server.use(
    mock.get(api('vouchers'), ({ request }) => {
      asked.push(`vouchers${new URL(request.url).search}`);
      return status === 200
        ? HttpResponse.json({ data: [], meta: { total: 0, page: 1, page_size: 20 } })
        : HttpResponse.json({ message: 'The list could not be read.' }, { status });
    }),
    mock.get(api('views/vouchers'), () => {
      asked.push('views');
      return HttpResponse.json(viewsAnswer());
    }),
  );
  return asked;
}

describe('a list fetched ahead of its screen', () => {
  it('asks for the views and the page the address gives, settles when both are there, and not again once they are', async () => {
    signInWith({ VOUCHER: ['view'] });
    const asked = serveList();
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const loading = prefetchList(client, vouchers, new URLSearchParams('page=2&discount_type=flat'));
    expect(loading).toBeInstanceOf(Promise);
    await loading;
    expect(asked.sort()).toEqual(
      ['views', 'vouchers?_page=2&_page_size=20&_sort=code&_order=asc&discount_type=flat'].sort(),
    );
    const params = { _page: 2, _page_size: 20, _sort: 'code', _order: 'asc', discount_type: 'flat' };
    expect(client.getQueryData(listPageKey('vouchers', params))).toEqual({
      data: [],
      meta: { total: 0, page: 1, page_size: 20 },
    });
    expect(prefetchList(client, vouchers, new URLSearchParams('page=2&discount_type=flat'))).toBeUndefined();
  });

  it('asks for the views alone when the address names a view: its rows wait for it', async () => {
    signInWith({ VOUCHER: ['view'] });
    const asked = serveList();
    await prefetchList(new QueryClient(), vouchers, new URLSearchParams('view=7&discount_type=flat'));
    expect(asked).toEqual(['views']);
  });

  it('fails quietly: the screen that shows the data says what went wrong, once', async () => {
    signInWith({ VOUCHER: ['view'] });
    serveList(500);
    render(<ToastHost />);
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    await prefetchList(client, vouchers, new URLSearchParams(''));
    const params = { _page: 1, _page_size: 20, _sort: 'code', _order: 'asc' };
    expect(client.getQueryState(listPageKey('vouchers', params))?.status).toBe('error');
    expect(screen.queryByText('The list could not be read.')).not.toBeInTheDocument();
  });
});
