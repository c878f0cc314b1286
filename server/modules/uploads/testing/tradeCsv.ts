/** Sample trade-data files for the upload tests, with the standard columns. */

/** Four shipments: two accepted, one rejected for its HS code (line 3), one for its date (line 4). */
export const TRADE_CSV_WITH_REJECTS = [
  'shipment_date,hs_code,product_description,quantity,unit,value,importer,exporter',
  '2026-09-01,0904,Black pepper,100,KGS,25000,Acme GmbH,Spice Co',
  '2026-09-02,09x4,Bad code,5,KGS,10,,',
  '2026-13-01,1006,Rice,10,TON,900,,',
  '2026-09-03,1006,Basmati rice,20,TON,1800,,',
].join('\n');

/** Two valid shipments. */
export const TRADE_CSV = [
  'shipment_date,hs_code,product_description,quantity,unit,value',
  '2026-09-01,0904,Black pepper,100,KGS,25000',
  '2026-09-03,1006,Basmati rice,20,TON,1800',
].join('\n');

let periodsTaken = 0;
/**
 * A month no earlier upload of this process used (2000-01, 2000-02, ...): the same file uploaded again for the same
 * country, direction and period is a duplicate, which a test that is not about duplicates must not trip over.
 */
export function nextPeriod(): string {
  const month = periodsTaken++;
  return `${2000 + Math.floor(month / 12)}-${String((month % 12) + 1).padStart(2, '0')}`;
}

/** `rows` valid shipments dated within the last month (so they count for the trending products), each HS code a few times. */
export function recentTradeCsv(rows: number): string {
  const day = (offset: number) => new Date(Date.now() - (1 + (offset % 28)) * 86_400_000).toISOString().slice(0, 10);
  const lines = Array.from(
    { length: rows },
    (_, index) =>
      `${day(index)},${String(901 + (index % 7)).padStart(4, '0')},Product ${index % 7},${index + 1},KGS,${(index + 1) * 10}`,
  );
  return ['shipment_date,hs_code,product_description,quantity,unit,value', ...lines].join('\n');
}

const HEADER =
  'shipment_date,hs_code,product_description,quantity,unit,value,importer,exporter,origin_country,destination_country,port_of_loading,port_of_discharge';

/**
 * A month of shipments as a country's file has them (about 164 bytes a row), in pieces of at most `rowsPerPiece` rows,
 * so that a file of millions of rows is written without being held whole.
 */
export function* shipmentLines(rows: number, period: string, rowsPerPiece = 10_000): Generator<string> {
  yield `${HEADER}\n`;
  for (let start = 0; start < rows; start += rowsPerPiece) {
    const lines: string[] = [];
    for (let index = start; index < Math.min(rows, start + rowsPerPiece); index += 1) {
      const day = String(1 + (index % 28)).padStart(2, '0');
      lines.push(
        `${period}-${day},${String(100_000 + (index % 9000))},Frozen boneless fish fillets grade ${index % 37} lot ${index % 5000},${1 + (index % 900)}.5,KGS,${10 + (index % 100_000)}.25,` +
          `Importer Trading Company ${index % 20_000} Ltd,Exporter Seafoods ${index % 15_000} GmbH,Norway,India,Port of Bergen ${index % 9},Nhava Sheva ${index % 7}\n`,
      );
    }
    yield lines.join('');
  }
}

/** `rows` shipments of a month as one text (tests; the benchmark writes them to a file instead). */
export function shipmentsCsv(rows: number, period: string): string {
  return [...shipmentLines(rows, period)].join('');
}
