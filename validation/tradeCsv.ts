// A trade file's text read as CSV as it comes, a batch of records at a time, and its bytes held to UTF-8: the same
// reading for the server's import (tradeFile.ts, on the stored file) and the upload screen's dry run (on the first
// rows of the chosen file). Plain TypeScript and papaparse: no Node or DOM APIs.
import Papa from 'papaparse';

/** Longest line (header or row) a file may have; a longer one ends the upload. */
export const MAX_LINE_BYTES = 1024 * 1024;
/** Most text a gzip file may expand to (a small file that expands without end is refused, not read for ever). */
export const MAX_TEXT_BYTES = 8 * 1024 * 1024 * 1024;

/** Whether a file's name says it is compressed with gzip (`.csv.gz`). */
export function isGzipName(name: string): boolean {
  return /\.gz$/i.test(name);
}

/** Whether bytes begin as gzip does (1f 8b), whatever the file's name. */
export function startsAsGzip(head: Uint8Array): boolean {
  return head[0] === 0x1f && head[1] === 0x8b;
}

/** Why a file named `.csv.gz` is refused when its bytes are not gzip. */
export const NOT_GZIP = 'A .csv.gz file must be CSV compressed with gzip.';

/** How far into a file's text a NUL character says it is no text at all, and what is said of it then. */
export const TEXT_SNIFF_BYTES = 8192;
export const NOT_CSV = 'Only CSV files can be uploaded.';

/** The file itself is wrong: the upload fails at once with this reason, since trying again cannot help. */
export class BadTradeFile extends Error {}

/**
 * The CSV records of a text as it comes, a batch per piece of text: papaparse's row parser (a quote opens a field only
 * at its start; elsewhere it is text) reads the rows a piece ends, and the row it cuts is carried into the next piece,
 * never past MAX_LINE_BYTES.
 */
export async function* csvBatches(text: AsyncIterable<string>): AsyncGenerator<string[][]> {
  let parser: Papa.Parser | null = null;
  let lineEnd = '\n';
  let carried = '';
  let started = false;
  /** Lines of the text before `carried`: a cut row's line, for the reason a file fails. */
  let linesBefore = 0;
  const tooLong = (line: number) =>
    new BadTradeFile(
      `Line ${line} of the file is longer than ${MAX_LINE_BYTES / 1024 / 1024} MB, which no trade row is.`,
    );
  for await (const piece of text) {
    const input = started ? carried + piece : piece.replace(/^\uFEFF/, '');
    started = true;
    if (!parser) {
      // The line break is told by the first one, which the first piece may not reach.
      if (!/[\r\n]/.test(input.slice(0, -1)) && input.length <= MAX_LINE_BYTES) {
        carried = input;
        continue;
      }
      const newline = lineBreak(input);
      lineEnd = newline === '\r' ? '\r' : '\n';
      parser = new Papa.Parser({ delimiter: ',', newline });
    }
    const { data, meta } = parser.parse(input, 0, true) as Papa.ParseResult<string[]>;
    // A long row carried in (or a piece larger than a row may be) may hold a line longer than a row may be.
    if (meta.cursor > MAX_LINE_BYTES) {
      for (let line = linesBefore + 1, from = 0; from < meta.cursor; line += 1) {
        const at = input.indexOf(lineEnd, from);
        if ((at === -1 ? meta.cursor : at) - from > MAX_LINE_BYTES) throw tooLong(line);
        if (at === -1) break;
        from = at + 1;
      }
    }
    linesBefore += lineBreaksIn(input, meta.cursor, lineEnd);
    carried = input.slice(meta.cursor);
    if (carried.length > MAX_LINE_BYTES) {
      const lines = lineBreaksIn(carried, MAX_LINE_BYTES, lineEnd);
      if (lines <= 1) throw tooLong(linesBefore + 1);
      throw new BadTradeFile(
        `The file has a quote that is never closed (opened on line ${linesBefore + 1}, still open ${lines} lines and ${MAX_LINE_BYTES / 1024 / 1024} MB later), so its rows cannot be told apart.`,
      );
    }
    if (data.length) yield data;
  }
  if (!carried) return;
  parser ??= new Papa.Parser({ delimiter: ',', newline: lineBreak(carried) });
  const { data, errors } = parser.parse(carried, 0, false) as Papa.ParseResult<string[]>;
  if (errors.some((error) => error.code === 'MissingQuotes'))
    throw new BadTradeFile(
      `The file has a quote that is never closed (opened on line ${linesBefore + 1}), so its rows cannot be told apart.`,
    );
  yield data;
}

/** The line break a text uses, told by its first one (a file ending lines in CR LF, LF or CR). */
function lineBreak(text: string): '\r\n' | '\n' | '\r' {
  const lf = text.indexOf('\n');
  if (lf > 0 && text[lf - 1] === '\r') return '\r\n';
  if (lf === -1 && text.includes('\r')) return '\r';
  return '\n';
}

/** How many line breaks (each ending in `lineEnd`) the text has before `end`. */
function lineBreaksIn(text: string, end: number, lineEnd: string): number {
  let lines = 0;
  for (let at = text.indexOf(lineEnd); at !== -1 && at < end; at = text.indexOf(lineEnd, at + 1)) lines += 1;
  return lines;
}

/** The bytes as text, refusing any that is not UTF-8 (a file saved in another encoding would import as garbage). */
export async function* strictUtf8(bytes: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let decoded = 0;
  for await (const chunk of bytes) {
    let text: string;
    try {
      text = decoder.decode(chunk, { stream: true });
    } catch {
      throw new BadTradeFile(
        `The file is not UTF-8 text (an invalid byte sequence within bytes ${decoded + 1} to ${decoded + chunk.length} of its text). Save it as UTF-8 CSV and upload it again.`,
      );
    }
    decoded += chunk.length;
    if (decoded > MAX_TEXT_BYTES)
      throw new BadTradeFile(
        `The file expands to more than ${MAX_TEXT_BYTES / 1024 ** 3} GB of text, more than one upload may have.`,
      );
    if (text) yield text;
  }
  try {
    const rest = decoder.decode();
    if (rest) yield rest;
  } catch {
    throw new BadTradeFile(
      'The file is not UTF-8 text (it ends in the middle of a character). Save it as UTF-8 CSV and upload it again.',
    );
  }
}
