import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http as mock, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
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
    upload_id: countryId === 1 ? 7 : 8,
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
      return HttpResponse.json({
        data: countries.filter((country) =>
          id ? String(country.value) === id : country.label.toLowerCase().includes(q),
        ),
      });
    }),
    // Keyset paging as the API does it (docs/api.md): a cursor is a record's place; `about` totals past 40 records.
    mock.get(api('uploaded-data-report'), ({ request }) => {
      const query = new URL(request.url).searchParams;
      queries.push(query);
      const all = Array.from({ length: 45 }, (_, index) => record(index + 1, index < 40 ? 1 : 2));
      const matching = all
        .filter((row) => !query.get('country_id') || String(row.country_id) === query.get('country_id'))
        .filter((row) => !query.get('upload_id') || String(row.upload_id) === query.get('upload_id'))
        .filter((row) => !query.get('q') || row.product_description.includes(query.get('q') ?? ''));
      const size = Number(query.get('_page_size') ?? 20);
      const after = query.get('_after');
      const before = query.get('_before');
      const start = after ? Number(after) + 1 : before ? Math.max(0, Number(before) - size) : 0;
      const page = matching.slice(start, start + size);
      const estimated = matching.length > 40;
      return HttpResponse.json({
        data: page,
        meta: {
          total: estimated ? 50 : matching.length,
          total_is_estimate: estimated,
          page_size: size,
          next: start + size < matching.length ? String(start + page.length - 1) : null,
          previous: start > 0 ? String(start) : null,
          export_in_background: estimated,
        },
      });
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
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Upload', 'Country', 'Trade direction', 'Period', 'Hs code', 'Product description', 'Quantity']);
    const first = within(table).getByRole('row', { name: /Black pepper lot 1 / });
    await waitFor(() => expect(within(first).getByRole('cell', { name: 'India' })).toBeInTheDocument());
    // The direction as the uploads' manifest labels it, not its code.
    await waitFor(() => expect(within(first).getByRole('cell', { name: 'Import' })).toBeInTheDocument());
    expect(within(first).getByRole('cell', { name: '1,201' })).toBeInTheDocument();
    // Past 40 records the API estimates its total: "about".
    expect(screen.getByText('1–20 of about 50')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByRole('cell', { name: 'Black pepper lot 21' })).toBeInTheDocument();
    expect(screen.getByText('21–40 of about 50')).toBeInTheDocument();
    expect(queries.at(-1)?.get('_after')).toBe('19');
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByRole('cell', { name: 'Black pepper lot 41' })).toBeInTheDocument();
    expect(screen.getByText('41–45 of about 50')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Previous page' }));
    expect(await screen.findByRole('cell', { name: 'Black pepper lot 21' })).toBeInTheDocument();
    expect(queries.at(-1)?.get('_before')).toBe('40');
    expect(screen.getByText('21–40 of about 50')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Previous page' }));
    expect(await screen.findByRole('cell', { name: 'Black pepper lot 1' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeDisabled();
    // The report sorts itself (newest shipment first) and pages by cursor: the screen sends no sort and no page number.
    expect(queries.every((query) => !query.has('_sort') && !query.has('_order') && !query.has('_page'))).toBe(true);
    expect(history.location.search).toBe('');
  });

  it('filters by country, direction and period and searches, each in the URL and in the request', async () => {
    signInWith({ UPLOADED_DATA_REPORT: ['view'] });
    const queries = serveReport();
    const user = userEvent.setup();
    const { history } = renderScreen(UploadedDataReportScreen, { resource: report, route });
    await screen.findByRole('cell', { name: 'Black pepper lot 1' });
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await screen.findByRole('cell', { name: 'Black pepper lot 21' });
    // Countries are searched on the server as the user types, so any of them can be picked.
    await user.type(screen.getByRole('combobox', { name: 'Country' }), 'Ger');
    await user.click(await screen.findByRole('option', { name: 'Germany' }));
    await waitFor(() => expect(history.location.search).toBe('?country_id=2'));
    expect(await screen.findByText('1–5 of 5')).toBeInTheDocument();
    expect(screen.getAllByRole('cell', { name: 'Germany' })).toHaveLength(5);

    await user.selectOptions(screen.getByLabelText('Trade direction'), 'Import');
    await waitFor(() => expect(queries.at(-1)?.get('trade_direction')).toBe('import'));
    fireEvent.change(screen.getByLabelText('Period'), { target: { value: '2026-09' } });
    await waitFor(() => expect(queries.at(-1)?.get('period')).toBe('2026-09'));
    await user.type(screen.getByLabelText('Search records'), 'lot 44');
    await waitFor(() => expect(queries.at(-1)?.get('q')).toBe('lot 44'));
    expect(new URLSearchParams(history.location.search).get('q')).toBe('lot 44');
    expect(Object.fromEntries(queries.at(-1) ?? [])).toEqual({
      _page_size: '20',
      country_id: '2',
      trade_direction: 'import',
      period: '2026-09',
      q: 'lot 44',
    });
  });

  it('says so when no record matches', async () => {
    signInWith({ UPLOADED_DATA_REPORT: ['view'] });
    serveReport();
    renderScreen(UploadedDataReportScreen, { resource: report, route, at: `${route.path}?q=saffron` });
    expect(await screen.findByText('No trade records match.')).toBeInTheDocument();
    expect(screen.getByLabelText('Search records')).toHaveValue('saffron');
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).not.toBeInTheDocument();
  });

  it("links each record to its upload, and lists one upload's records with the way back to all of them", async () => {
    signInWith({ UPLOADED_DATA_REPORT: ['view'], DATA_UPLOAD_LOGS: ['view', 'view_detail'] });
    const queries = serveReport();
    const user = userEvent.setup();
    const { history } = renderScreen(UploadedDataReportScreen, {
      resource: report,
      route,
      at: `${route.path}?upload_id=8`,
    });
    const table = await screen.findByRole('table', { name: 'Uploaded trade records' });
    expect(queries.at(-1)?.get('upload_id')).toBe('8');
    const links = within(table).getAllByRole('link', { name: 'Upload 8' });
    expect(links).toHaveLength(5);
    expect(links[0]).toHaveAttribute('href', '/data-upload-management/uploads/8');
    expect(screen.getByText('1–5 of 5')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'All uploads' }));
    await waitFor(() => expect(history.location.search).toBe(''));
    expect(await screen.findByText('1–20 of about 50')).toBeInTheDocument();
  });

  it('names the upload without a link for a role that may not open uploads', async () => {
    signInWith({ UPLOADED_DATA_REPORT: ['view'] });
    serveReport();
    renderScreen(UploadedDataReportScreen, { resource: report, route });
    const table = await screen.findByRole('table', { name: 'Uploaded trade records' });
    expect(within(table).getAllByRole('cell', { name: 'Upload 7' })).toHaveLength(20);
    expect(within(table).queryByRole('link')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Export CSV/ })).not.toBeInTheDocument();
  });

  it('exports a small report at once, and a large one in the background with its progress and then its download', async () => {
    signInWith({ UPLOADED_DATA_REPORT: ['view', 'download'] });
    serveReport();
    const exported: URLSearchParams[] = [];
    const started: unknown[] = [];
    let polls = 0;
    const job = (status: string, written: number) => ({
      id: 3,
      status,
      rows_estimated: 50,
      rows_written: written,
      error: null,
      created_at: '2026-11-20T09:00:00Z',
      finished_at: null,
      file: status === 'completed' ? 'uploaded-data-report/exports/3/file' : null,
    });
    server.use(
      mock.get(api('uploaded-data-report/export'), ({ request }) => {
        exported.push(new URL(request.url).searchParams);
        return new HttpResponse('id,upload_id\r\n141,8\r\n', { headers: { 'Content-Type': 'text/csv' } });
      }),
      mock.post(api('uploaded-data-report/exports'), async ({ request }) => {
        started.push(await request.json());
        return HttpResponse.json({ data: job('queued', 0) }, { status: 202 });
      }),
      mock.get(api('uploaded-data-report/exports/3'), () => {
        polls += 1;
        return HttpResponse.json({ data: polls < 2 ? job('running', 20) : job('completed', 45) });
      }),
      mock.get(
        api('uploaded-data-report/exports/3/file'),
        () => new HttpResponse('id\r\n', { headers: { 'Content-Type': 'text/csv' } }),
      ),
    );
    const saved: string[] = [];
    URL.createObjectURL = () => 'blob:export';
    URL.revokeObjectURL = () => undefined;
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    const { unmount } = renderScreen(UploadedDataReportScreen, {
      resource: report,
      route,
      at: `${route.path}?country_id=2`,
    });
    await screen.findByText('1–5 of 5');
    fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(saved).toEqual(['uploaded-data.csv']));
    expect(Object.fromEntries(exported[0] ?? [])).toEqual({ country_id: '2' });
    unmount();

    // Past the API's threshold (export_in_background), the export is a background one.
    renderScreen(UploadedDataReportScreen, { resource: report, route });
    await screen.findByText('1–20 of about 50');
    fireEvent.click(screen.getByRole('button', { name: 'Export CSV in the background' }));
    expect(await screen.findByText('Exporting in the background: 20 of about 50 records written.')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Export progress' })).toHaveAttribute('value', '20');
    expect(started).toEqual([{}]);
    const download = await screen.findByRole('button', { name: 'Download export' }, { timeout: 5000 });
    expect(screen.getByText(/Export ready: 45 records/)).toBeInTheDocument();
    fireEvent.click(download);
    await waitFor(() => expect(saved).toEqual(['uploaded-data.csv', 'uploaded-data-3.csv']));
  });
});
