import type { Transaction } from '../../db/database.ts';
import { configuredColumns } from './columns.ts';
import { isMissingFile } from './storage.ts';
import { loadRows, type LoadedRows } from './importRows.ts';
import { ImportCancelled, PROGRESS_INTERVAL_MS, startProgress, writeProgress } from './importProgress.ts';
import { BadTradeFile, CHANGED_FILE_ERROR } from './tradeFile.ts';
import { createUploadTable, indexUploadTable } from './tradePartitions.ts';
import { MISSING_FILE_ERROR } from './importErrors.ts';
import type { ImportServices, MonthUpload } from './importJob.ts';

/** Streams the stored file into the upload's table (created by `loader`), checking it as it goes, and indexes it. */
export async function loadStoredFile(
  { db, storage, log }: Pick<ImportServices, 'db' | 'storage' | 'log'>,
  loader: Transaction,
  job: MonthUpload,
): Promise<LoadedRows> {
  if (await startProgress(db, job.uploadId, job.storedSize)) throw new ImportCancelled();
  const columns = await configuredColumns(loader, job.tradeDirection);
  const table = await createUploadTable(loader, job);
  let source;
  try {
    source = await storage.read(job.storageKey);
  } catch (error) {
    if (isMissingFile(error)) throw new BadTradeFile(MISSING_FILE_ERROR);
    throw error;
  }
  const read = { bytesRead: 0, compressed: false };
  const summary = { total: 0, accepted: 0, rejected: 0 };
  const progress = () => ({
    bytesRead: read.bytesRead,
    rowsRead: summary.total,
    rowsAccepted: summary.accepted,
    rowsRejected: summary.rejected,
  });
  // On a timer, not with the rows: a storage that stalls shows as progress that stands still, and a cancel still
  // stops it (the file's stream ends with the cancel, and the import with it).
  const ticker = setInterval(() => {
    writeProgress(db, job.uploadId, progress())
      .then((cancelled) => {
        if (cancelled) source.destroy(new ImportCancelled());
      })
      .catch((error: unknown) => log.warn({ err: error, upload: job.uploadId }, 'writing import progress failed'));
  }, PROGRESS_INTERVAL_MS);
  try {
    const loaded = await loadRows(
      loader,
      table,
      source,
      { columns, expected: { sha256: job.storedSha256!, size: job.storedSize } },
      read,
      summary,
    );
    await indexUploadTable(loader, job.uploadId);
    if (await writeProgress(db, job.uploadId, progress())) throw new ImportCancelled();
    return loaded;
  } catch (error) {
    if (error instanceof BadTradeFile && error.message === CHANGED_FILE_ERROR) {
      log.warn(
        { upload: job.uploadId, key: job.storageKey, checked: job.storedSha256 },
        'stored upload file changed after it was checked; not imported',
      );
    }
    throw error;
  } finally {
    clearInterval(ticker);
    source.destroy();
  }
}
