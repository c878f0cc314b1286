import { validationError } from '../../http/errors.ts';
import { readInWorker } from './readInWorker.ts';
import type { FileTable } from './reading/fileTable.ts';
import { FileRefused } from './reading/refusal.ts';

/** A file's table: its first row's headings and the rows after it, every cell as text ('' when empty). */
export interface ParsedFile {
  headings: string[];
  rows: string[][];
}

export type { FileTable };

const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

/**
 * CSV (UTF-8, with or without a byte order mark) or XLSX (its first sheet), told apart by content, not by name; read
 * in a worker within the limits of importLimits.ts, a file past one refused with a 400 on `file` that names it.
 */
export async function parseImportFile(data: Buffer, fileName: string): Promise<FileTable> {
  const isXlsx = data.subarray(0, 4).equals(ZIP_MAGIC);
  if (!isXlsx && !/\.csv$/i.test(fileName)) throw validationError({ file: 'Choose a CSV or XLSX file.' });
  try {
    return await readInWorker(isXlsx ? 'xlsx' : 'csv', data);
  } catch (error) {
    if (error instanceof FileRefused) throw validationError({ file: error.message });
    throw error;
  }
}
