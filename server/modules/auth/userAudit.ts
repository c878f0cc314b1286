import type { AuditAction } from '../../../contract/audit.ts';
import { MODULE } from '../../../contract/modules.ts';
import type { Queryable } from '../../db/database.ts';
import { recordAudit, type AuditActor } from '../audit/record.ts';

/**
 * Records what happened to a user's account (an entry on the user's record in USERS; `userId` null for an address
 * with no account), in the caller's transaction.
 */
export function auditUser(
  tx: Queryable,
  actor: AuditActor,
  userId: number | null,
  action: AuditAction,
  details?: Record<string, unknown>,
): Promise<number[]> {
  return recordAudit(tx, actor, { module: MODULE.users, recordId: userId, action, ...(details ? { details } : {}) });
}
