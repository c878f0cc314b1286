// The gate between an import and what customers read (docs/api.md, "Review before publishing"): an imported upload is
// compared with the last published month of its country and trade direction, then published (its table attached to
// its month, what it replaces taken out) or held with its table unattached until a reviewer publishes or rejects it.
import type { FastifyInstance } from 'fastify';
import type { ComparedUpload, UploadProfile, UploadReview } from '../../../contract/uploadReview.ts';
import type { DOMAIN_EVENTS } from '../../../contract/webhooks.ts';
import type { Queryable } from '../../db/database.ts';
import { MODULE, entityResource } from '../../registry.ts';
import { quoted } from '../../../codegen/sqlNames.ts';
import { compareProfiles } from './comparison.ts';
import { publishedUploads } from './duplicates.ts';
import { reviewThresholds } from './reviewSettings.ts';
import { publishUploadTable, removeUploadRecords } from './tradePartitions.ts';
import { uploadProfile } from './uploadProfile.ts';
import { replacesPublished } from './uploadFiles.ts';
import { setUploadState, type UploadStateEntry } from './uploadState.ts';

/** The webhook event of a month's data published (contract/webhooks.ts DOMAIN_EVENTS). */
const PUBLISHED_EVENT: keyof typeof DOMAIN_EVENTS = 'uploads.published';

/** The upload being reviewed: what the comparison and the publication need of it. */
export interface ReviewedUpload {
  uploadId: number;
  countryId: number | null;
  tradeDirection: string;
  period: string;
}

interface PublishedMonth extends ComparedUpload {
  rows_total: number | null;
  rows_rejected: number | null;
}

function uploadsTable(): string {
  const uploads = entityResource(MODULE.dataUploadLogs);
  if (!uploads) throw new Error('The manifest has no uploads resource.');
  return quoted(uploads.entity.table);
}

/**
 * The published upload an upload is compared with: of its country and trade direction, the latest of its month or
 * before; failing that, the earliest after it (a month uploaded late is compared with its neighbour).
 */
export async function comparedUpload(db: Queryable, upload: ReviewedUpload): Promise<PublishedMonth | null> {
  const [found] = await db.query<PublishedMonth & Record<string, unknown>>(
    `SELECT id AS upload_id, period, file_name, rows_total, rows_rejected FROM ${uploadsTable()}
      WHERE id <> $1 AND country_id IS NOT DISTINCT FROM $2 AND trade_direction = $3 AND status = 'published'
      ORDER BY period > $4, CASE WHEN period <= $4 THEN period END DESC, period, id DESC LIMIT 1`,
    [upload.uploadId, upload.countryId, upload.tradeDirection, upload.period],
  );
  return found ? { ...found, upload_id: Number(found.upload_id) } : null;
}

/** A published upload's figures: stored when it was imported, or computed for one imported before they were. */
async function profileOf(db: Queryable, published: PublishedMonth): Promise<UploadProfile> {
  const [stored] = await db.query<{ profile: UploadProfile | string | null }>(
    "SELECT review->'profile' AS profile FROM upload_files WHERE upload_id = $1",
    [published.upload_id],
  );
  if (stored?.profile)
    return typeof stored.profile === 'string' ? (JSON.parse(stored.profile) as UploadProfile) : stored.profile;
  return uploadProfile(db, {
    uploadId: published.upload_id,
    period: published.period,
    rowsTotal: Number(published.rows_total ?? 0),
    rowsRejected: Number(published.rows_rejected ?? 0),
  });
}

/** Compares an imported upload's rows with the published month and stores the comparison with the upload. */
export async function reviewImport(
  tx: Queryable,
  upload: ReviewedUpload,
  counts: { total: number; rejected: number },
): Promise<UploadReview> {
  const started = performance.now();
  const thresholds = await reviewThresholds(tx);
  const profile = await uploadProfile(tx, {
    uploadId: upload.uploadId,
    period: upload.period,
    rowsTotal: counts.total,
    rowsRejected: counts.rejected,
  });
  const compared = await comparedUpload(tx, upload);
  const previous = compared ? await profileOf(tx, compared) : null;
  const review = compareProfiles(
    profile,
    previous,
    thresholds,
    compared && { upload_id: compared.upload_id, period: compared.period, file_name: compared.file_name },
  );
  review.computed_in_ms = Math.round(performance.now() - started);
  await tx.query('UPDATE upload_files SET review = $2::jsonb WHERE upload_id = $1', [
    upload.uploadId,
    JSON.stringify(review),
  ]);
  return review;
}

