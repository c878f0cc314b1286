/**
 * The worker thread that turns a stored trade file's bytes into COPY text (tradeRowsInWorker.ts starts it): hashing,
 * gunzip, UTF-8, CSV and the row checks run here, beside the thread that loads the text into the database, so that
 * parsing and loading overlap and the server's event loop does neither. It asks for the file's bytes a chunk at a time
 * and hands on COPY text only as far as it has been asked for, so neither side holds more than a few pieces.
 */
import { Readable } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import { copyText, type ImportSummary, type Rejection } from './tradeRows.ts';
import { BadTradeFile, tradeFileBatches, type ExpectedFile } from './tradeFile.ts';
import type { TradeColumn } from './tradeColumns.ts';

export interface TradeRowsTask {
  columns: TradeColumn[];
  expected: ExpectedFile;
}

/** What the loading thread sends: a chunk of the file, its end, or leave to hand on one more piece. */
export type ToTradeRowsWorker = { kind: 'bytes'; chunk: Uint8Array } | { kind: 'end' } | { kind: 'more' };

/** What the worker sends: a request for bytes, a piece of COPY text, the end, or why it failed. */
export type FromTradeRowsWorker =
  | { kind: 'pull' }
  | { kind: 'piece'; text: string; summary: ImportSummary }
  | { kind: 'done'; summary: ImportSummary; rejections: Rejection[] }
  | { kind: 'failed'; badFile: boolean; message: string };

const port = parentPort!;
const send = (message: FromTradeRowsWorker) => port.postMessage(message);

let credit = 0;
let creditWaiter: (() => void) | null = null;
let bytesWaiter: ((chunk: Uint8Array | null) => void) | null = null;

port.on('message', (message: ToTradeRowsWorker) => {
  if (message.kind === 'more') {
    credit += 1;
    creditWaiter?.();
    creditWaiter = null;
  } else {
    bytesWaiter?.(message.kind === 'bytes' ? message.chunk : null);
    bytesWaiter = null;
  }
});

/** The file's bytes, each chunk asked for when the parser wants it. */
async function* fileBytes(): AsyncGenerator<Buffer> {
  for (;;) {
    const chunk = await new Promise<Uint8Array | null>((resolve) => {
      bytesWaiter = resolve;
      send({ kind: 'pull' });
    });
    if (chunk === null) return;
    yield Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  }
}

async function run({ columns, expected }: TradeRowsTask): Promise<void> {
  const summary: ImportSummary = { total: 0, accepted: 0, rejected: 0 };
  const rejections: Rejection[] = [];
  try {
    const records = tradeFileBatches(Readable.from(fileBytes(), { objectMode: false }), expected, {
      bytesRead: 0,
      compressed: false,
    });
    for await (const text of copyText(records, columns, summary, rejections)) {
      if (credit === 0) await new Promise<void>((resolve) => (creditWaiter = resolve));
      credit -= 1;
      send({ kind: 'piece', text, summary });
    }
    send({ kind: 'done', summary, rejections });
  } catch (error) {
    send({
      kind: 'failed',
      badFile: error instanceof BadTradeFile,
      message: error instanceof Error ? error.message : String(error),
    });
  }
}

void run(workerData as TradeRowsTask);
