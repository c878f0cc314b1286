import type { Queryable } from '../../db/database.ts';
import { HttpError } from '../../http/errors.ts';
import { quoted, type EntityResource } from '../../registry.ts';

interface EarlierUpload extends Record<string, unknown> {
  id: number;
  stored_at: string;
  uploaded_by: string | null;
}

/**
 * Claims a checked file for its upload (stored_at, size, SHA-256), inside `tx`, unless the same bytes were already
 * accepted for the same country, trade direction and period by an upload that did not fail: then, unless the
 * request confirmed it (`confirm_duplicate`), a 409 names the earlier upload and nothing is claimed, so the same
 * upload can be completed again once the user confirms. One lock per hash makes two uploads of the same file decide
 * one after the other. Returns false when the upload was already claimed.
 */
export async function claimCheckedFile(
  tx: Queryable,
  uploads: EntityResource,
  upload: Record<string, unknown>,
  file: { sha256: string; size: number; storageKey?: string },
  confirmed: boolean,
): Promise<boolean> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [file.sha256]);
  if (!confirmed) {
    const [earlier] = await tx.query<EarlierUpload>(
      `SELECT d.id, f.stored_at, nullif(trim(concat_ws(' ', u.first_name, u.last_name)), '') AS uploaded_by
         FROM ${quoted(uploads.entity.table)} d
         JOIN upload_files f ON f.upload_id = d.id
         LEFT JOIN users u ON u.id = f.user_id
        WHERE d.id <> $1 AND d.country_id = $2 AND d.trade_direction = $3 AND d.period = $4
          AND f.stored_sha256 = $5 AND d.status <> 'failed'
        ORDER BY f.stored_at LIMIT 1`,
      [upload.id, upload.country_id, upload.trade_direction, upload.period, file.sha256],
    );
    if (earlier) throw duplicateOf(earlier);
  }
  const claimed = await tx.query(
    `UPDATE upload_files SET stored_at = now(), storage_key = coalesce($2, storage_key), stored_size = $3, stored_sha256 = $4
      WHERE upload_id = $1 AND stored_at IS NULL AND processed_at IS NULL RETURNING upload_id`,
    [upload.id, file.storageKey ?? null, file.size, file.sha256],
  );
  return claimed.length > 0;
}

function duplicateOf(earlier: EarlierUpload): HttpError {
  const when = new Date(earlier.stored_at).toISOString().slice(0, 16).replace('T', ' ');
  const text = `The same file was already uploaded for this country, trade direction and period on ${when} UTC by ${earlier.uploaded_by ?? 'a user no longer listed'} (upload ${earlier.id}). Confirm to import it again.`;
  return new HttpError(409, text, { confirm_duplicate: text });
}