/**
 * Publishes an imported upload in the caller's transaction: attaches its table to its month and, when its uploader
 * confirmed that it replaces the published uploads of its country, direction and period, takes those out (they become
 * `replaced`) at this moment, not before. Answers the replaced uploads' ids.
 */
export async function publishUpload(
  app: FastifyInstance,
  tx: Queryable,
  upload: ReviewedUpload,
  entry: UploadStateEntry,
  values: Record<string, unknown> = {},
): Promise<number[]> {
  const replacing = (await replacesPublished(tx, upload.uploadId))
    ? (await publishedUploads(tx, upload)).map((published) => published.id)
    : [];
  await publishUploadTable(tx, upload, replacing);
  for (const replaced of replacing) {
    await setUploadState(
      app,
      tx,
      replaced,
      { status: 'replaced' },
      { actor: entry.actor, action: entry.action, details: { status: 'replaced', replaced_by: upload.uploadId } },
    );
  }
  const details = { ...entry.details, status: 'published', ...(replacing.length ? { replaced: replacing } : {}) };
  await setUploadState(app, tx, upload.uploadId, { status: 'published', ...values }, { ...entry, details });
  await app.records.named(MODULE.dataUploadLogs).events.publishNamed(tx, PUBLISHED_EVENT, [upload.uploadId]);
  return replacing;
}

/** Rejects an upload held for review: its records go (its table is dropped), its status becomes `rejected`. */
export async function rejectUpload(
  app: FastifyInstance,
  tx: Queryable,
  uploadId: number,
  entry: UploadStateEntry,
): Promise<void> {
  await removeUploadRecords(tx, uploadId);
  await setUploadState(
    app,
    tx,
    uploadId,
    { status: 'rejected' },
    { ...entry, details: { ...entry.details, status: 'rejected' } },
  );
}

/** An upload's stored comparison and the reason its reviewer gave; undefined when it has no file row. */
export async function storedReview(
  db: Queryable,
  uploadId: number,
): Promise<{ review: UploadReview | null; reason: string | null } | undefined> {
  const [file] = await db.query<{ review: UploadReview | string | null; review_reason: string | null }>(
    'SELECT review, review_reason FROM upload_files WHERE upload_id = $1',
    [uploadId],
  );
  if (!file) return undefined;
  const review = typeof file.review === 'string' ? (JSON.parse(file.review) as UploadReview) : file.review;
  return { review, reason: file.review_reason };
}

/** Keeps why a reviewer published or rejected an upload, with its file. */
export async function keepReviewReason(tx: Queryable, uploadId: number, reason: string): Promise<void> {
  await tx.query('UPDATE upload_files SET review_reason = $2 WHERE upload_id = $1', [uploadId, reason]);
}

/** An upload a reviewer publishes or rejects: what the decision and its notice need. */
export interface DecidedUpload extends ReviewedUpload {
  status: string;
  fileName: string;
  uploaderId: number | null;
}

/** Locks an upload's record until the reviewer's decision commits, and answers it; undefined when there is none. */
export async function lockForDecision(tx: Queryable, uploadId: number): Promise<DecidedUpload | undefined> {
  const [held] = await tx.query<{
    status: string;
    country_id: number | null;
    trade_direction: string;
    period: string;
    file_name: string;
    user_id: number | null;
  }>(
    `SELECT t.status, t.country_id, t.trade_direction, t.period, t.file_name, f.user_id
       FROM ${uploadsTable()} t LEFT JOIN upload_files f ON f.upload_id = t.id WHERE t.id = $1 FOR UPDATE OF t`,
    [uploadId],
  );
  if (!held) return undefined;
  return {
    uploadId,
    status: held.status,
    countryId: held.country_id,
    tradeDirection: held.trade_direction,
    period: held.period,
    fileName: held.file_name,
    uploaderId: held.user_id === null ? null : Number(held.user_id),
  };
}
