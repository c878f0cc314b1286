import {
  count,
  IMPORT_MAX_CELL_CHARS,
  IMPORT_MAX_CELLS,
  IMPORT_MAX_COLUMNS,
  IMPORT_MAX_ROW_BYTES,
  IMPORT_MAX_ROWS,
  IMPORT_MAX_TEXT_CHARS,
  mebibytes,
} from '../importLimits.ts';
import { FileRefused } from './refusal.ts';

/** A file's table as the server keeps it: the headings, the count of rows after them, and those rows as JSON text. */
export interface FileTable {
  headings: string[];
  rowCount: number;
  rowsJson: string;
}

export const tooManyColumns = (where: string) =>
  new FileRefused(`A file may have at most ${IMPORT_MAX_COLUMNS} columns; ${where}.`);
export const tooManyRows = (where: string) =>
  new FileRefused(`A file may have at most ${count(IMPORT_MAX_ROWS)} rows after its heading row; ${where}. Split it.`);
export const cellTooLong = (where: string) =>
  new FileRefused(`A cell may hold at most ${count(IMPORT_MAX_CELL_CHARS)} characters; ${where} holds more.`);
export const rowTooLong = (where: string) =>
  new FileRefused(`A row may be at most ${mebibytes(IMPORT_MAX_ROW_BYTES)} long; ${where} is longer.`);

/**
 * The rows of a file as they are read, each checked against the limits as it arrives: an empty row is left out, the
 * first one left names the columns. `widestRow`: the table is as wide as its widest row (a sheet), else as its heading
 * row (a CSV, whose longer rows lose their extra cells).
 */
export class FileTableBuilder {
  private readonly rows: string[][] = [];
  private width = 0;
  private cells = 0;
  private text = 0;

  constructor(private readonly widestRow: boolean) {}

  /** A row's cells (already trimmed; missing ones undefined) and where it is in the file, for the messages. */
  add(cells: ReadonlyArray<string | undefined>, where: string): void {
    if (cells.length > IMPORT_MAX_COLUMNS) throw tooManyColumns(`${where} has ${count(cells.length)}`);
    let rowChars = 0;
    for (const cell of cells) {
      const length = cell?.length ?? 0;
      if (length > IMPORT_MAX_CELL_CHARS) throw cellTooLong(`a cell of ${where}`);
      rowChars += length;
    }
    if (rowChars === 0) return;
    if (rowChars > IMPORT_MAX_ROW_BYTES) throw rowTooLong(where);
    if (this.rows.length > IMPORT_MAX_ROWS) throw tooManyRows(`${where} is past that`);
    this.text += rowChars;
    if (this.text > IMPORT_MAX_TEXT_CHARS)
      throw new FileRefused(
        `A file may hold at most ${mebibytes(IMPORT_MAX_TEXT_CHARS)} of text in its cells; the text up to ${where} is more.`,
      );
    const row = Array.from(cells, (cell) => cell ?? '');
    if (this.rows.length === 0 || this.widestRow) this.width = Math.max(this.width, row.length);
    this.cells += this.width;
    if (this.cells > IMPORT_MAX_CELLS)
      throw new FileRefused(
        `A file may have at most ${count(IMPORT_MAX_CELLS)} cells (rows times columns); the cells up to ${where} are more.`,
      );
    this.rows.push(row);
  }

  /** The table: each row made as wide as the headings. */
  finish(): FileTable {
    const [headingRow, ...rows] = this.rows;
    if (!headingRow) throw new FileRefused('The file is empty: its first row must name the columns.');
    const width = this.width;
    if (rows.length * width > IMPORT_MAX_CELLS)
      throw new FileRefused(
        `A file may have at most ${count(IMPORT_MAX_CELLS)} cells (rows times columns); this one has ${count(rows.length * width)}.`,
      );
    const headings = Array.from({ length: width }, (_unused, index) => headingRow[index] || `Column ${index + 1}`);
    const fitted = rows.map((row) =>
      row.length === width ? row : Array.from({ length: width }, (_unused, index) => row[index] ?? ''),
    );
    return { headings, rowCount: rows.length, rowsJson: JSON.stringify(fitted) };
  }
}
