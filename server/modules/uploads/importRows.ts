// A stored trade file's rows, checked against the data columns as they stream (in a worker thread: tradeRowsWorker.ts)
// and loaded with COPY into the table of their upload; rows that fail a check are kept as rejections.
import type { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import type { Transaction } from '../../db/database.ts';
import { workerCode } from '../../jobs/workerCode.ts';
import { BadTradeFile, type ReadCount } from './tradeFile.ts';
import { loadedColumns } from './tradePartitions.ts';
import { hasExtraColumns, type ImportSummary, type Rejection } from './tradeRows.ts';
import type { FromTradeRowsWorker, ToTradeRowsWorker, TradeRowsTask } from './tradeRowsWorker.ts';

export type { ImportSummary, Rejection };

const WORKER = new URL('./tradeRowsWorker.ts', import.meta.url);
/**
 * Pieces of COPY text (256 KB each) the worker may have handed on before they are loaded: enough to fill PGlite's next
 * 8 MB COPY while the last one runs, so parsing and loading overlap.
 */
const PIECES_AHEAD = 40;
/** A worker's heap: rows are a few hundred bytes and a line at most 1 MB, so a file that needs more is hostile. */
const WORKER_MEMORY_MB = 256;

/** Bundles the worker's code ahead of the first import (at start-up), so that import waits for none of it. */
export async function prepareTradeFileReader(): Promise<void> {
  await workerCode(WORKER);
}

export interface LoadedRows {
  summary: ImportSummary;
  /** The first rejections (line, reason, the row as it was), as many as are kept. */
  rejections: Rejection[];
}

/**
 * Loads every accepted row of the stored file `source` into `table` with one COPY, counting them in `summary` as it goes
 * (the progress others read) and the bytes taken from `source` in `read`. A header that does not match the columns fails
 * the upload before any row is loaded; so does a file that is not the one checked (its hash or size), in the end.
 */
export async function loadRows(
  loader: Transaction,
  table: string,
  source: Readable,
  task: TradeRowsTask,
  read: ReadCount,
  summary: ImportSummary,
): Promise<LoadedRows> {
  const rejections: Rejection[] = [];
  await loader.copyFrom(
    `${table} (${loadedColumns(hasExtraColumns(task.columns))})`,
    copyTextInWorker(source, task, read, summary, rejections),
  );
  return { summary, rejections };
}

/** The COPY text of `source`, made by a worker thread that is sent the bytes as it asks for them. */
async function* copyTextInWorker(
  source: Readable,
  task: TradeRowsTask,
  read: ReadCount,
  summary: ImportSummary,
  rejections: Rejection[],
): AsyncGenerator<string> {
  const worker = new Worker(await workerCode(WORKER), {
    eval: true,
    workerData: task,
    resourceLimits: { maxOldGenerationSizeMb: WORKER_MEMORY_MB, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
  });
  const send = (message: ToTradeRowsWorker, transfer: ArrayBuffer[] = []) => worker.postMessage(message, transfer);
  const inbox = new Inbox<Exclude<FromTradeRowsWorker, { kind: 'pull' }>>();
  const bytes = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  // The source's error (a cancel destroys it) ends the import even while the worker is not asking for bytes.
  const onSourceError = (error: Error) => inbox.fail(error);
  source.once('error', onSourceError);
  const feed = async () => {
    try {
      const next = await bytes.next();
      if (next.done) return send({ kind: 'end' });
      read.bytesRead += next.value.length;
      // A copy of its own, handed over: a chunk may share its memory with others (Node's buffer pool).
      const chunk = new Uint8Array(next.value);
      send({ kind: 'bytes', chunk }, [chunk.buffer]);
    } catch (error) {
      inbox.fail(error);
    }
  };
  worker.on('message', (message: FromTradeRowsWorker) => (message.kind === 'pull' ? void feed() : inbox.put(message)));
  worker.once('error', (error: Error & { code?: string }) => {
    inbox.fail(
      error.code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? new BadTradeFile(
            `Reading this file needs more than ${WORKER_MEMORY_MB} MiB of memory, which no trade file does.`,
          )
        : error,
    );
  });
  worker.once('exit', () => inbox.fail(new Error('the worker reading the trade file stopped before its end')));
  try {
    for (let ahead = 0; ahead < PIECES_AHEAD; ahead += 1) send({ kind: 'more' });
    for (;;) {
      const message = await inbox.take();
      if (message.kind === 'failed')
        throw message.badFile ? new BadTradeFile(message.message) : new Error(message.message);
      Object.assign(summary, message.summary);
      if (message.kind === 'done') {
        rejections.push(...message.rejections);
        return;
      }
      yield message.text;
      send({ kind: 'more' });
    }
  } finally {
    source.off('error', onSourceError);
    source.destroy();
    await worker.terminate();
  }
}

/** Messages waiting to be taken in order; a failure is taken after the messages that came before it. */
class Inbox<T> {
  private readonly messages: T[] = [];
  private failure: { error: unknown } | null = null;
  private waiter: (() => void) | null = null;

  put(message: T): void {
    this.messages.push(message);
    this.wake();
  }

  fail(error: unknown): void {
    this.failure ??= { error };
    this.wake();
  }

  async take(): Promise<T> {
    for (;;) {
      const message = this.messages.shift();
      if (message !== undefined) return message;
      if (this.failure) throw this.failure.error;
      await new Promise<void>((resolve) => (this.waiter = resolve));
    }
  }

  private wake(): void {
    this.waiter?.();
    this.waiter = null;
  }
}
