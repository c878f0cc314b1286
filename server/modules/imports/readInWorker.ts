import { Worker } from 'node:worker_threads';
import { workerCode } from '../../jobs/workerCode.ts';
import { IMPORT_READER_MEMORY_MB, IMPORT_READER_SECONDS, IMPORT_READERS_AT_ONCE } from './importLimits.ts';
import type { FileTable } from './reading/fileTable.ts';
import { FileRefused } from './reading/refusal.ts';
import type { FileToRead } from './reading/worker.ts';

/** What a reading worker may use; the defaults are the import limits, a test may lower them. */
export interface ReaderLimits {
  memoryMb: number;
  seconds: number;
}

const DEFAULT_LIMITS: ReaderLimits = { memoryMb: IMPORT_READER_MEMORY_MB, seconds: IMPORT_READER_SECONDS };

type WorkerAnswer = { table: FileTable } | { refused: string } | { failed: string };

/**
 * Reads a file in a worker thread of its own, with a heap limit and a time limit: a file that would take the memory or
 * the time of the server takes those of its worker, which is then stopped, and every other request goes on meanwhile.
 */
export async function readInWorker(
  kind: FileToRead['kind'],
  data: Uint8Array,
  limits: ReaderLimits = DEFAULT_LIMITS,
): Promise<FileTable> {
  const release = await readerTurn();
  try {
    const code = await workerCode(WORKER);
    // Bytes with memory of their own (an upload's body, fileBody.ts) are handed over, not copied: they are not read
    // again here. Bytes sharing Node's buffer pool are copied first.
    const handed =
      data.buffer.byteLength > Buffer.poolSize && data.buffer instanceof ArrayBuffer ? data : new Uint8Array(data);
    const worker = new Worker(code, {
      eval: true,
      workerData: { kind, data: handed } satisfies FileToRead,
      transferList: [handed.buffer as ArrayBuffer],
      resourceLimits: {
        maxOldGenerationSizeMb: limits.memoryMb,
        maxYoungGenerationSizeMb: Math.min(32, limits.memoryMb),
        stackSizeMb: 4,
      },
    });
    return await new Promise<FileTable>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(
          new FileRefused(
            `Reading this file takes longer than ${limits.seconds} seconds, the most an import may take.`,
          ),
        );
        void worker.terminate();
      }, limits.seconds * 1000);
      const settle = () => clearTimeout(timer);
      worker.once('message', (answer: WorkerAnswer) => {
        settle();
        void worker.terminate();
        if ('table' in answer) resolve(answer.table);
        else if ('refused' in answer) reject(new FileRefused(answer.refused));
        else reject(new Error(`reading an import file failed: ${answer.failed}`));
      });
      worker.once('error', (error: Error & { code?: string }) => {
        settle();
        reject(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new FileRefused(
                `Reading this file needs more than ${limits.memoryMb} MiB of memory, the most an import may use.`,
              )
            : error,
        );
      });
      worker.once('exit', () => {
        settle();
        reject(new Error('the worker reading an import file stopped without an answer'));
      });
    });
  } finally {
    release();
  }
}

let running = 0;
const waiting: Array<() => void> = [];

/** A turn among the readers at work, waiting for one to end when all are busy. */
async function readerTurn(): Promise<() => void> {
  if (running < IMPORT_READERS_AT_ONCE) running += 1;
  else await new Promise<void>((resolve) => waiting.push(resolve));
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  };
}

const WORKER = new URL('./reading/worker.ts', import.meta.url);

/** Bundles the worker's code ahead of the first file (at start-up), so that file waits for none of it. */
export async function prepareFileReader(): Promise<void> {
  await workerCode(WORKER);
}
