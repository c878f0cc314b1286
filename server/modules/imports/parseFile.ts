import Papa from 'papaparse';
import { readSheet } from 'read-excel-file/node';
import { validationError } from '../../http/errors.ts';

/** A file's table: its first row's headings and the rows after it, every cell as text ('' when empty). */
export interface ParsedFile {
  headings: string[];
  rows: string[][];
}

export const IMPORT_MAX_BYTES = 32 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 200_000;
const MAX_COLUMNS = 200;
const XLSX_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

/** CSV (UTF-8, with or without a byte order mark) or XLSX (its first sheet), told apart by content, not by name. */
export async function parseImportFile(data: Buffer, fileName: string): Promise<ParsedFile> {
  const isXlsx = data.subarray(0, 4).equals(XLSX_MAGIC);
  if (!isXlsx && !/\.csv$/i.test(fileName)) throw validationError({ file: 'Choose a CSV or XLSX file.' });
  const table = isXlsx ? await xlsxTable(data) : csvTable(data);
  const [headingRow, ...rows] = table.filter((row) => row.some((cell) => cell !== ''));
  if (!headingRow) throw validationError({ file: 'The file is empty: its first row must name the columns.' });
  if (headingRow.length > MAX_COLUMNS) throw validationError({ file: `The file has more than ${MAX_COLUMNS} columns.` });
  if (rows.length > IMPORT_MAX_ROWS) throw validationError({ file: `The file has more than ${IMPORT_MAX_ROWS.toLocaleString('en')} rows; split it.` });
  const headings = headingRow.map((heading, index) => heading.trim() || `Column ${index + 1}`);
  return { headings, rows: rows.map((row) => headings.map((_heading, index) => row[index] ?? '')) };
}

function csvTable(data: Buffer): string[][] {
  const text = data.toString('utf8').replace(/^\uFEFF/, '');
  const parsed = Papa.parse<string[]>(text, { skipEmptyLines: 'greedy' });
  const broken = parsed.errors.find((error) => error.type === 'Quotes');
  if (broken) throw validationError({ file: `Row ${(broken.row ?? 0) + 1}: ${broken.message}.` });
  return parsed.data.map((row) => row.map((cell) => cell.trim()));
}

async function xlsxTable(data: Buffer): Promise<string[][]> {
  let sheet: unknown[][];
  try {
    sheet = (await readSheet(data)) as unknown[][];
  } catch {
    throw validationError({ file: 'This XLSX file cannot be read.' });
  }
  return sheet.map((row) => row.map(cellText));
}

/** A spreadsheet cell as the text a CSV would hold: a date as YYYY-MM-DD (with its time when it has one). */
function cellText(cell: unknown): string {
  if (cell === null || cell === undefined) return '';
  if (cell instanceof Date) {
    const iso = cell.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso;
  }
  return String(cell).trim();
}
