import { describe, expect, it } from 'vitest';
import {
  STANDARD_COLUMNS,
  checkHeader,
  headerProblem,
  isAcceptedNumber,
  isBlankRecord,
  plainNumber,
  rowCheck,
  templateCsv,
  type TradeColumn,
} from './tradeRows.ts';
import { csvBatches } from './tradeCsv.ts';

const HEADER = ['shipment_date', 'hs_code', 'product_description', 'quantity', 'unit', 'value'];
const check = rowCheck(HEADER, STANDARD_COLUMNS);
const row = (overrides: Partial<Record<string, string>> = {}) =>
  HEADER.map(
    (name) =>
      overrides[name] ??
      {
        shipment_date: '2026-09-01',
        hs_code: '0904',
        product_description: 'Black pepper',
        quantity: '100',
        unit: 'KGS',
        value: '25000',
      }[name]!,
  );

async function* pieces(...texts: string[]) {
  yield* texts;
}

describe('the header of a trade file', () => {
  it('names the required columns it misses, the names no column has, and the names it repeats', () => {
    expect(checkHeader(['shipment_date', 'hs_code', 'hs_code', 'colour'], STANDARD_COLUMNS)).toEqual({
      missing: ['product_description', 'quantity', 'unit', 'value'],
      unknown: ['colour'],
      repeated: ['hs_code'],
    });
    expect(headerProblem(HEADER, STANDARD_COLUMNS)).toBeNull();
    expect(headerProblem([...HEADER, 'colour'], STANDARD_COLUMNS)).toBe(
      "The file's header does not match the configured data columns: unknown column(s): colour.",
    );
  });
});

describe('a trade row checked as the import checks it', () => {
  it('accepts a row in the accepted formats, and says why it refuses one', () => {
    expect(check(row())).toBeNull();
    expect(check(row({ hs_code: '09x4' }))).toBe('hs_code must be 2 to 10 digits, got "09x4"');
    expect(check(row({ shipment_date: '01/09/2026' }))).toBe(
      'shipment_date must be a date as YYYY-MM-DD, got "01/09/2026"',
    );
    expect(check(row({ shipment_date: '2026-02-30' }))).toBe(
      'shipment_date must be a date as YYYY-MM-DD, got "2026-02-30"',
    );
    expect(check(row({ unit: ' ' }))).toBe('unit is required');
    expect(check(row({ quantity: '-5' }))).toBe(
      'quantity must be a number of zero or more (1234.5, 4,800,000 or 48,00,000), got "-5"',
    );
    expect(check([...row(), 'extra'])).toBe('the row has 7 field(s), the header 6');
  });

  it('takes numbers grouped as the console shows them (48,00,000 and 1,23,456.50) and the western way (4,800,000)', () => {
    for (const value of ['48,00,000', '1,23,456.50', '1,00,00,000', '4,800,000', '1,000', '999', '0.5', '12.25'])
      expect(isAcceptedNumber(value), value).toBe(true);
    for (const value of [
      '12,34',
      '1,2345',
      '1,234,56,789',
      ',100',
      '100,',
      '1,,000',
      '1.000,50',
      '1 000',
      '-1,000',
      'abc',
      '',
    ])
      expect(isAcceptedNumber(value), value).toBe(false);
    expect(plainNumber('48,00,000')).toBe('4800000');
    expect(plainNumber('1,23,456.50')).toBe('123456.50');
    expect(plainNumber('4,800,000')).toBe('4800000');
    expect(check(row({ quantity: '48,00,000', value: '1,23,456.50' }))).toBeNull();
    expect(check(row({ value: '12,34' }))).toBe(
      'value must be a number of zero or more (1234.5, 4,800,000 or 48,00,000), got "12,34"',
    );
  });

  it('reads a quoted field that holds commas as one field, so a grouped number in quotes is one value', async () => {
    const batches: string[][] = [];
    for await (const batch of csvBatches(
      pieces(`${HEADER.join(',')}\n2026-09-01,0904,"Pepper, black","48,00,000",KGS,"1,23,456.50"\n`),
    ))
      batches.push(...batch);
    expect(batches[1]).toEqual(['2026-09-01', '0904', 'Pepper, black', '48,00,000', 'KGS', '1,23,456.50']);
    expect(check(batches[1]!)).toBeNull();
  });

  it('checks a configured column by its type, and counts a line of blank fields as no row', () => {
    const columns: TradeColumn[] = [...STANDARD_COLUMNS, { name: 'freight', type: 'number', required: true }];
    const withFreight = rowCheck([...HEADER, 'freight'], columns);
    expect(withFreight([...row(), '2,500'])).toBeNull();
    expect(withFreight([...row(), 'n/a'])).toBe(
      'freight must be a number of zero or more (1234.5, 4,800,000 or 48,00,000), got "n/a"',
    );
    expect(isBlankRecord(['', ' ', ''])).toBe(true);
    expect(isBlankRecord(['', 'x'])).toBe(false);
  });
});

describe('the template of a trade file', () => {
  it('has the header of the columns and one example row that the check accepts', async () => {
    const columns: TradeColumn[] = [
      ...STANDARD_COLUMNS,
      { name: 'freight', type: 'number', required: true },
      { name: 'remarks', type: 'string', required: false },
    ];
    const template = templateCsv(columns);
    const records: string[][] = [];
    for await (const batch of csvBatches(pieces(template)))
      records.push(...batch.filter((record) => !isBlankRecord(record)));
    expect(records).toHaveLength(2);
    expect(records[0]).toEqual(columns.map((column) => column.name));
    expect(rowCheck(records[0]!, columns)(records[1]!)).toBeNull();
    expect(records[1]).toContain('3,45,000.50');
  });
});
