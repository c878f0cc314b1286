import Papa from 'papaparse';
import { IMPORT_MAX_CELL_CHARS, IMPORT_MAX_COLUMNS, IMPORT_MAX_ROW_BYTES } from '../importLimits.ts';
import { cellTooLong, FileTableBuilder, rowTooLong, tooManyColumns, type FileTable } from './fileTable.ts';
import { FileRefused } from './refusal.ts';

const NEWLINE = 0x0a;

/** A CSV file (UTF-8, with or without a byte order mark), row by row, each row checked as it is read. */
export function csvTable(data: Uint8Array): FileTable {
  checkLineLengths(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
  const text = new TextDecoder('utf-8').decode(data).replace(/^\uFEFF/, '');
  const table = new FileTableBuilder(false);
  let refusal: Error | null = null;
  let row = 0;
  // Empty rows are left out by the table, after their cells are counted: a line of a million commas is refused.
  Papa.parse<string[]>(text, {
    step(results, parser) {
      row += 1;
      try {
        const broken = results.errors.find((error) => error.type === 'Quotes');
        if (broken) throw new FileRefused(`Row ${row}: ${broken.message}.`);
        if (results.data.length > IMPORT_MAX_COLUMNS)
          throw tooManyColumns(`row ${row} has ${results.data.length.toLocaleString('en')}`);
        if (results.data.some((cell) => cell.length > IMPORT_MAX_CELL_CHARS)) throw cellTooLong(`a cell of row ${row}`);
        table.add(
          results.data.map((cell) => cell.trim()),
          `row ${row}`,
        );
      } catch (error) {
        refusal = error as Error;
        parser.abort();
      }
    },
  });
  if (refusal) throw refusal;
  return table.finish();
}

/**
 * A line longer than a row may be is refused before the text is parsed: a row holds every line it spans (a quoted cell
 * may span several), so a line of a million cells never becomes a million strings.
 */
function checkLineLengths(data: Buffer): void {
  for (let start = 0, line = 1; start < data.length; line += 1) {
    const end = data.indexOf(NEWLINE, start);
    const length = (end < 0 ? data.length : end) - start;
    if (length > IMPORT_MAX_ROW_BYTES) throw rowTooLong(`line ${line}`);
    if (end < 0) return;
    start = end + 1;
  }
}
