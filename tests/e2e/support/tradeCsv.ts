import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

/** A trade-data CSV as an operator would upload it: good shipments and a few broken lines. */
export interface TradeCsv {
  text: string;
  rows: number;
  /** The broken lines (1 = the header), each with the column its problem names. */
  bad: { line: number; column: string }[];
}

const HEADER = [
  'shipment_date',
  'hs_code',
  'product_description',
  'quantity',
  'unit',
  'value',
  'importer',
  'exporter',
  'origin_country',
  'destination_country',
];

/** `good` well-formed shipments, with a missing description, a bad HS code, a negative quantity and an impossible date among them. */
export function tradeCsv(good: number): TradeCsv {
  const lines = [HEADER.join(',')];
  const bad: TradeCsv['bad'] = [];
  const broken: Record<number, { cells: string[]; column: string }> = {
    7: {
      cells: ['2026-10-03', '0904', '', '12', 'KGS', '3400', 'Spice Importers', 'Kerala Farms', 'India', 'Germany'],
      column: 'product_description',
    },
    19: {
      cells: [
        '2026-10-04',
        'PEPPER',
        'Black pepper',
        '12',
        'KGS',
        '3400',
        'Spice Importers',
        'Kerala Farms',
        'India',
        'Germany',
      ],
      column: 'hs_code',
    },
    33: {
      cells: [
        '2026-10-05',
        '1006',
        'Basmati rice',
        '-40',
        'TON',
        '91000',
        'Rice Traders',
        'Punjab Mills',
        'India',
        'United Arab Emirates',
      ],
      column: 'quantity',
    },
    58: {
      cells: [
        '2026-02-30',
        '5201',
        'Raw cotton',
        '7',
        'KGS',
        '1200',
        'Cotton Co',
        'Gujarat Ginning',
        'India',
        'Bangladesh',
      ],
      column: 'shipment_date',
    },
  };
  for (let index = 0; lines.length - 1 < good + Object.keys(broken).length; index += 1) {
    const line = lines.length + 1;
    const wrong = broken[line];
    if (wrong) {
      lines.push(wrong.cells.join(','));
      bad.push({ line, column: wrong.column });
      continue;
    }
    const day = String((index % 28) + 1).padStart(2, '0');
    lines.push(
      [
        `2026-10-${day}`,
        ['0904', '1006', '8471', '3004'][index % 4],
        `"Shipment ${index + 1}, assorted goods packed in cartons"`,
        String(10 + (index % 90)),
        'KGS',
        String(1000 + index * 7),
        `Importer ${index % 13}`,
        `Exporter ${index % 17}`,
        'India',
        'Germany',
      ].join(','),
    );
  }
  return { text: `${lines.join('\n')}\n`, rows: lines.length - 1, bad };
}

/** A trade file written to disk, too large to hold in the test: what it holds and the SHA-256 of its bytes. */
export interface LargeTradeCsv {
  path: string;
  bytes: number;
  rows: number;
  accepted: number;
  sha256: string;
}

/**
 * A trade file of at least `bytes` bytes at `path`, written by streaming: `accepted` good shipments, then lines of
 * about 100 kB whose description is longer than the import takes, so each is rejected in one check. The counts the
 * import gives it prove that every line arrived, and it stays quick to import whatever its size.
 */
export async function writeLargeTradeCsv(path: string, bytes: number, accepted = 1000): Promise<LargeTradeCsv> {
  const hash = createHash('sha256');
  const out = createWriteStream(path);
  let written = 0;
  let rows = 0;
  const write = async (text: string) => {
    const chunk = Buffer.from(text);
    hash.update(chunk);
    written += chunk.length;
    if (!out.write(chunk)) await once(out, 'drain');
  };
  await write(`${HEADER.join(',')}\n`);
  for (let index = 0; index < accepted; index += 1, rows += 1) {
    const day = String((index % 28) + 1).padStart(2, '0');
    await write(
      `2026-10-${day},${['0904', '1006', '8471', '3004'][index % 4]},Shipment ${index + 1} of assorted goods,${10 + (index % 90)},KGS,${1000 + index * 7},Importer ${index % 13},Exporter ${index % 17},India,Germany\n`,
    );
  }
  const padding = 'assorted goods packed in cartons '.repeat(3000);
  while (written < bytes) {
    await write(`2026-10-01,0904,${padding},10,KGS,1000,Importer,Exporter,India,Germany\n`);
    rows += 1;
  }
  out.end();
  await once(out, 'finish');
  return { path, bytes: written, rows, accepted, sha256: hash.digest('hex') };
}
