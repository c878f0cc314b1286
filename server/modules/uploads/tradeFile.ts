// A stored trade file read as it streams: its bytes counted and hashed, gunzipped when they are gzip, decoded as
// strict UTF-8 and parsed as CSV, a batch of records at a time. Nothing of the file is held whole.
import { createHash } from 'node:crypto';
import { pipeline, Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import Papa from 'papaparse';

/** Longest line (header or row) a file may have; a longer one ends the upload. */
export const MAX_LINE_BYTES = 1024 * 1024;
/** Most rows a file may have; past it the upload fails rather than being cut short. */
export const MAX_ROWS = 10_000_000;
/** Most text a gzip file may expand to (a small file that expands without end is refused, not read for ever). */
export const MAX_TEXT_BYTES = 8 * 1024 * 1024 * 1024;
const GZIP_MAGIC = [0x1f, 0x8b];

/** The file itself is wrong: the upload fails at once with this reason, since trying again cannot help. */
export class BadTradeFile extends Error {}

/** What the log says of an upload whose stored file no longer has the bytes that were checked when it was accepted. */
export const CHANGED_FILE_ERROR = 'The stored file is not the one that was checked (its content changed after it was accepted). Upload the file again.';

export interface ExpectedFile {
  /** The SHA-256 of the bytes checked when the file was accepted. */
  sha256: string;
  /** Their size, when it was recorded. */
  size: number | null;
}

/** How far the reading has come, for the progress every instance reads. */
export interface ReadCount {
  bytesRead: number;
  compressed: boolean;
}

/**
 * The records of a stored trade file, header first, as arrays of fields, in batches of what the parser has at hand
 * (one promise a batch, not one a record). Rejects (as the iteration goes on) with a BadTradeFile naming what is
 * wrong: bytes other than the checked ones (hash or size), a truncated or corrupt gzip, text that is not UTF-8, an
 * unclosed quote, a line longer than MAX_LINE_BYTES, more than MAX_ROWS rows. The hash is known only at the end: a
 * consumer must not publish what it read before the iteration has ended without error.
 */
export async function* tradeFileBatches(source: Readable, expected: ExpectedFile, count: ReadCount): AsyncGenerator<string[][]> {
  const raw = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const first = await raw.next();
  const head: Buffer = first.done ? Buffer.alloc(0) : first.value;
  count.compressed = head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1];
  const bytes = Readable.from(checkedBytes(head, first.done === true, raw, expected, count), { objectMode: false });
  // An error anywhere (the hash at the end, the gzip, the decoding) ends the text, and the iteration with it.
  const text = count.compressed ? pipeline(bytes, createGunzip(), ignore) : bytes;
  let records = 0;
  try {
    for await (const parsed of csvBatches(strictUtf8(text))) {
      const batch = parsed.filter((record) => !record.every((field) => field.trim() === ''));
      records += batch.length;
      if (records > MAX_ROWS + 1) throw new BadTradeFile(`The file has more than ${MAX_ROWS} rows, the most one upload may have. Split it and upload the parts.`);
      if (batch.length) yield batch;
    }
  } catch (error) {
    throw asBadFile(error);
  } finally {
    source.destroy();
    text.destroy();
  }
}

/**
 * The CSV records of a text as it comes, a batch per piece of text: papaparse's row parser (a quote opens a field only
 * at its start; elsewhere it is text) reads the rows a piece ends, and the row it cuts is carried into the next piece,
 * never past MAX_LINE_BYTES.
 */
async function* csvBatches(text: AsyncIterable<string>): AsyncGenerator<string[][]> {
  let parser: Papa.Parser | null = null;
  let lineEnd = '\n';
  let carried = '';
  let started = false;
  /** Lines of the text before `carried`: a cut row's line, for the reason a file fails. */
  let linesBefore = 0;
  const tooLong = (line: number) => new BadTradeFile(`Line ${line} of the file is longer than ${MAX_LINE_BYTES / 1024 / 1024} MB, which no trade row is.`);
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
      throw new BadTradeFile(`The file has a quote that is never closed (opened on line ${linesBefore + 1}, still open ${lines} lines and ${MAX_LINE_BYTES / 1024 / 1024} MB later), so its rows cannot be told apart.`);
    }
    if (data.length) yield data;
  }
  if (!carried) return;
  parser ??= new Papa.Parser({ delimiter: ',', newline: lineBreak(carried) });
  const { data, errors } = parser.parse(carried, 0, false) as Papa.ParseResult<string[]>;
  if (errors.some((error) => error.code === 'MissingQuotes')) throw new BadTradeFile(`The file has a quote that is never closed (opened on line ${linesBefore + 1}), so its rows cannot be told apart.`);
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

/** Errors reach the iteration through the last stage, which every stage's error destroys. */
function ignore(): void {}

/** The stored bytes as they come, counted and hashed; the size and the hash are held to the checked ones. */
async function* checkedBytes(head: Buffer, ended: boolean, rest: AsyncIterator<Buffer>, expected: ExpectedFile, count: ReadCount): AsyncGenerator<Buffer> {
  const hash = createHash('sha256');
  const take = (chunk: Buffer) => {
    count.bytesRead += chunk.length;
    // A file longer than the one that was checked is not read to its end: it is not that file.
    if (expected.size !== null && count.bytesRead > expected.size) throw new BadTradeFile(CHANGED_FILE_ERROR);
    hash.update(chunk);
    return chunk;
  };
  if (head.length) yield take(head);
  if (!ended) {
    for (let next = await rest.next(); !next.done; next = await rest.next()) yield take(next.value);
  }
  if ((expected.size !== null && count.bytesRead !== expected.size) || hash.digest('hex') !== expected.sha256) throw new BadTradeFile(CHANGED_FILE_ERROR);
}

/** The bytes as text, refusing any that is not UTF-8 (a file saved in another encoding would import as garbage). */
async function* strictUtf8(bytes: AsyncIterable<Buffer>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let decoded = 0;
  for await (const chunk of bytes) {
    let text: string;
    try {
      text = decoder.decode(chunk, { stream: true });
    } catch {
      throw new BadTradeFile(`The file is not UTF-8 text (an invalid byte sequence within bytes ${decoded + 1} to ${decoded + chunk.length} of its text). Save it as UTF-8 CSV and upload it again.`);
    }
    decoded += chunk.length;
    if (decoded > MAX_TEXT_BYTES) throw new BadTradeFile(`The file expands to more than ${MAX_TEXT_BYTES / 1024 ** 3} GB of text, more than one upload may have.`);
    if (text) yield text;
  }
  try {
    const rest = decoder.decode();
    if (rest) yield rest;
  } catch {
    throw new BadTradeFile('The file is not UTF-8 text (it ends in the middle of a character). Save it as UTF-8 CSV and upload it again.');
  }
}

/** A decompression failure said as what is wrong with the file. */
function asBadFile(error: unknown): unknown {
  if (error instanceof BadTradeFile) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code.startsWith('Z_')) {
    return new BadTradeFile(`The file is gzip-compressed but cannot be decompressed (${code === 'Z_BUF_ERROR' ? 'it is cut short' : 'it is corrupt'}). Compress it again, or upload it uncompressed.`);
  }
  return error;
}
