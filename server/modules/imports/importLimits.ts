/**
 * What a file uploaded for import may be (docs/api.md, "Import"): every limit is checked before the part it bounds is
 * expanded, so a small file that would grow into gigabytes is refused while it is still small.
 */

const MIB = 1024 * 1024;

/** The file as posted: the body limit of the upload route. */
export const IMPORT_MAX_BYTES = 32 * MIB;
/** Rows after the heading row. */
export const IMPORT_MAX_ROWS = 200_000;
export const IMPORT_MAX_COLUMNS = 200;
/** Rows times columns: what the table costs to keep, whatever its shape. */
export const IMPORT_MAX_CELLS = 4_000_000;
/** Characters in one cell. */
export const IMPORT_MAX_CELL_CHARS = 32 * 1024;
/** One row: a CSV line's bytes (checked before it is parsed), a sheet row's characters. */
export const IMPORT_MAX_ROW_BYTES = MIB;
/** Characters in all the cells of a file: an XLSX holds no more text than a CSV may. @alias */
export const IMPORT_MAX_TEXT_CHARS = IMPORT_MAX_BYTES;

/** Parts (files inside the zip) of an XLSX file. */
export const XLSX_MAX_PARTS = 1_000;
/** The uncompressed size the zip's directory declares, for all parts together (one part may take all of it). */
export const XLSX_MAX_UNCOMPRESSED_BYTES = 128 * MIB;
/** Uncompressed size over compressed size, for a part of more than XLSX_RATIO_FROM_BYTES. */
export const XLSX_MAX_RATIO = 100;
export const XLSX_RATIO_FROM_BYTES = MIB;

/** A file is read in a worker thread of its own, stopped when it needs more memory or time than this. */
export const IMPORT_READER_MEMORY_MB = 512;
export const IMPORT_READER_SECONDS = 30;
/** Files read at once; the next ones wait their turn. */
export const IMPORT_READERS_AT_ONCE = 2;

/** A cell as a dry run shows it: the stored cell is whole, what is shown is cut. */
export const IMPORT_SHOWN_CELL_CHARS = 200;

/** A row as a dry run shows it: each cell, and each message (which may quote a cell), cut to a readable length. */
export function shownRow(
  cells: readonly string[],
  errors: Record<string, string>,
): { cells: string[]; errors: Record<string, string> } {
  return {
    cells: cells.map(shownCell),
    errors: Object.fromEntries(Object.entries(errors).map(([name, message]) => [name, shownCell(message)])),
  };
}

function shownCell(text: string): string {
  return text.length <= IMPORT_SHOWN_CELL_CHARS ? text : `${text.slice(0, IMPORT_SHOWN_CELL_CHARS - 1)}…`;
}

/** 1,048,576 -> "1 MiB"; 32,768 -> "32,768" characters read better as a count. */
export function mebibytes(bytes: number): string {
  return `${(bytes / MIB).toLocaleString('en', { maximumFractionDigits: 1 })} MiB`;
}

export function count(value: number): string {
  return value.toLocaleString('en');
}
