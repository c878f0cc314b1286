import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../../db/database.ts';
import { MODULE } from '../../registry.ts';
import { actorOf, recordAudit, type AuditActor } from '../audit/record.ts';

/**
 * The uploader as an entry names them: the file arrives on a signed URL without a token (data folder) or is completed
 * by them (bucket), and its import runs later with no request at all; every step is theirs.
 */
export async function uploader(
  tx: Queryable,
  userId: number | null,
  request: FastifyRequest | null,
): Promise<AuditActor> {
  const [user] =
    userId === null
      ? []
      : await tx.query<{ id: number; email: string }>('SELECT id, email FROM users WHERE id = $1', [userId]);
  if (request) return actorOf(request, request.user ?? user);
  return { userId, email: user?.email ?? null, clientAddress: null, requestId: null };
}

/** An import ended (rows accepted and rejected, or why it failed): recorded in the transaction that ends it. */
export async function recordImportOutcome(
  tx: Queryable,
  uploadId: number,
  userId: number | null,
  outcome: Record<string, unknown>,
): Promise<void> {
  await recordAudit(tx, await uploader(tx, userId, null), {
    module: MODULE.dataUploadLogs,
    recordId: uploadId,
    action: 'import',
    details: outcome,
  });
}
