import type { FastifyRequest } from 'fastify';
import type { AuditAction, FieldChanges } from '../../../contract/audit.ts';
import type { Queryable, Row } from '../../db/database.ts';

/** Who made a change and from where; taken from the request, never from its body. */
export interface AuditActor {
  userId: number | null;
  email: string | null;
  clientAddress: string | null;
  requestId: string | null;
  /** The API token the change was made with, by name (the user is the token's creator); absent: none. */
  apiToken?: string | null;
}

/** The actor of a change the server made by itself (a job, time, failing deliveries): no user, no request. */
export const NO_USER: AuditActor = { userId: null, email: null, clientAddress: null, requestId: null };

/** One entry to write. `snapshot` is the record after the change, secrets left out (see `withoutSecrets`). */
export interface AuditEntry {
  module: string;
  recordId?: number | null;
  action: AuditAction;
  changes?: FieldChanges;
  snapshot?: Row | null;
  details?: Record<string, unknown>;
}

/**
 * Column names whose values are secrets wherever they appear: never stored in an entry, only that they changed.
 * A resource adds its own writeOnly fields (`secretsOf` in the resources module).
 */
const SECRET_NAME = /(password|hash|token|secret)/i;

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** The caller of a request as an entry names them; `signedIn` when the route knows the user another way (sign-in). */
export function actorOf(request: FastifyRequest, signedIn?: { id: number; email: string }): AuditActor {
  const user = signedIn ?? request.user;
  return {
    userId: user?.id ?? null,
    email: user?.email ?? null,
    clientAddress: request.ip ?? null,
    requestId: String(request.id),
    apiToken: signedIn ? null : (request.user?.apiToken?.name ?? null),
  };
}

/** A row without the secrets among its columns: what an entry's snapshot holds. */
export function withoutSecrets(row: Row, secrets: ReadonlySet<string> = new Set()): Row {
  const kept: Row = {};
  for (const [name, value] of Object.entries(row)) if (!secrets.has(name) && !isSecretName(name)) kept[name] = value;
  return kept;
}

/**
 * The fields that differ between two states of a record, before -> after; a secret only as `{ changed: true }`.
 * Values are compared as JSON, so a date read back as text equals the same date. `ignored` columns (the version,
 * updated_at) move on every write and say nothing a person reads.
 */
export function fieldChanges(
  before: Row | null,
  after: Row | null,
  secrets: ReadonlySet<string> = new Set(),
  ignored: ReadonlySet<string> = IGNORED,
): FieldChanges {
  const changes: FieldChanges = {};
  const names = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const name of names) {
    if (ignored.has(name)) continue;
    const was = before?.[name] ?? null;
    const is = after?.[name] ?? null;
    if (JSON.stringify(was) === JSON.stringify(is)) continue;
    changes[name] = secrets.has(name) || isSecretName(name) ? { changed: true } : { before: was, after: is };
  }
  return changes;
}

const IGNORED: ReadonlySet<string> = new Set(['id', 'version', 'created_at', 'updated_at']);

/**
 * Writes entries in the caller's transaction: a change whose entry cannot be written does not happen, and an entry
 * of a change that rolls back goes with it. Many entries (a bulk action) go in one statement.
 */
export async function recordAudit(
  tx: Queryable,
  actor: AuditActor,
  entries: AuditEntry | readonly AuditEntry[],
): Promise<number[]> {
  const list = Array.isArray(entries) ? entries : [entries as AuditEntry];
  if (list.length === 0) return [];
  const rows = list.map((entry) => ({
    module: entry.module,
    record_id: entry.recordId ?? null,
    action: entry.action,
    changes: entry.changes ?? {},
    snapshot: entry.snapshot ?? null,
    details: entry.details ?? {},
  }));
  const inserted = await tx.query<{ id: number }>(
    `INSERT INTO audit_log (user_id, user_email, client_address, request_id, api_token, module, record_id, action, changes, snapshot, details)
     SELECT $1, $2, $3, $4, $6, e.module, e.record_id, e.action, e.changes, e.snapshot, e.details
       FROM jsonb_to_recordset($5::jsonb) AS e(module text, record_id bigint, action text, changes jsonb, snapshot jsonb, details jsonb)
     RETURNING id`,
    [actor.userId, actor.email, actor.clientAddress, actor.requestId, JSON.stringify(rows), actor.apiToken ?? null],
  );
  return inserted.map((row) => row.id);
}
