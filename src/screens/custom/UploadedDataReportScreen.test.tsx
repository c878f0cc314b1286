import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http as mock, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as dataUploadAreaChunk from '../../generated/areas/data-upload-management.ts';
import { api, renderScreen, routeOf, server, signInWith } from '../testing/renderScreen.tsx';
import UploadedDataReportScreen from './UploadedDataReportScreen.tsx';
import { joinArea } from '../../routing/areaModule.ts';

const dataUploadArea = joinArea(dataUploadAreaChunk);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const report = dataUploadArea.resources.find((resource) => resource.module === 'UPLOADED_DATA_REPORT')!;
const route = routeOf(report, 'view', 'uploaded-data-report');

/** Trade records as GET uploaded-data-report answers them (docs/api.md): bare country ids, no labels. */
function record(index: number, countryId = 1) {
  return {
    id: 100 + index,
    country_id: countryId,
    trade_direction: index % 2 ? 'import' : 'export',
    period: '2026-09',
    hs_code: '0904',
    product_description: `Black pepper lot ${index}`,
    quantity: 1200 + index,
  };
}

/** Serves 45 records, filtered by country; records every query the screen sends. */
function serveReport(queries: URLSearchParams[] = []) {
  server.use(
    // The countries' options as the API answers them: one by id, or those whose name contains what was typed.
    mock.get(api('countries/options'), ({ request }) => {
      const query = new URL(request.url).searchParams;
      const countries = [
        { value: 1, label: 'India' },
        { value: 2, label: 'Germany' },
      ];
      const q = (query.get('q') ?? '').toLowerCase();
      const id = query.get('id');
      return HttpResponse.json({ data: countries.filter((country) => (id ? String(country.value) === id : country.label.toLowerCase().includes(q))) });
    }),
    mock.get(api('uploaded-data-report'), ({ request }) => {
      const query = new URL(request.url).searchParams;
      queries.push(query);
      const all = Array.from({ length: 45 }, (_, index) => record(index + 1, index < 40 ? 1 : 2));
      const matching = all.filter((row) => !query.get('country_id') || String(row.country_id) === query.get('country_id')).filter((row) => !query.get('q') || row.product_description.includes(query.get('q') ?? ''));
      const page = Number(query.get('_page') ?? 1);
      const size = Number(query.get('_page_size') ?? 20);
      return HttpResponse.json({ data: matching.slice((page - 1) * size, page * size), meta: { total: matching.length, page, page_size: size } });
    }),
  );
  return queries;
}

describe('UploadedDataReportScreen', () => {
  it('lists the uploaded trade records with readable headers and country names, paged on the server', async () => {
    signInWith({ UPLOADED_DATA_REPORT: ['view'] });
    const queries = serveReport();
    const user = userEvent.setup();
    const { history } = renderScreen(UploadedDataReportScreen, { resource: report, route });
    expect(screen.getByRole('heading', { level: 1, name: 'Uploaded Data Report' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Uploaded trade records' });
    expect(within(table).getAllByRole('columnheader').map((header) => header.textContent)).toEqual(['Country', 'Trade direction', 'Period', 'Hs code', 'Product description', 'Quantity']);
    const first = within(table).getByRole('row', { name: /Black pepper lot 1 / });
    await waitFor(() => expect(within(first).getByRole('cell', { name: 'India' })).toBeInTheDocument());
    // The direction as the uploads' manifest labels it, not its code.
    await waitFor(() => expect(within(first).getByRole('cell', { name: 'Import' })).toBeInTheDocument());
    expect(within(first).getByRole('cell', { name: '1,201' })).toBeInTheDocument();
    expect(screen.getByText('1–20 of 45 · Page 1 of 3')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByRole('cell', { name: 'Black pepper lot 21' })).toBeInTheDocument();
    expect(history.location.search).toBe('?page=2');
    // The report sorts itself (newest shipment first) and refuses a sort: the screen never sends one.
    expect(queries.at(-1)?.get('_page')).toBe('2');
    expect(queries.every((query) => !query.has('_sort') && !query.has('_order'))).toBe(true);
  });

  it('filters by country, direction and period and searches, each in the URL and in the request', async () => {
    signInWith({ UPLOADED_DATA_REPORT: ['view'] });
    const queries = serveReport();
    const user = userEvent.setup();
    const { history } = renderScreen(UploadedDataReportScreen, { resource: report, route, at: `${route.path}?page=2` });
    await screen.findByRole('cell', { name: 'Black pepper lot 21' });
    // Countries are searched on the server as the user types, so any of them can be picked.
    await user.type(screen.getByRole('combobox', { name: 'Country' }), 'Ger');
    await user.click(await screen.findByRole('option', { name: 'Germany' }));
    await waitFor(() => expect(history.location.search).toBe('?country_id=2'));
    expect(await screen.findByText('1–5 of 5 · Page 1 of 1')).toBeInTheDocument();
    expect(screen.getAllByRole('cell', { name: 'Germany' })).toHaveLength(5);

    await user.selectOptions(screen.getByLabelText('Trade direction'), 'Import');
    await waitFor(() => expect(queries.at(-1)?.get('trade_direction')).toBe('import'));
    fireEvent.change(screen.getByLabelText('Period'), { target: { value: '2026-09' } });
    await waitFor(() => expect(queries.at(-1)?.get('period')).toBe('2026-09'));
    await user.type(screen.getByLabelText('Search records'), 'lot 44');
    await waitFor(() => expect(queries.at(-1)?.get('q')).toBe('lot 44'));
    expect(new URLSearchParams(history.location.search).get('q')).toBe('lot 44');
    expect(Object.fromEntries(queries.at(-1) ?? [])).toEqual({ _page: '1', _page_size: '20', country_id: '2', trade_direction: 'import', period: '2026-09', q: 'lot 44' });
  });

  it('says so when no record matches', async () => {
    signInWith({ UPLOADED_DATA_REPORT: ['view'] });
    serveReport();
    renderScreen(UploadedDataReportScreen, { resource: report, route, at: `${route.path}?q=saffron` });
    expect(await screen.findByText('No trade records match.')).toBeInTheDocument();
    expect(screen.getByLabelText('Search records')).toHaveValue('saffron');
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).not.toBeInTheDocument();
  });
});
