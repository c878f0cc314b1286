import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { BadTradeFile, MAX_LINE_BYTES, tradeFileBatches } from './tradeFile.ts';

/** The records of a file whose bytes arrive in pieces of `pieceSize`, as the stored file's stream hands them on. */
async function records(file: Buffer, pieceSize = 7): Promise<string[][]> {
  const pieces = Array.from({ length: Math.ceil(file.length / pieceSize) }, (_, index) =>
    file.subarray(index * pieceSize, (index + 1) * pieceSize),
  );
  const expected = { sha256: createHash('sha256').update(file).digest('hex'), size: file.length };
  const all: string[][] = [];
  for await (const batch of tradeFileBatches(Readable.from(pieces), expected, { bytesRead: 0, compressed: false }))
    all.push(...batch);
  return all;
}

async function failure(file: Buffer, pieceSize = 64 * 1024): Promise<string> {
  const error: unknown = await records(file, pieceSize).then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(BadTradeFile);
  return (error as Error).message;
}

describe('a trade file read as CSV as its bytes stream', () => {
  const file = [
    'shipment_date,hs_code,product_description',
    '2026-09-01,0904,"Pepper, black"',
    '2026-09-02,0910,"Ginger ""dry"""',
    '2026-09-03,1006,12" pipe',
  ].join('\n');
  const expected = [
    ['shipment_date', 'hs_code', 'product_description'],
    ['2026-09-01', '0904', 'Pepper, black'],
    ['2026-09-02', '0910', 'Ginger "dry"'],
    ['2026-09-03', '1006', '12" pipe'],
  ];

  it.each([1, 2, 3, 5, 7, 64])(
    'reads quoted fields (commas, doubled quotes) and a quote inside a field as text, whatever pieces the bytes come in (%i bytes)',
    async (pieceSize) => {
      expect(await records(Buffer.from(file), pieceSize)).toEqual(expected);
    },
  );

  it('reads CR LF line breaks, a byte order mark and a line break inside a quoted field; skips empty lines', async () => {
    const windows = `\uFEFF${file.replace(/\n/g, '\r\n')}\r\n\r\n2026-09-04,0904,"two\r\nlines"\r\n`;
    expect(await records(Buffer.from(windows), 5)).toEqual([...expected, ['2026-09-04', '0904', 'two\r\nlines']]);
  });

  it('reads a gzip file by its bytes, in pieces', async () => {
    expect(await records(gzipSync(file), 11)).toEqual(expected);
  });

  it('a quote never closed fails with its line, at the end of a small file or once the open field passes the longest line', async () => {
    expect(await failure(Buffer.from(`${file}\n2026-09-04,0910,"Turmeric,5\n2026-09-05,0910,Ginger\n`), 9)).toBe(
      'The file has a quote that is never closed (opened on line 5), so its rows cannot be told apart.',
    );
    const rows = Array.from({ length: 40_000 }, (_, index) => `2026-09-05,0910,Ginger ${index}`).join('\n');
    expect(await failure(Buffer.from(`${file}\n2026-09-04,0910,"Turmeric\n${rows}\n`))).toMatch(
      /^The file has a quote that is never closed \(opened on line 5, still open \d+ lines and 1 MB later\)/,
    );
  });

  it.each([
    ['ends in the piece that takes it past the limit', 10, 64 * 1024],
    ['runs on for many pieces', 10 * 1024 * 1024, 64 * 1024],
    ['comes in one piece larger than the limit', 10, 4 * 1024 * 1024],
  ])('a line longer than a row may be fails with its line, whether it %s', async (_case, over, pieceSize) => {
    const long = Buffer.from(`${file}\n2026-09-04,0910,${'x'.repeat(MAX_LINE_BYTES + over)}\n2026-09-05,0910,Ginger\n`);
    expect(await failure(long, pieceSize)).toBe(
      `Line 5 of the file is longer than ${MAX_LINE_BYTES / 1024 / 1024} MB, which no trade row is.`,
    );
  });

  it('reads a file whose lines end in CR alone', async () => {
    expect(await records(Buffer.from(file.replace(/\n/g, '\r')), 4)).toEqual(expected);
  });
});
