import { screen } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import { http as mock, HttpResponse } from 'msw';
import * as dataUploadAreaChunk from '../../../generated/areas/data-upload-management.ts';
import { api, routeOf, server } from '../../testing/renderScreen.tsx';
import { joinArea } from '../../../routing/areaModule.ts';

const dataUploadArea = joinArea(dataUploadAreaChunk);

// Tests only: the upload screen's resource, routes and the API answers its tests share.
export const uploads = dataUploadArea.resources.find((resource) => resource.module === 'DATA_UPLOAD_LOGS')!;
export const addRoute = routeOf(uploads, 'add', 'data-upload');
export const detailRoute = routeOf(uploads, 'view_detail', 'data-upload');
/** The signed storage URL the API hands out: absolute, on another origin than the API. */
export const STORAGE_URL = 'https://storage.example.test/trade-uploads/7?signature=abc';

/** A file with the header COLUMNS ask for and one row they accept. */
export const CSV_TEXT = 'shipment_date,hs_code,quantity\n2026-09-01,0904,"48,00,000"\n';
export const csv = () => new File([CSV_TEXT], 'india-exports-2026-09.csv', { type: 'text/csv' });

interface UploadLog {
  status: string;
  rows: [number, number, number] | null;
  rejected?: { line: number; reason: string }[];
}

export function logOf({ status, rows, rejected = [] }: UploadLog) {
  const [rows_total, rows_accepted, rows_rejected] = rows ?? [null, null, null];
  return {
    data: {
      upload: {
        id: 7,
        version: 1,
        status,
        file_name: 'india-exports-2026-09.csv',
        rows_total,
        rows_accepted,
        rows_rejected,
      },
      rejected,
    },
  };
}

const COLUMNS = [
  { name: 'shipment_date', type: 'date', required: true },
  { name: 'hs_code', type: 'string', required: true },
  { name: 'quantity', type: 'number', required: true },
  { name: 'importer', type: 'string', required: false },
];

/** The countries to choose from, and the columns uploads/columns names for a trade direction. */
export function serveCountries(columnQueries: string[] = []) {
  server.use(
    mock.get(api('uploads/columns'), ({ request }) => {
      columnQueries.push(new URL(request.url).searchParams.get('trade_direction') ?? '');
      return HttpResponse.json({ data: COLUMNS });
    }),
    // One country by id, or those whose name contains what was typed, as GET countries/options answers.
    mock.get(api('countries/options'), ({ request }) => {
      const query = new URL(request.url).searchParams;
      const countries = [
        { value: 1, label: 'India' },
        { value: 2, label: 'Germany' },
      ];
      const id = query.get('id');
      const q = (query.get('q') ?? '').toLowerCase();
      return HttpResponse.json({
        data: countries.filter((country) =>
          id ? String(country.value) === id : country.label.toLowerCase().includes(q),
        ),
      });
    }),
  );
}

export const country = () => screen.getByRole('combobox', { name: /^Country/ });
/** The period's month select, which the field's label names (its year select is "Period year"). */
export const period = () => screen.getByRole('combobox', { name: /^Period( \*)?$/ });

export async function fillIn(user: ReturnType<typeof userEvent.setup>, file: File = csv()) {
  await user.type(await screen.findByRole('combobox', { name: /^Country/ }), 'Ind');
  // The first search of a test file also loads the HTTP client (a dynamic import): seconds on a busy machine.
  await user.click(await screen.findByRole('option', { name: 'India' }, { timeout: 10_000 }));
  await user.selectOptions(screen.getByLabelText(/^Trade direction/), 'Export');
  await user.selectOptions(period(), 'September');
  await user.selectOptions(screen.getByRole('combobox', { name: 'Period year' }), '2026');
  await user.upload(screen.getByLabelText(/^File \(CSV/), file);
}

const TUS = { 'tus-resumable': '1.0.0' };

/**
 * The signed file URL as a tus 1.0 server answers it: creation with `Upload-Length`, HEAD for the offset, PATCH of
 * `application/offset+octet-stream` at exactly that offset (409 otherwise); what arrived, and the headers sent. With
 * `hold`, every chunk waits to be answered until the test calls `release()`, so it sees the form while the file travels.
 */
export function serveFileEndpoint({ hold = false }: { hold?: boolean } = {}) {
  let release = () => {};
  const held = hold ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve();
  const sent = {
    length: null as number | null,
    bytes: [] as Uint8Array[],
    headers: [] as Headers[],
    text: () => new TextDecoder().decode(Buffer.concat(sent.bytes)),
    release: () => release(),
  };
  const offset = () => sent.bytes.reduce((total, chunk) => total + chunk.length, 0);
  const refused = (status: number, message: string) => HttpResponse.json({ message }, { status, headers: TUS });
  server.use(
    mock.post(STORAGE_URL, ({ request }) => {
      sent.headers.push(request.headers);
      const length = Number(request.headers.get('upload-length'));
      if (request.headers.get('tus-resumable') !== '1.0.0' || !Number.isSafeInteger(length))
        return refused(400, 'Upload-Length is required');
      // Each creation starts a new file (at the same location: one upload per test).
      sent.length = length;
      sent.bytes.length = 0;
      return new HttpResponse(null, { status: 201, headers: { location: STORAGE_URL, ...TUS } });
    }),
    mock.head(STORAGE_URL, () =>
      sent.length === null
        ? new HttpResponse(null, { status: 404, headers: TUS })
        : new HttpResponse(null, {
            status: 200,
            headers: {
              'upload-offset': String(offset()),
              'upload-length': String(sent.length),
              'cache-control': 'no-store',
              ...TUS,
            },
          }),
    ),
    mock.patch(STORAGE_URL, async ({ request }) => {
      sent.headers.push(request.headers);
      if (sent.length === null) return refused(404, 'No such upload');
      if (request.headers.get('content-type') !== 'application/offset+octet-stream') return refused(415, 'Not a chunk');
      if (Number(request.headers.get('upload-offset')) !== offset())
        return refused(409, 'Upload-Offset is not where the file ends');
      const chunk = new Uint8Array(await request.arrayBuffer());
      if (offset() + chunk.length > sent.length) return refused(413, 'Beyond Upload-Length');
      sent.bytes.push(chunk);
      await held;
      return new HttpResponse(null, { status: 204, headers: { 'upload-offset': String(offset()), ...TUS } });
    }),
  );
  return sent;
}
