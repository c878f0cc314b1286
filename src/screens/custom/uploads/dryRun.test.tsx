import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http as mock, HttpResponse } from 'msw';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { api, renderScreen, server, signInWith } from '../../testing/renderScreen.tsx';
import DataUploadScreen from '../DataUploadScreen.tsx';
import { DRY_RUN_ROWS, readFirstRows } from './dryRun.ts';
import { addRoute, fillIn, serveCountries, uploads } from './uploadTesting.ts';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  vi.restoreAllMocks();
});
afterAll(() => server.close());

/** A file of the columns uploadTesting serves (shipment_date, hs_code, quantity), its rows made by `row(index)`. */
function tradeFile(
  rows: number,
  row: (index: number) => string = () => '2026-09-01,0904,"1,23,456.50"',
  name = 'india-exports-2026-09.csv',
) {
  const text = ['shipment_date,hs_code,quantity', ...Array.from({ length: rows }, (_, index) => row(index))].join('\n');
  return new File([text], name, { type: 'text/csv' });
}

/** The upload screen with the form filled in and `file` chosen; counts the uploads it starts. */
async function chosen(file: File) {
  signInWith({ DATA_UPLOAD_LOGS: ['view', 'add'] });
  serveCountries();
  const started = { count: 0 };
  server.use(
    mock.post(api('uploads'), () => {
      started.count += 1;
      return HttpResponse.json({ message: 'Not sent in this test' }, { status: 503 });
    }),
  );
  const user = userEvent.setup();
  renderScreen(DataUploadScreen, { resource: uploads, route: addRoute });
  await fillIn(user, file);
  const panel = await screen.findByRole('region', { name: `Check of ${file.name}` });
  return { user, panel, started };
}

