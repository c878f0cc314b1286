/** The worker thread that reads one uploaded file (readInWorker.ts starts it, with the file as its data). */
import { parentPort, workerData } from 'node:worker_threads';
import { csvTable } from './csvTable.ts';
import { FileRefused } from './refusal.ts';
import { xlsxTable } from './xlsxTable.ts';

export interface FileToRead {
  kind: 'csv' | 'xlsx';
  data: Uint8Array;
}

async function read({ kind, data }: FileToRead): Promise<void> {
  try {
    const table =
      kind === 'xlsx' ? await xlsxTable(Buffer.from(data.buffer, data.byteOffset, data.byteLength)) : csvTable(data);
    parentPort!.postMessage({ table });
  } catch (error) {
    parentPort!.postMessage(
      error instanceof FileRefused
        ? { refused: error.message }
        : { failed: error instanceof Error ? (error.stack ?? error.message) : String(error) },
    );
  }
}

void read(workerData as FileToRead);
