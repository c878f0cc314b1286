import { describe, expect } from 'vitest';
import { OPERATOR } from '../support/accounts.ts';
import { unique } from '../support/api.ts';
import { journey, useBrowser } from '../support/journey.ts';
import { field, recordApiCalls } from '../support/ui.ts';
import { UPLOAD_FILE_LABEL, fillInUpload } from '../support/uploadForm.ts';

useBrowser();

const WIDTHS = [
  ['1280 px', { width: 1280, height: 800 }],
  ['390 px', { width: 390, height: 844 }],
] as const;

const HEADER = 'shipment_date,hs_code,product_description,quantity,unit,value,importer,exporter';
/** Three good shipments (numbers as the console shows them among them) and, on line 3, an HS code that is a word. */
const WITH_A_BAD_ROW = [
  HEADER,
  '2026-10-01,0904,"Black pepper, whole","48,00,000",KGS,"1,23,456.50",Spice Importers,Kerala Farms',
  '2026-10-02,PEPPER,Black pepper,12,KGS,3400,Spice Importers,Kerala Farms',
  '2026-10-03,1006,Basmati rice,"4,800",TON,91000,Rice Traders,Punjab Mills',
  '2026-10-04,5201,Raw cotton,7,KGS,1200,Cotton Co,Gujarat Ginning',
].join('\n');
const BAD_HEADER = 'date,hs_code,description,quantity,unit,value\n2026-10-01,0904,Black pepper,12,KGS,3400\n';

for (const [size, viewport] of WIDTHS) {
  describe(`the dry run of a trade file at ${size}`, () => {
    journey(
      `a chosen file's header and first rows are checked before it is sent: a bad row warns, a bad header stops the upload (${size})`,
      async ({ page, signIn, audit }) => {
        await signIn(OPERATOR);
        const calls = recordApiCalls(page);
        const started = () => calls.filter((call) => call.method === 'POST' && call.path === 'uploads').length;

        const fileName = `${unique('dry-run-').toLowerCase()}.csv`;
        await fillInUpload(page, '2026-10', { name: fileName, buffer: Buffer.from(WITH_A_BAD_ROW) });
        const check = page.getByRole('region', { name: `Check of ${fileName}` });
        const verdict = check.getByRole('status');
        await verdict.filter({ hasText: 'The header matches.' }).waitFor();
        expect(await verdict.textContent()).toContain("Of the file's 4 rows, 3 would be imported and 1 rejected.");
        const rejected = check.getByRole('table', { name: 'Rows that would be rejected' }).getByRole('row');
        expect(await rejected.count()).toBe(2);
        expect(await rejected.nth(1).getByRole('cell').allTextContents()).toEqual([
          '3',
          'hs_code must be 2 to 10 digits, got "PEPPER"',
        ]);
        expect(started()).toBe(0);
        // Nothing of the page is wider than the screen: the reasons wrap, the tables scroll in their regions.
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        await audit(`upload dry run with a rejected row ${size}`);
        await page.emulateMedia({ colorScheme: 'dark' });
        await audit(`upload dry run with a rejected row ${size} dark`);
        await page.emulateMedia({ colorScheme: 'light' });

        // Another file, whose header the import would refuse: the check names its columns, and Upload sends nothing.
        await field(page, UPLOAD_FILE_LABEL).setInputFiles({
          name: 'wrong-header.csv',
          mimeType: 'text/csv',
          buffer: Buffer.from(BAD_HEADER),
        });
        const refused = page.getByRole('region', { name: 'Check of wrong-header.csv' });
        await refused.getByRole('status').filter({ hasText: 'The file cannot be uploaded' }).waitFor();
        expect(await refused.getByRole('listitem').allTextContents()).toEqual([
          'Missing columns: shipment_date, product_description',
          'Unknown columns: date, description',
        ]);
        await page.getByRole('table', { name: /Columns of an export file/ }).waitFor();
        await page.getByRole('button', { name: 'Upload' }).click();
        await page.getByRole('alert').filter({ hasText: 'Nothing was uploaded' }).waitFor();
        expect(await refused.evaluate((element) => element === document.activeElement)).toBe(true);
        expect(started()).toBe(0);
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        await audit(`upload dry run with a bad header ${size}`);
        await page.emulateMedia({ colorScheme: 'dark' });
        await audit(`upload dry run with a bad header ${size} dark`);
      },
      { viewport },
    );
  });
}
