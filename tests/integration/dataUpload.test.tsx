import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubCanvas } from '../../src/screens/custom/reporting/chartTesting.ts';
import { renderConsole, signInAs } from './consoleApp.tsx';
import { startRealApi, type RealApi } from './realApi.ts';

let api: RealApi;
beforeAll(async () => {
  api = await startRealApi();
});
afterAll(async () => {
  await api?.close();
});
// The review's charts draw on a canvas jsdom does not have.
beforeEach(() => void stubCanvas());
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const CSV = [
  'shipment_date,hs_code,product_description,quantity,unit,value,importer,exporter',
  '2026-09-03,0904,Black pepper whole,1200,KGS,540000,Spice House GmbH,Kerala Spices Ltd',
  '2026-09-11,0910,Turmeric fingers,800,KGS,210000,Nordic Foods AB,Erode Agro',
  'not-a-date,0904,Broken line,ten,KGS,1,,',
].join('\n');

describe('trade-data upload against the real API', () => {
  it('uploads a CSV to the signed URL, follows processing to the rejected line, is published by a reviewer, and then the report shows the accepted rows', async () => {
    await signInAs('Data Operator');
    const user = userEvent.setup();
    const upload = renderConsole('/data-upload-management/uploads/add');
    // The country is searched on the server as the user types.
    await user.type(await screen.findByRole('combobox', { name: /^Country/ }, { timeout: 10_000 }), 'Indi');
    await user.click(await screen.findByRole('option', { name: 'India' }, { timeout: 10_000 }));
    await user.selectOptions(screen.getByLabelText(/^Trade direction/), 'Export');
    await user.selectOptions(screen.getByRole('combobox', { name: /^Period( \*)?$/ }), 'September');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Period year' }), '2026');
    await user.upload(
      screen.getByLabelText(/^File \(CSV/),
      new File([CSV], 'india-exports-2026-09.csv', { type: 'text/csv' }),
    );
    // Before anything is sent, the dry run says of the file what the import then says: 2 rows imported, line 4 rejected.
    const check = await screen.findByRole('region', { name: 'Check of india-exports-2026-09.csv' });
    expect(await within(check).findByText(/^The header matches\./, {}, { timeout: 10_000 })).toHaveTextContent(
      "Of the file's 3 rows, 2 would be imported and 1 rejected.",
    );
    expect(
      within(check).getByRole('row', { name: /^4 shipment_date must be a date as YYYY-MM-DD/ }),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Upload' }));

    expect(
      await screen.findByRole('heading', { level: 2, name: 'india-exports-2026-09.csv' }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    const rejected = await screen.findByRole('table', { name: 'Rejected lines' }, { timeout: 20_000 });
    expect(within(rejected).getAllByRole('row')).toHaveLength(2);
    // One line in three rejected is beyond the 5% allowed: the month waits for a reviewer, unseen by customers.
    expect(await screen.findByText('Waiting for review', {}, { timeout: 20_000 })).toBeInTheDocument();
    expect(screen.getByText('Accepted').nextElementSibling).toHaveTextContent('2');
    // The Data Operator may review: the upload's page has the checks, and Publish with a reason.
    await user.click(screen.getByRole('link', { name: /^Open upload \d+$/ }));
    const checks = await screen.findByRole('region', { name: 'Checks before publishing' }, { timeout: 10_000 });
    expect(within(checks).getByRole('row', { name: /^Rows rejected Beyond the limit/ })).toBeInTheDocument();
    await user.click(within(checks).getByRole('button', { name: 'Publish' }));
    const dialog = await screen.findByRole('dialog', { name: 'Publish this upload?' });
    await user.type(
      within(dialog).getByRole('textbox', { name: /^Reason/ }),
      'The broken line is a known export fault.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Publish' }));
    expect(
      await screen.findByText(
        /^Published on .*: “The broken line is a known export fault\.”$/,
        {},
        { timeout: 10_000 },
      ),
    ).toBeInTheDocument();
    upload.unmount();

    renderConsole('/data-upload-management/uploaded-data-report');
    const table = await screen.findByRole('table', { name: 'Uploaded trade records' }, { timeout: 10_000 });
    const pepper = within(table).getByRole('row', { name: /Black pepper whole/ });
    expect(await within(pepper).findByRole('cell', { name: 'India' }, { timeout: 10_000 })).toBeInTheDocument();
    expect(await within(pepper).findByRole('cell', { name: 'Export' }, { timeout: 10_000 })).toBeInTheDocument();
    expect(within(table).getByRole('row', { name: /Turmeric fingers/ })).toBeInTheDocument();
    expect(within(table).queryByRole('row', { name: /Broken line/ })).not.toBeInTheDocument();
    expect(screen.queryByText('Could not load trade records.')).not.toBeInTheDocument();
  });
});
