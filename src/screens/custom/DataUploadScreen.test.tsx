import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http as mock, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ToastHost } from '../../shell/ToastHost.tsx';
import { api, renderScreen, server, signInWith } from '../testing/renderScreen.tsx';
import DataUploadScreen from './DataUploadScreen.tsx';
import { UPLOAD_POLL_MS } from './uploads/UploadStatus.tsx';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

import {
  addRoute,
  csv,
  CSV_TEXT,
  detailRoute,
  fillIn,
  logOf,
  serveCountries,
  STORAGE_URL,
  uploads,
  country,
  period,
  serveFileEndpoint,
} from './uploads/uploadTesting.ts';

/** The form still holds what `fillIn` chose: India, exports, September 2026 and the file. */
function expectChoicesKept() {
  expect(country()).toHaveDisplayValue('India');
  expect(screen.getByLabelText(/^Trade direction/)).toHaveDisplayValue('Export');
  expect(period()).toHaveDisplayValue('September');
  expect(screen.getByRole('combobox', { name: 'Period year' })).toHaveDisplayValue('2026');
  expect((screen.getByLabelText(/^File \(CSV/) as HTMLInputElement).files?.[0]?.name).toBe('india-exports-2026-09.csv');
}

describe('DataUploadScreen', () => {
  it('FORM-03 asks for every field on submit and sends nothing until they are filled in', async () => {
    signInWith({ DATA_UPLOAD_LOGS: ['view', 'add'] });
    serveCountries();
    let tickets = 0;
    server.use(
      mock.post(api('uploads'), () => {
        tickets += 1;
        return HttpResponse.json({ message: 'unexpected' }, { status: 500 });
      }),
    );
    const user = userEvent.setup();
    renderScreen(DataUploadScreen, { resource: uploads, route: addRoute });
    expect(await screen.findByRole('heading', { level: 1, name: 'Upload trade data' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    for (const label of [/^Country/, /^Trade direction/, /^Period\*?$/, /^File \(CSV/]) {
      await waitFor(() =>
        expect(screen.getByLabelText(label)).toHaveAccessibleDescription(/^\* This field is required/),
      );
    }
    expect(country()).toHaveFocus();
    expect(tickets).toBe(0);
  });

  it('asks for a signed URL, sends the file there with a progress bar, then follows processing to the rejected lines', async () => {
    signInWith({ DATA_UPLOAD_LOGS: ['view', 'add', 'view_detail'] });
    serveCountries();
    let ticketBody: unknown;
    const sent = serveFileEndpoint({ hold: true });
    let logCalls = 0;
    server.use(
      mock.post(api('uploads'), async ({ request }) => {
        ticketBody = await request.json();
        return HttpResponse.json(
          { data: { upload: { id: 7 }, upload_url: STORAGE_URL, complete_path: 'uploads/7/complete' } },
          { status: 201 },
        );
      }),
      mock.post(api('uploads/7/complete'), () =>
        HttpResponse.json({
          data: { id: 7, status: 'processing' },
          message: 'The file was received and is being processed.',
        }),
      ),
      mock.get(api('uploads/7/log'), () => {
        logCalls += 1;
        return HttpResponse.json(
          logCalls === 1
            ? logOf({ status: 'processing', rows: null })
            : logOf({
                status: 'published',
                rows: [3, 2, 1],
                rejected: [{ line: 3, reason: 'hs_code: unknown HS code 9999' }],
              }),
        );
      }),
    );
    const user = userEvent.setup();
    const { queryClient } = renderScreen(DataUploadScreen, { resource: uploads, route: addRoute });
    await fillIn(user);
    await user.click(screen.getByRole('button', { name: 'Upload' }));

    // While the file travels: a progress bar, the form locked, the button saying so.
    expect(await screen.findByRole('progressbar', { name: 'Upload progress' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Uploading…' })).toBeDisabled();
    expect(country()).toBeDisabled();
    expect(screen.getByText(/% sent \(/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Pause' })).toBeInTheDocument();
    expect(screen.getByText(/pick the same file: it resumes from there/)).toBeInTheDocument();
    sent.release();

    // Processing is followed until it finishes: first "Processing", then the counts and the rejected lines.
    expect(await screen.findByRole('heading', { level: 2, name: 'india-exports-2026-09.csv' })).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Upload' })).toBeEnabled();
    expect(screen.getByText('Processing')).toBeInTheDocument();
    // Done: the result above the form, focused, with the way to the upload's page; the form empty again for the next
    // file, and untouched: no field says it is required.
    const result = screen.getByRole('group', { name: 'india-exports-2026-09.csv was received as upload 7.' });
    expect(result).toHaveFocus();
    expect(result.compareDocumentPosition(country()) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(within(result).getByRole('link', { name: 'Open upload 7' })).toHaveAttribute(
      'href',
      '/data-upload-management/uploads/7',
    );
    expect(country()).toHaveValue('');
    expect(screen.getByLabelText(/^Trade direction/)).toHaveValue('');
    expect(period()).toHaveValue('');
    expect((screen.getByLabelText(/^File \(CSV/) as HTMLInputElement).files).toHaveLength(0);
    expect(screen.queryByText(/This field is required/)).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    const rejected = await screen.findByRole('table', { name: 'Rejected lines' }, { timeout: UPLOAD_POLL_MS * 3 });
    expect(within(rejected).getByRole('row', { name: '3 hs_code: unknown HS code 9999' })).toBeInTheDocument();
    expect(screen.getByText('Published')).toBeInTheDocument();
    const accepted = screen.getByText('Accepted').closest('div')!;
    expect(within(accepted).getByText('2')).toBeInTheDocument();

    expect(ticketBody).toEqual({
      country_id: 1,
      trade_direction: 'export',
      period: '2026-09',
      file_name: 'india-exports-2026-09.csv',
      size: csv().size,
    });
    // The file goes whole to its signed URL by tus; the signature is its authorisation, so no session goes with it.
    expect(sent.text()).toBe(CSV_TEXT);
    expect(
      sent.headers.every(
        (headers) => headers.get('authorization') === null && headers.get('tus-resumable') === '1.0.0',
      ),
    ).toBe(true);
    expect(sent.headers[0]?.get('upload-length')).toBe(String(csv().size));
    // Once finished, the status is not asked again: its query polls no more (it did every UPLOAD_POLL_MS before).
    const [logQuery] = queryClient.getQueryCache().findAll({ queryKey: ['resource', uploads.api, 'log'] });
    const interval = logQuery!.observers[0]!.options.refetchInterval;
    expect(logCalls).toBeGreaterThan(1);
    expect(typeof interval === 'function' ? interval(logQuery as never) : interval).toBe(false);
  });

  it('tells the API the file is there once all of it was sent, and shows its refusal on the file field', async () => {
    signInWith({ DATA_UPLOAD_LOGS: ['view', 'add'] });
    serveCountries();
    const sent = serveFileEndpoint();
    const calls: string[] = [];
    let completeHeaders: Headers | undefined;
    let refuse = false;
    server.use(
      mock.post(api('uploads'), () => {
        calls.push('ticket');
        return HttpResponse.json(
          { data: { upload: { id: 7 }, upload_url: STORAGE_URL, complete_path: 'uploads/7/complete' } },
          { status: 201 },
        );
      }),
      mock.post(api('uploads/7/complete'), ({ request }) => {
        calls.push(`complete after ${sent.text().length} bytes`);
        completeHeaders = request.headers;
        return refuse
          ? HttpResponse.json(
              {
                message:
                  "File: The file's header does not match the configured data columns: missing column(s): value.",
                errors: {
                  file: "The file's header does not match the configured data columns: missing column(s): value.",
                },
              },
              { status: 400 },
            )
          : HttpResponse.json({ data: { id: 7, status: 'processing' } });
      }),
      mock.get(api('uploads/7/log'), () => HttpResponse.json(logOf({ status: 'published', rows: [1, 1, 0] }))),
    );
    const user = userEvent.setup();
    const { unmount } = renderScreen(DataUploadScreen, { resource: uploads, route: addRoute });
    await fillIn(user);
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(await screen.findByText('Published')).toBeInTheDocument();
    expect(calls).toEqual(['ticket', `complete after ${csv().size} bytes`]);
    // The completion is an API call: it carries the session, unlike the chunks of the file.
    expect(completeHeaders?.get('authorization')).toMatch(/^Bearer /);
    unmount();

    refuse = true;
    calls.length = 0;
    sent.bytes.length = 0;
    renderScreen(DataUploadScreen, { resource: uploads, route: addRoute });
    await fillIn(user);
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    await waitFor(() =>
      expect(screen.getByLabelText(/^File \(CSV/)).toHaveAccessibleDescription(
        /^\* The file's header does not match the configured data columns: missing column\(s\): value\. The first row/,
      ),
    );
    expect(calls).toEqual(['ticket', `complete after ${csv().size} bytes`]);
    // No upload's status (its heading the file's name): only the check of the chosen file.
    expect(screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent)).toEqual([
      'Check of india-exports-2026-09.csv',
    ]);
    // Refused: the form says so beside its buttons and keeps every choice, the file included, to correct and send again.
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Nothing was uploaded: correct what is marked above, then upload again.',
    );
    expectChoicesKept();
  });

  it('shows the columns the file needs for the chosen trade direction before a file is chosen', async () => {
    signInWith({ DATA_UPLOAD_LOGS: ['view', 'add'] });
    const columnQueries: string[] = [];
    serveCountries(columnQueries);
    const user = userEvent.setup();
    renderScreen(DataUploadScreen, { resource: uploads, route: addRoute });
    const fileInput = await screen.findByLabelText(/^File \(CSV/);
    expect(fileInput).toHaveAccessibleDescription('Choose a trade direction to see the columns its CSV file needs.');
    await user.selectOptions(screen.getByLabelText(/^Trade direction/), 'Import');
    await screen.findByText(/^The first row/);
    expect(fileInput).toHaveAccessibleDescription(
      "The first row of the CSV file names its columns. Required: shipment_date, hs_code, quantity. Optional: importer. The file's first 1,000 rows are checked when it is chosen, before anything is sent.",
    );
    expect(columnQueries).toEqual(['import']);
  });

  it('FORM-12 shows a field error of the server on its field, prefixed with "* ", and keeps the choices', async () => {
    signInWith({ DATA_UPLOAD_LOGS: ['view', 'add'] });
    serveCountries();
    server.use(
      mock.post(api('uploads'), () =>
        HttpResponse.json(
          {
            message: 'Period: Data for this period is already uploaded.',
            errors: { period: 'Data for this period is already uploaded.' },
          },
          { status: 400 },
        ),
      ),
    );
    const user = userEvent.setup();
    renderScreen(DataUploadScreen, { resource: uploads, route: addRoute });
    await fillIn(user);
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(period()).toHaveAccessibleDescription(/^\* Data for this period is already uploaded\./));
    expectChoicesKept();
    expect(country()).not.toHaveAccessibleDescription();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('says beside the form why an upload failed when the server names no field, once, and keeps what was chosen', async () => {
    signInWith({ DATA_UPLOAD_LOGS: ['view', 'add'] });
    serveCountries();
    server.use(
      mock.post(api('uploads'), () =>
        HttpResponse.json({ message: 'Uploads are paused for maintenance until 10:00.' }, { status: 503 }),
      ),
    );
    const user = userEvent.setup();
    render(<ToastHost />);
    renderScreen(DataUploadScreen, { resource: uploads, route: addRoute });
    await fillIn(user);
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Nothing was uploaded: Uploads are paused for maintenance until 10:00.',
    );
    expect(screen.getAllByText(/Uploads are paused/)).toHaveLength(1);
    expectChoicesKept();
    expect(screen.queryByText(/This field is required/)).not.toBeInTheDocument();
  });

  it("shows one upload's status and log on its detail route, with the way back to the data uploads", async () => {
    signInWith({ DATA_UPLOAD_LOGS: ['view', 'view_detail'] });
    const failed = logOf({
      status: 'failed',
      rows: [2, 0, 2],
      rejected: [
        { line: 1, reason: 'Missing header row' },
        { line: 2, reason: 'quantity: Should be a number.' },
      ],
    });
    server.use(
      mock.get(api('uploads/7/log'), () =>
        HttpResponse.json({
          data: { ...failed.data, upload: { ...failed.data.upload, error: 'The stored file is gone.' } },
        }),
      ),
    );
    renderScreen(DataUploadScreen, { resource: uploads, route: detailRoute, at: '/data-upload-management/uploads/7' });
    expect(screen.getByRole('heading', { level: 1, name: 'Upload 7' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to data uploads' })).toHaveAttribute(
      'href',
      '/data-upload-management/uploads',
    );
    expect(await screen.findByText('Failed')).toBeInTheDocument();
    expect(screen.getByText('The stored file is gone.')).toBeInTheDocument();
    const rows = within(screen.getByRole('table', { name: 'Rejected lines' })).getAllByRole('row');
    expect(rows.map((row) => row.textContent)).toEqual([
      'LineReason',
      '1Missing header row',
      '2quantity: Should be a number.',
    ]);
    expect(screen.queryByRole('form', { name: 'Upload trade data' })).not.toBeInTheDocument();
  });
  it('shows the History of an upload on its detail route: who uploaded it and the outcome the import gave it, with nothing to restore', async () => {
    signInWith({ DATA_UPLOAD_LOGS: ['view', 'view_detail'] });
    server.use(
      mock.get(api('uploads/7/log'), () => HttpResponse.json(logOf({ status: 'published', rows: [4, 4, 0] }))),
      mock.get(api('uploads/7/history'), () =>
        HttpResponse.json({
          data: [
            {
              id: 2,
              at: '2026-11-20T09:31:00Z',
              user_id: 1,
              user_email: 'admin@example.com',
              client_address: null,
              request_id: null,
              module: 'DATA_UPLOAD_LOGS',
              record_id: 7,
              action: 'import',
              changes: { status: { before: 'processing', after: 'published' } },
              details: {},
              restorable: false,
              labels: {},
            },
            {
              id: 1,
              at: '2026-11-20T09:30:00Z',
              user_id: 1,
              user_email: 'admin@example.com',
              client_address: '127.0.0.1',
              request_id: 'req-1',
              module: 'DATA_UPLOAD_LOGS',
              record_id: 7,
              action: 'create',
              changes: {},
              details: {},
              restorable: false,
              labels: {},
            },
          ],
          meta: { total: 2, page: 1, page_size: 20 },
        }),
      ),
    );
    const user = userEvent.setup();
    renderScreen(DataUploadScreen, { resource: uploads, route: detailRoute, at: '/data-upload-management/uploads/7' });
    expect(await screen.findByText('Published')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'History' }));
    const entries = within(await screen.findByRole('list')).getAllByRole('listitem');
    expect(entries).toHaveLength(2);
    expect(entries[0]).toHaveTextContent('admin@example.com');
    expect(screen.queryByRole('button', { name: /Restore this version/ })).not.toBeInTheDocument();
  });

  it('links a published upload to its records in the Uploaded Data Report, for a role that may see the report', async () => {
    signInWith({ DATA_UPLOAD_LOGS: ['view', 'view_detail'], UPLOADED_DATA_REPORT: ['view'] });
    server.use(
      mock.get(api('uploads/7/log'), () => HttpResponse.json(logOf({ status: 'published', rows: [1204, 1200, 4] }))),
    );
    renderScreen(DataUploadScreen, { resource: uploads, route: detailRoute, at: '/data-upload-management/uploads/7' });
    const link = await screen.findByRole('link', { name: 'Its 1,200 records in the Uploaded Data Report' });
    expect(link).toHaveAttribute('href', '/data-upload-management/uploaded-data-report?upload_id=7');
  });

  it('offers no link to the records to a role without the report, nor for an upload not imported', async () => {
    signInWith({ DATA_UPLOAD_LOGS: ['view', 'view_detail'] });
    server.use(
      mock.get(api('uploads/7/log'), () => HttpResponse.json(logOf({ status: 'published', rows: [4, 4, 0] }))),
    );
    const { unmount } = renderScreen(DataUploadScreen, {
      resource: uploads,
      route: detailRoute,
      at: '/data-upload-management/uploads/7',
    });
    expect(await screen.findByText('Published')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /records in the Uploaded Data Report/ })).not.toBeInTheDocument();
    unmount();
    signInWith({ DATA_UPLOAD_LOGS: ['view', 'view_detail'], UPLOADED_DATA_REPORT: ['view'] });
    server.use(mock.get(api('uploads/7/log'), () => HttpResponse.json(logOf({ status: 'failed', rows: [4, 0, 4] }))));
    renderScreen(DataUploadScreen, { resource: uploads, route: detailRoute, at: '/data-upload-management/uploads/7' });
    expect(await screen.findByText('Failed')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /records in the Uploaded Data Report/ })).not.toBeInTheDocument();
  });
});
