// The dry run of a chosen trade file, before anything is sent: its header and first rows read in the browser (through
// DecompressionStream for gzip, stopping once they are read) and held to the rules the server's import holds every
// row to (validation/tradeRows.ts), with its reading (validation/tradeCsv.ts). Loaded when a file is chosen.
import {
  BadTradeFile,
  NOT_CSV,
  NOT_GZIP,
  TEXT_SNIFF_BYTES,
  csvBatches,
  isGzipName,
  startsAsGzip,
  strictUtf8,
} from '../../../../validation/tradeCsv.ts';
import {
  checkHeader,
  headerNames,
  headerProblem,
  isBlankRecord,
  rowCheck,
  type HeaderCheck,
  type TradeColumn,
} from '../../../../validation/tradeRows.ts';

/** How many rows after the header the dry run reads. */
export const DRY_RUN_ROWS = 1000;
/** How many rejected rows it lists (it counts them all). */
const LISTED_REJECTIONS = 20;
/** The most text it reads, whatever the rows' length: rows cut there are left out. */
const MAX_TEXT_CHARS = 8 * 1024 * 1024;
/** The file is read a slice of this many bytes at a time, each only when the parser asks for more. */
const SLICE_BYTES = 64 * 1024;

/** The beginning of a file as the import would read it. */
export interface FirstRows {
  /** The header's names, or null when the file could not be read that far. */
  header: string[] | null;
  /** Up to DRY_RUN_ROWS records after the header, blank ones left out as the import leaves them out. */
  rows: string[][];
  /** Whether the file was read to its end (it has no more rows than these). */
  whole: boolean;
  /** How many bytes of the file were read. */
  bytesRead: number;
  /** Why the file cannot be imported whatever its rows say, in the server's words; null when nothing is wrong. */
  problem: string | null;
}

interface Rejected {
  line: number;
  reason: string;
}

/** What the import would say of the first rows. */
export interface DryRun {
  problem: string | null;
  header: HeaderCheck | null;
  headerProblem: string | null;
  checked: number;
  accepted: number;
  rejected: number;
  /** The first LISTED_REJECTIONS rejected rows, with their line in the file (the header is line 1). */
  rejections: Rejected[];
  whole: boolean;
  /** Whether the file may be sent: it can be read and its header matches (rejected rows are a warning only). */
  sendable: boolean;
}

/** Reads the header and the first DRY_RUN_ROWS rows of a file, and no more of it than they take. */
export async function readFirstRows(file: Blob & { name: string }): Promise<FirstRows> {
  const read = { bytes: 0 };
  const result = (
    problem: string | null,
    header: string[] | null = null,
    rows: string[][] = [],
    whole = false,
  ): FirstRows => ({ header, rows, whole, bytesRead: read.bytes, problem });
  if (file.size === 0) return result('The file is empty.');
  const gzip = startsAsGzip(new Uint8Array(await file.slice(0, 2).arrayBuffer()));
  if (isGzipName(file.name) && !gzip) return result(NOT_GZIP);
  if (!isGzipName(file.name) && gzip)
    return result('The file is compressed with gzip but its name ends in .csv: name it .csv.gz.');

  const bytes = fileSlices(file, read);
  let header: string[] | null = null;
  const rows: string[][] = [];
  let chars = 0;
  let start = '';
  /** The text as it comes, counted; a NUL character near its start is no text, as the server's arrival check says. */
  const counted = async function* (text: AsyncIterable<string>) {
    for await (const piece of text) {
      if (start.length < TEXT_SNIFF_BYTES) {
        start += piece.slice(0, TEXT_SNIFF_BYTES - start.length);
        if (start.includes('\u0000')) throw new BadTradeFile(NOT_CSV);
      }
      chars += piece.length;
      yield piece;
    }
  };
  try {
    for await (const batch of csvBatches(counted(strictUtf8(gzip ? gunzipped(bytes) : bytes)))) {
      for (const record of batch) {
        if (isBlankRecord(record)) continue;
        if (header === null) header = headerNames(record);
        else rows.push(record);
        if (rows.length === DRY_RUN_ROWS) return result(null, header, rows);
      }
      if (chars > MAX_TEXT_CHARS) return result(null, header, rows);
    }
  } catch (error) {
    if (error instanceof BadTradeFile) return result(error.message, header, rows);
    if (gzip)
      return result(
        'The file is gzip-compressed but cannot be decompressed (it is cut short or corrupt). Compress it again, or upload it uncompressed.',
        header,
        rows,
      );
    throw error;
  }
  return header === null
    ? result('The file is empty: it has no header row.', null, [], true)
    : result(null, header, rows, true);
}

/** What the import would say of these rows against the columns of the chosen trade direction. */
export function dryRun(first: FirstRows, columns: readonly TradeColumn[]): DryRun {
  const header = first.header && checkHeader(first.header, columns);
  const problemOfHeader = first.header && headerProblem(first.header, columns);
  const rejections: Rejected[] = [];
  let rejected = 0;
  if (first.header && !problemOfHeader) {
    const problemOf = rowCheck(first.header, columns);
    first.rows.forEach((fields, index) => {
      const reason = problemOf(fields);
      if (!reason) return;
      rejected += 1;
      if (rejections.length < LISTED_REJECTIONS) rejections.push({ line: index + 2, reason });
    });
  }
  const checked = problemOfHeader ? 0 : first.rows.length;
  return {
    problem: first.problem,
    header,
    headerProblem: problemOfHeader,
    checked,
    accepted: checked - rejected,
    rejected,
    rejections,
    whole: first.whole,
    sendable: first.problem === null && first.header !== null && problemOfHeader === null,
  };
}

/** The file's bytes, a slice at a time, each read only when asked for: a reader that stops stops the reading. */
async function* fileSlices(file: Blob, read: { bytes: number }): AsyncGenerator<Uint8Array> {
  for (let offset = 0; offset < file.size; offset += SLICE_BYTES) {
    const slice = new Uint8Array(await file.slice(offset, offset + SLICE_BYTES).arrayBuffer());
    read.bytes += slice.length;
    yield slice;
  }
}

/** Gzip bytes decompressed by the browser as they are asked for. */
async function* gunzipped(bytes: AsyncIterator<Uint8Array> & AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const compressed = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await bytes.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
  });
  const reader = compressed
    .pipeThrough(new DecompressionStream('gzip') as ReadableWritablePair<Uint8Array, Uint8Array>)
    .getReader();
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) return;
      yield next.value;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
    await bytes.return?.();
  }
}
