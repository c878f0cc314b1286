import { IMPORT_MAX_CELL_CHARS, IMPORT_MAX_COLUMNS, IMPORT_MAX_ROWS } from '../importLimits.ts';
import { cellTooLong, FileTableBuilder, tooManyColumns, tooManyRows, type FileTable } from './fileTable.ts';
import { FileRefused, UNREADABLE_XLSX } from './refusal.ts';
import { XlsxArchive } from './xlsxArchive.ts';
import { dateText, sheetDate } from './xlsxDates.ts';
import { dateStylesOf, readXml, sharedStringsOf, unescapeSheetText, workbookParts } from './xlsxWorkbook.ts';

/** The rows after the heading row, and the heading row itself. */
const MAX_SHEET_ROW = IMPORT_MAX_ROWS + 1;

/**
 * An XLSX file's first sheet, read as a stream of rows: each cell reference is checked as it comes (a cell at
 * XFD1048576 is refused there, no table is ever laid out to reach it), and only the rows that hold something are kept.
 */
export async function xlsxTable(data: Buffer): Promise<FileTable> {
  const archive = await XlsxArchive.open(data);
  try {
    const parts = await workbookParts(archive);
    const strings = await sharedStringsOf(archive, parts.sharedStrings);
    const dateStyles = await dateStylesOf(archive, parts.styles);
    const table = new FileTableBuilder(true);
    await readSheetRows(
      archive,
      parts.sheet,
      (cells, where) => table.add(cells, where),
      (cell) => cellText(cell, strings, dateStyles, parts.epoch1904),
    );
    return table.finish();
  } finally {
    archive.close();
  }
}

interface SheetCell {
  ref: string;
  type: string;
  style: number;
  value: string | null;
  inline: string | null;
}

/** Column and row of a reference such as `AB12`; a reference past the limits is refused before it is worked out. */
function position(ref: string, what: string): { column: number; row: number } {
  const match = /^\$?([A-Za-z]+)\$?(\d+)$/.exec(ref);
  if (!match) throw new FileRefused(UNREADABLE_XLSX);
  const [, letters, digits] = match as unknown as [string, string, string];
  const column =
    letters.length > 3
      ? Infinity
      : [...letters.toUpperCase()].reduce((sum, letter) => sum * 26 + letter.charCodeAt(0) - 64, 0);
  const row = digits.length > 7 ? Infinity : Number(digits);
  if (column > IMPORT_MAX_COLUMNS) throw tooManyColumns(`${what} ${ref}`);
  if (row > MAX_SHEET_ROW) throw tooManyRows(`${what} ${ref}`);
  return { column, row };
}

async function readSheetRows(
  archive: XlsxArchive,
  part: string,
  addRow: (cells: Array<string | undefined>, where: string) => void,
  textOf: (cell: SheetCell) => string,
): Promise<void> {
  let rowNumber = 0;
  let cells: Array<string | undefined> = [];
  let lastColumn = 0;
  let cell: SheetCell | null = null;
  let into: 'value' | 'inline' | null = null;
  let inPhonetic = false;
  let inText = false;
  await readXml(archive, part, {
    open(name, attributes) {
      if (name === 'dimension' && attributes.ref) {
        for (const ref of attributes.ref.split(':')) position(ref, 'the sheet declares its size as');
      } else if (name === 'row') {
        rowNumber = attributes.r ? Number(attributes.r) : rowNumber + 1;
        // A row past the limits is refused by its first cell (an empty one is left out like any empty row).
        if (!Number.isSafeInteger(rowNumber) || rowNumber < 1) throw new FileRefused(UNREADABLE_XLSX);
        cells = [];
        lastColumn = 0;
      } else if (name === 'c') {
        const ref = attributes.r ?? `${columnLetters(lastColumn + 1)}${rowNumber}`;
        lastColumn = position(ref, 'the sheet has a cell at').column;
        cell = {
          ref,
          type: attributes.t ?? 'n',
          style: attributes.s ? Number(attributes.s) : 0,
          value: null,
          inline: null,
        };
      } else if (cell && name === 'v') {
        into = 'value';
        cell.value = '';
      } else if (cell && name === 'is') {
        into = 'inline';
        cell.inline = '';
      } else if (name === 't') {
        inText = true;
      } else if (name === 'rPh') {
        inPhonetic = true;
      }
    },
    close(name) {
      if (name === 'c' && cell) {
        const text = textOf(cell);
        if (text !== '') cells[lastColumn - 1] = text;
        cell = null;
      } else if (name === 'row') {
        addRow(cells, `row ${rowNumber}`);
      } else if (name === 'v' || name === 'is') {
        into = null;
      } else if (name === 't') {
        inText = false;
      } else if (name === 'rPh') {
        inPhonetic = false;
      }
    },
    text(text) {
      if (!cell || into === null || (into === 'inline' && (!inText || inPhonetic))) return;
      const grown = (cell[into] ?? '') + text;
      if (grown.length > IMPORT_MAX_CELL_CHARS) throw cellTooLong(`the cell ${cell.ref}`);
      cell[into] = grown;
    },
  });
}

function columnLetters(column: number): string {
  let letters = '';
  for (let rest = column; rest > 0; rest = Math.floor((rest - 1) / 26))
    letters = String.fromCharCode(65 + ((rest - 1) % 26)) + letters;
  return letters;
}

/** A cell as the text a CSV would hold: a shared or inline string, a number, a boolean, a date as YYYY-MM-DD. */
function cellText(
  cell: SheetCell,
  strings: ReadonlyArray<string | null>,
  dateStyles: readonly boolean[],
  epoch1904: boolean,
): string {
  const value = cell.value ?? '';
  switch (cell.type) {
    case 's': {
      if (value === '') return '';
      const shared = strings[Number(value)];
      if (shared === undefined) throw new FileRefused(UNREADABLE_XLSX);
      if (shared === null) throw cellTooLong(`the cell ${cell.ref}`);
      return shared;
    }
    case 'str':
      return unescapeSheetText(value).trim();
    case 'inlineStr':
      return unescapeSheetText(cell.inline ?? '').trim();
    case 'b':
      return value === '1' ? 'true' : value === '0' ? 'false' : '';
    case 'e':
      return '';
    case 'd':
      return value === '' ? '' : dateText(new Date(value));
    default: {
      if (value.trim() === '') return '';
      const number = Number(value);
      if (!Number.isFinite(number)) return value.trim();
      return dateStyles[cell.style] ? dateText(sheetDate(number, epoch1904)) : String(number);
    }
  }
}
