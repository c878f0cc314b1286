import type { Queryable } from '../../db/database.ts';
import { HttpError } from '../../http/errors.ts';
import { MODULE, entityResource, type EntityResource } from '../../registry.ts';
import { quoted } from '../../../codegen/sqlNames.ts';
import { markReplacesPublished, replacesPublished } from './uploadFiles.ts';

interface EarlierUpload extends Record<string, unknown> {
  id: number;
  stored_at: string;
  uploaded_by: string | null;
}

/** What the uploader answered to the questions completing an upload may ask. */
export interface CompletionAnswers {
  /** Import bytes already uploaded for the same country, direction and period (adding to what is published). */
  confirmDuplicate: boolean;
  /** Add this file's rows to the month already published. */
  addToPublished: boolean;
  /** Replace what is published for the month with this upload. */
  replacePublished: boolean;
}

/**
 * Claims a checked file for its upload (stored_at, size, SHA-256), inside `tx`, unless a question must be answered
 * first: the same bytes already accepted for the same country, trade direction and period by an upload that did not
 * fail (`confirm_duplicate`), or records already published for them (`confirm_published`: add to them or replace them).
 * Then a 409 asks it (both keys when both apply) and nothing is claimed, so the same upload can be completed again with
 * the answer. One lock per hash makes two uploads of the same file decide one after the other; an upload confirmed to
 * replace the published one (here or by POST uploads/:id/replace) is not asked. Returns false when the upload was
 * already claimed.
 */
export async function claimCheckedFile(
  tx: Queryable,
  uploads: EntityResource,
  upload: Record<string, unknown>,
  file: { sha256: string; size: number; storageKey?: string },
  answers: CompletionAnswers,
): Promise<boolean> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [file.sha256]);
  if (answers.replacePublished) await markReplacesPublished(tx, Number(upload.id));
  if (!(await replacesPublished(tx, Number(upload.id)))) {
    const questions: Record<string, string> = {};
    const [earlier] = answers.confirmDuplicate
      ? []
      : await tx.query<EarlierUpload>(
          `SELECT d.id, f.stored_at, nullif(trim(concat_ws(' ', u.first_name, u.last_name)), '') AS uploaded_by
         FROM ${quoted(uploads.entity.table)} d
         JOIN upload_files f ON f.upload_id = d.id
         LEFT JOIN users u ON u.id = f.user_id
        WHERE d.id <> $1 AND d.country_id = $2 AND d.trade_direction = $3 AND d.period = $4
          AND f.stored_sha256 = $5 AND d.status <> 'failed'
        ORDER BY f.stored_at LIMIT 1`,
          [upload.id, upload.country_id, upload.trade_direction, upload.period, file.sha256],
        );
    if (earlier) questions.confirm_duplicate = duplicateQuestion(earlier);
    if (!answers.confirmDuplicate && !answers.addToPublished) {
      const published = await publishedSummary(tx, upload);
      if (published) questions.confirm_published = published;
    }
    const first = questions.confirm_duplicate ?? questions.confirm_published;
    if (first) throw new HttpError(409, first, questions);
  }
  const claimed = await tx.query(
    `UPDATE upload_files SET stored_at = now(), storage_key = coalesce($2, storage_key), stored_size = $3, stored_sha256 = $4
      WHERE upload_id = $1 AND stored_at IS NULL AND processed_at IS NULL RETURNING upload_id`,
    [upload.id, file.storageKey ?? null, file.size, file.sha256],
  );
  return claimed.length > 0;
}

function duplicateQuestion(earlier: EarlierUpload): string {
  const when = new Date(earlier.stored_at).toISOString().slice(0, 16).replace('T', ' ');
  return `The same file was already uploaded for this country, trade direction and period on ${when} UTC by ${earlier.uploaded_by ?? 'a user no longer listed'} (upload ${earlier.id}).`;
}

/** What is published for the upload's country, trade direction and period, said for the question; null when nothing is. */
async function publishedSummary(tx: Queryable, upload: Record<string, unknown>): Promise<string | null> {
  const published = await publishedUploads(tx, {
    uploadId: Number(upload.id),
    countryId: (upload.country_id as number | null) ?? null,
    tradeDirection: String(upload.trade_direction),
    period: (upload.period as string | null) ?? null,
  });
  if (!published.length) return null;
  const named = published
    .map((row) => `upload ${row.id} (${row.file_name}, ${(row.rows_accepted ?? 0).toLocaleString('en')} rows)`)
    .join(', ');
  return `Records of this country, trade direction and period are already published: ${named}. Replace them with this file, or add this file's rows to them.`;
}

export interface PublishedUpload {
  id: number;
  file_name: string;
  rows_accepted: number | null;
}

/** The published uploads of an upload's country, trade direction and period other than it: what it replaces. */
export async function publishedUploads(
  tx: Queryable,
  upload: { uploadId: number; countryId: number | null; tradeDirection: string; period: string | null },
): Promise<PublishedUpload[]> {
  const uploads = entityResource(MODULE.dataUploadLogs);
  if (!uploads) return [];
  return tx.query<PublishedUpload & Record<string, unknown>>(
    `SELECT id, file_name, rows_accepted FROM ${quoted(uploads.entity.table)}
      WHERE id <> $1 AND country_id IS NOT DISTINCT FROM $2 AND trade_direction = $3 AND period = $4 AND status = 'published' ORDER BY id`,
    [upload.uploadId, upload.countryId, upload.tradeDirection, upload.period],
  );
}
