import { escapeHtml } from '../../http/html.ts';
import { uploader } from './audit.ts';
import { setUploadState } from './uploadState.ts';
import { ImportCancelled } from './importProgress.ts';
import { BadTradeFile } from './tradeFile.ts';
import { CANCELLED_ERROR, GAVE_UP_ERROR, MAX_IMPORT_ATTEMPTS } from './importErrors.ts';
import { finishJob, type ImportServices, type UploadJob } from './importJob.ts';

/** Ends an import that did not publish: cancelled, failed for its file, or left waiting to be taken up again. */
export async function endUnpublishedImport(
  { app, db, log }: Pick<ImportServices, 'app' | 'db' | 'log'>,
  job: UploadJob,
  attempt: number,
  error: unknown,
): Promise<void> {
  const uploadId = job.uploadId;
  const reason = error instanceof Error ? error.message : String(error);
  const cancelled = error instanceof ImportCancelled;
  const final = cancelled || error instanceof BadTradeFile || attempt >= MAX_IMPORT_ATTEMPTS;
  if (!final) {
    // The database or the storage failed, not the file: nothing of the import stays, and it is taken up again.
    log.warn(
      { err: error, upload: uploadId, attempt },
      `upload processing stopped (${reason}); it will be taken up again`,
    );
    return;
  }
  const shown = cancelled ? CANCELLED_ERROR : error instanceof BadTradeFile ? reason : GAVE_UP_ERROR;
  if (cancelled) log.info({ upload: uploadId }, 'upload import cancelled');
  else log.error({ err: error, upload: uploadId, attempt }, `upload processing failed: ${reason}`);
  await db.transaction(async (tx) => {
    const [open] = await tx.query(
      'SELECT upload_id FROM upload_files WHERE upload_id = $1 AND processed_at IS NULL FOR UPDATE SKIP LOCKED',
      [uploadId],
    );
    if (!open) return;
    const status = cancelled ? 'cancelled' : 'failed';
    await setUploadState(
      app,
      tx,
      uploadId,
      { status },
      { actor: await uploader(tx, job.userId, null), action: 'import', details: { status, error: shown } },
    );
    await finishJob(
      tx,
      job,
      shown,
      cancelled
        ? `Upload <b>${escapeHtml(job.fileName)}</b> was cancelled.`
        : `Upload <b>${escapeHtml(job.fileName)}</b> failed. Please check the file and upload it again.`,
    );
  });
}
