import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../../db/database.ts';
import type { LoadedRows } from './importRows.ts';
import { storeRejections } from './uploadRejections.ts';
import { uploader } from './audit.ts';
import { setUploadState } from './uploadState.ts';
import { publishUpload, reviewImport } from './review.ts';
import { tellOfReview } from './reviewNotices.ts';
import { ImportCancelled, cancelRequested } from './importProgress.ts';
import { finishJob, type MonthUpload } from './importJob.ts';

/**
 * Ends the import: compares the loaded records with the published month, then publishes them (attaching them and
 * taking out what they replace) or holds them, unattached, for a reviewer. Answers whether it published.
 */
export async function concludeImport(
  app: FastifyInstance,
  tx: Queryable,
  job: MonthUpload,
  { summary, rejections }: LoadedRows,
): Promise<boolean> {
  if (await cancelRequested(tx, job.uploadId)) throw new ImportCancelled();
  await storeRejections(tx, job.uploadId, rejections);
  const counts = { rows_total: summary.total, rows_accepted: summary.accepted, rows_rejected: summary.rejected };
  const review = await reviewImport(tx, job, summary);
  const actor = await uploader(tx, job.userId, null);
  const rows = `${summary.accepted} row(s) accepted, ${summary.rejected} rejected`;
  const notice = { uploadId: job.uploadId, fileName: job.fileName, uploaderId: job.userId };
  if (review.outcome === 'needs_review') {
    await setUploadState(
      app,
      tx,
      job.uploadId,
      { status: 'needs_review', ...counts },
      { actor, action: 'import', details: { status: 'needs_review', ...counts, flagged: review.flagged } },
    );
    const checks = review.checks
      .filter((check) => check.flagged)
      .map((check) => check.label.toLowerCase())
      .join(', ');
    await finishJob(tx, job, null, null);
    await tellOfReview(app, tx, {
      ...notice,
      news: 'needs_review',
      detail: `${checks} beyond the thresholds; ${rows}.`,
      reviewers: true,
    });
    return false;
  }
  const replacing = await publishUpload(app, tx, job, { actor, action: 'import', details: counts }, counts);
  const replacedText = replacing.length ? ` It replaces upload ${replacing.join(', ')}.` : '';
  await finishJob(tx, job, null, null);
  await tellOfReview(app, tx, {
    ...notice,
    news: 'published',
    detail: `${rows}.${replacedText}`,
    reviewers: false,
  });
  return true;
}