describe('the dry run of a chosen trade file, before anything is sent', () => {
  it('says a good file would be imported whole, and lets it be sent', async () => {
    const { user, panel, started } = await chosen(tradeFile(3));
    expect(await within(panel).findByText(/^The header matches\./)).toHaveTextContent(
      "The header matches. Of the file's 3 rows, 3 would be imported and 0 rejected.",
    );
    expect(within(panel).queryByRole('table')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(started.count).toBe(1));
  });

  it('names the missing and unknown columns of a bad header and sends nothing; the expected columns and a template are there', async () => {
    const file = new File(['date,hs_code,qty\n2026-09-01,0904,10\n'], 'india-exports-2026-09.csv', {
      type: 'text/csv',
    });
    const { user, panel, started } = await chosen(file);
    expect(await within(panel).findByText(/cannot be uploaded/)).toHaveTextContent(
      /its header does not match the columns of this trade direction/,
    );
    expect(within(panel).getByText('Missing columns: shipment_date, quantity')).toBeInTheDocument();
    expect(within(panel).getByText('Unknown columns: date, qty')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      "Nothing was uploaded: the file's header does not match the columns of this trade direction. See the check of india-exports-2026-09.csv.",
    );
    expect(panel).toHaveFocus();
    expect(started.count).toBe(0);

    // The columns with their formats are shown open, and the template is made here from the same list.
    const columns = screen.getByRole('table', { name: /Columns of an export file/ });
    expect(
      within(columns).getByRole('row', {
        name: /quantity Yes a number of zero or more: 1234\.5, or grouped by commas as 4,800,000 or 48,00,000/,
      }),
    ).toBeInTheDocument();
    expect(within(columns).getByRole('row', { name: /shipment_date Yes a date as YYYY-MM-DD/ })).toBeInTheDocument();
    let saved: Blob | null = null;
    URL.createObjectURL = (blob: Blob) => {
      saved = blob;
      return 'blob:template';
    };
    URL.revokeObjectURL = () => undefined;
    const followed = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      expect(this.download).toBe('trade-data-export-template.csv');
    });
    await user.click(screen.getByRole('button', { name: 'Download a template CSV' }));
    expect(followed).toHaveBeenCalledOnce();
    expect(new TextDecoder().decode(await saved!.arrayBuffer())).toBe(
      'shipment_date,hs_code,quantity,importer\r\n2026-09-01,0904,"1,200",Acme Spices GmbH\r\n',
    );
  });

  it("reads a gzip file through the browser's decompression, and only its first 1,000 rows", async () => {
    const rows = Array.from(
      { length: 5000 },
      (_, index) => `2026-09-${String(1 + (index % 28)).padStart(2, '0')},${1000 + index},"48,00,000"`,
    );
    const file = new File(
      [gzipSync(['shipment_date,hs_code,quantity', ...rows].join('\n'))],
      'india-exports-2026-09.csv.gz',
      { type: 'application/gzip' },
    );
    const { panel } = await chosen(file);
    expect(await within(panel).findByText(/^The header matches\./)).toHaveTextContent(
      'The header matches. Of its first 1,000 rows, 1,000 would be imported and 0 rejected.',
    );
  });

  it('lists the first 20 rejected rows with their line and reason, counts them all, and still lets the file be sent', async () => {
    const file = tradeFile(30, (index) => (index % 6 === 0 ? '2026-09-01,0904,10' : `01/09/2026,09x${index},10`));
    const { user, panel, started } = await chosen(file);
    expect(await within(panel).findByText(/^The header matches\./)).toHaveTextContent(
      /Of the file's 30 rows, 5 would be imported and 25 rejected\. Rejected rows are left out of the import/,
    );
    const table = within(panel).getByRole('table', { name: 'Rows that would be rejected (the first 20 of 25)' });
    const lines = within(table).getAllByRole('row').slice(1);
    expect(lines).toHaveLength(20);
    expect(lines[0]).toHaveTextContent('3shipment_date must be a date as YYYY-MM-DD, got "01/09/2026"');
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(started.count).toBe(1));
  });

  const unreadable: Array<[string, () => File, string | RegExp]> = [
    [
      'a .csv.gz that is not gzip',
      () => tradeFile(2, undefined, 'india-exports-2026-09.csv.gz'),
      'The file cannot be uploaded: A .csv.gz file must be CSV compressed with gzip.',
    ],
    [
      'a gzip file named .csv',
      () => new File([gzipSync('shipment_date,hs_code,quantity\n')], 'india-exports-2026-09.csv'),
      /name it \.csv\.gz\.$/,
    ],
    [
      'a file that is no text',
      () => new File([new Uint8Array([0x73, 0x68, 0x00, 0x01, 0x0a])], 'india-exports-2026-09.csv'),
      'The file cannot be uploaded: Only CSV files can be uploaded.',
    ],
    [
      'a file that is not UTF-8',
      () =>
        new File(
          [
            new Uint8Array([
              ...new TextEncoder().encode('shipment_date,hs_code,quantity\n2026-09-01,0904,Caf'),
              0xe9,
              0x0a,
            ]),
          ],
          'india-exports-2026-09.csv',
        ),
      /The file is not UTF-8 text/,
    ],
  ];
  it.each(unreadable)('says why %s cannot be sent, and sends nothing', async (_name, file, reason) => {
    const { user, panel, started } = await chosen(file());
    expect(await within(panel).findByText(/cannot be uploaded/)).toHaveTextContent(reason);
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      /^Nothing was uploaded: the file cannot be read as the import reads it\. See the check of india-exports-2026-09\.csv(\.gz)?\.$/,
    );
    expect(started.count).toBe(0);
  });
});

describe('reading the first rows of a file', () => {
  it('stops once it has the header and 1,000 rows: a large file is not read whole', async () => {
    const file = tradeFile(20_000);
    const read = await readFirstRows(file);
    expect(read.header).toEqual(['shipment_date', 'hs_code', 'quantity']);
    expect(read.rows).toHaveLength(DRY_RUN_ROWS);
    expect(read.whole).toBe(false);
    expect(read.bytesRead).toBeLessThan(file.size / 4);
  });
});
