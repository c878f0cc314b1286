// A stored trade file read as it streams: its bytes counted and hashed, gunzipped when they are gzip, decoded as
// strict UTF-8 and parsed as CSV, a batch of records at a time. Nothing of the file is held whole.
import { createHash } from 'node:crypto';
import { pipeline, Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { BadTradeFile, csvBatches, startsAsGzip, strictUtf8 } from '../../../validation/tradeCsv.ts';
import { isBlankRecord } from '../../../validation/tradeRows.ts';

// The reading of CSV text is the upload screen's dry run's too: it lives beside the row checks.
export { BadTradeFile, MAX_LINE_BYTES } from '../../../validation/tradeCsv.ts';

/** Most rows a file may have; past it the upload fails rather than being cut short. */
export const MAX_ROWS = 10_000_000;

/** What the log says of an upload whose stored file no longer has the bytes that were checked when it was accepted. */
export const CHANGED_FILE_ERROR =
  'The stored file is not the one that was checked (its content changed after it was accepted). Upload the file again.';

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
export async function* tradeFileBatches(
  source: Readable,
  expected: ExpectedFile,
  count: ReadCount,
): AsyncGenerator<string[][]> {
  const raw = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const first = await raw.next();
  const head: Buffer = first.done ? Buffer.alloc(0) : first.value;
  count.compressed = startsAsGzip(head);
  const bytes = Readable.from(checkedBytes(head, first.done === true, raw, expected, count), { objectMode: false });
  // An error anywhere (the hash at the end, the gzip, the decoding) ends the text, and the iteration with it.
  const text = count.compressed ? pipeline(bytes, createGunzip(), ignore) : bytes;
  let records = 0;
  try {
    for await (const parsed of csvBatches(strictUtf8(text))) {
      const batch = parsed.filter((record) => !isBlankRecord(record));
      records += batch.length;
      if (records > MAX_ROWS + 1)
        throw new BadTradeFile(
          `The file has more than ${MAX_ROWS} rows, the most one upload may have. Split it and upload the parts.`,
        );
      if (batch.length) yield batch;
    }
  } catch (error) {
    throw asBadFile(error);
  } finally {
    source.destroy();
    text.destroy();
  }
}

/** Errors reach the iteration through the last stage, which every stage's error destroys. */
function ignore(): void {}

/** The stored bytes as they come, counted and hashed; the size and the hash are held to the checked ones. */
async function* checkedBytes(
  head: Buffer,
  ended: boolean,
  rest: AsyncIterator<Buffer>,
  expected: ExpectedFile,
  count: ReadCount,
): AsyncGenerator<Buffer> {
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
  if ((expected.size !== null && count.bytesRead !== expected.size) || hash.digest('hex') !== expected.sha256)
    throw new BadTradeFile(CHANGED_FILE_ERROR);
}

/** A decompression failure said as what is wrong with the file. */
function asBadFile(error: unknown): unknown {
  if (error instanceof BadTradeFile) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code.startsWith('Z_')) {
    return new BadTradeFile(
      `The file is gzip-compressed but cannot be decompressed (${code === 'Z_BUF_ERROR' ? 'it is cut short' : 'it is corrupt'}). Compress it again, or upload it uncompressed.`,
    );
  }
  return error;
}
