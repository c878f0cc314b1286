import type { FastifyInstance } from 'fastify';
import type { AuditAction } from '../../../contract/audit.ts';
import type { Queryable } from '../../db/database.ts';
import { MODULE, entityResource, field } from '../../registry.ts';
import { quoted } from '../../../codegen/sqlNames.ts';
import { NO_USER, type AuditActor } from '../audit/record.ts';

/** What an upload's change of state records: who (the uploader), and what happened to its file or its import. */
export interface UploadStateEntry {
  actor: AuditActor;
  action: Extract<AuditAction, 'upload' | 'import' | 'publish' | 'reject'>;
  details: Record<string, unknown>;
}

/**
 * Moves an upload's record (DATA_UPLOAD_LOGS) to a new state, its fields the manifest has (status, row counts),
 * through the record operations like every change of a record: its version, its entry (with `entry`'s action and
 * details) and its history. The server's own jobs change it unscoped.
 */
export async function setUploadState(
  app: FastifyInstance,
  tx: Queryable,
  uploadId: number,
  values: Record<string, unknown>,
  entry?: UploadStateEntry,
): Promise<void> {
  const uploads = entityResource(MODULE.dataUploadLogs);
  if (!uploads) return;
  const present = Object.fromEntries(Object.entries(values).filter(([name]) => field(uploads.entity, name)));
  const context = { app, tx, user: null, actor: entry?.actor ?? NO_USER };
  await app.records
    .of(uploads)
    .change(
      context,
      [uploadId],
      present,
      { expected: 'any', values: present },
      { action: entry?.action ?? 'import', details: entry?.details ?? {} },
    );
}

/** The status of each of these uploads that exists, by id. */
export async function uploadStatuses(db: Queryable, uploadIds: readonly number[]): Promise<Map<number, string>> {
  const uploads = entityResource(MODULE.dataUploadLogs);
  if (!uploads) return new Map();
  const rows = await db.query<{ id: number; status: string }>(
    `SELECT id, status FROM ${quoted(uploads.entity.table)} WHERE id = ANY($1::bigint[])`,
    [uploadIds],
  );
  return new Map(rows.map((row) => [Number(row.id), row.status]));
}
