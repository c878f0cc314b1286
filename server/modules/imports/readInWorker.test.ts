import writeExcelFile from 'write-excel-file/node';
import { describe, expect, it } from 'vitest';
import { readInWorker } from './readInWorker.ts';
import { FileRefused } from './reading/refusal.ts';
import { textCell, xlsxOf } from './testing/hostileFiles.ts';

const rowsOf = (table: { rowsJson: string }) => JSON.parse(table.rowsJson) as string[][];

describe('reading an import file in its worker', () => {
  it('reads an XLSX as a CSV would hold it: strings trimmed, numbers, booleans, dates as YYYY-MM-DD, empty rows left out', async () => {
    const sheet = [
      [
        { value: 'Code' },
        { value: ' Name ' },
        { value: 'Valid from' },
        { value: 'At' },
        { value: 'Count' },
        { value: 'Active' },
        null,
      ],
      [
        { value: 'A0001' },
        { value: '  padded  ' },
        { value: new Date(Date.UTC(2026, 1, 1)), type: Date, format: 'yyyy-mm-dd' },
        { value: new Date(Date.UTC(2026, 1, 1, 13, 30)), type: Date, format: 'dd/mm/yyyy hh:mm' },
        { value: 50 },
        { value: true, type: Boolean },
        null,
      ],
      [null, null, null, null, null, null, null],
      [
        { value: 'A0002' },
        null,
        { value: 46054, format: '#,##0' },
        null,
        { value: 1.5 },
        { value: false, type: Boolean },
        null,
      ],
    ];
    const table = await readInWorker('xlsx', await writeExcelFile(sheet as never).toBuffer());
    expect(table.headings).toEqual(['Code', 'Name', 'Valid from', 'At', 'Count', 'Active']);
    expect(table.rowCount).toBe(2);
    expect(rowsOf(table)).toEqual([
      ['A0001', 'padded', '2026-02-01', '2026-02-01T13:30:00.000Z', '50', 'true'],
      ['A0002', '', '46054', '', '1.5', 'false'],
    ]);
  });

  it('reads inline strings (rich text runs joined, phonetic runs left out), escaped characters, and a heading left blank', async () => {
    const rich =
      '<c r="A2" t="inlineStr"><is><r><t>Gre</t></r><r><t xml:space="preserve">en tea</t></r><rPh><t>ryokucha</t></rPh></is></c>';
    const data = xlsxOf(
      `<row r="1">${textCell('A1', 'Name')}${textCell('C1', 'Note')}</row><row r="2">${rich}${textCell('B2', 'x')}${textCell('C2', 'a_x000D_b')}</row>`,
    );
    const table = await readInWorker('xlsx', data);
    expect(table.headings).toEqual(['Name', 'Column 2', 'Note']);
    expect(rowsOf(table)).toEqual([['Green tea', 'x', 'a\rb']]);
  });

  it('reads a CSV with a byte order mark; a longer row loses its extra cells, a shorter one is filled with empty cells', async () => {
    const table = await readInWorker(
      'csv',
      Buffer.from('\uFEFFCode,Name\r\nA1,"One, two"\r\n\r\nA2\r\nA3,Three,extra\r\n'),
    );
    expect(table.headings).toEqual(['Code', 'Name']);
    expect(rowsOf(table)).toEqual([
      ['A1', 'One, two'],
      ['A2', ''],
      ['A3', 'Three'],
    ]);
  });

  it('refuses a CSV with an open quote, naming its row', async () => {
    await expect(readInWorker('csv', Buffer.from('Code,Name\nA1,"open\n'))).rejects.toThrow(/^Row 2: /);
  });

  it('stops a worker that takes longer than its time and refuses the file', async () => {
    const rows = Array.from({ length: 100_000 }, (_unused, index) => `C${index},${'n'.repeat(40)}`).join('\n');
    const refusal = await readInWorker('csv', Buffer.from(`Code,Name\n${rows}\n`), {
      memoryMb: 512,
      seconds: 0.001,
    }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(FileRefused);
    expect((refusal as Error).message).toBe(
      'Reading this file takes longer than 0.001 seconds, the most an import may take.',
    );
  });

  it('stops a worker that needs more memory than it may use and refuses the file; the next file is read', async () => {
    const rows = Array.from({ length: 150_000 }, (_unused, index) =>
      Array.from({ length: 20 }, (_cell, column) => `r${index}c${column}`).join(','),
    ).join('\n');
    const data = Buffer.from(`${Array.from({ length: 20 }, (_cell, column) => `h${column}`).join(',')}\n${rows}\n`);
    const refusal = await readInWorker('csv', data, { memoryMb: 24, seconds: 30 }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(FileRefused);
    expect((refusal as Error).message).toBe(
      'Reading this file needs more than 24 MiB of memory, the most an import may use.',
    );
    expect((await readInWorker('csv', Buffer.from('Code\nA1\n'))).rowCount).toBe(1);
  });
});
