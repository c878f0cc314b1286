import type { AuditAction, FieldChanges } from '../../../contract/audit.ts';
import type { Queryable, Row } from '../../db/database.ts';
import { type EntityResource } from '../../registry.ts';
import { fieldChanges, recordAudit, withoutSecrets, type AuditActor, type AuditEntry } from '../audit/record.ts';

/** One record's change as the trail records it: its row before and after (null where it did not exist). */
export interface RowChange {
  id: number;
  before: Row | null;
  after: Row | null;
}

/** A record's history entry as stored, with the version of the record it holds (`snapshot`, with history). */
export type HistoryEntry = Row & { id: number; changes: FieldChanges; snapshot: Row | null };

/**
 * The entries of a resource's writes and a record's history read from them (docs/api.md, "Audit log, history and
 * trash"), in `audit_log`. Rows come whole as JSON (ResourceTable `rows`), so every column is compared and a snapshot
 * holds what a restore writes back. Secrets (the resource's writeOnly fields and every column named like one) only
 * show as changed.
 */
export class AuditTrail {
  readonly secrets: ReadonlySet<string>;

  constructor(readonly resource: EntityResource) {
    this.secrets = new Set(resource.entity.fields.filter((field) => field.writeOnly).map((field) => field.name));
  }

  /** The row with its secrets left out: what an entry's snapshot and the trash's answer hold. */
  public(row: Row): Row {
    return withoutSecrets(row, this.secrets);
  }

  /** An entry of one record: its changed fields, and with history its state after the change (before it, for a delete). */
  entry(action: AuditAction, { id, before, after }: RowChange, details?: Record<string, unknown>): AuditEntry {
    const state = after ?? before;
    return {
      module: this.resource.key,
      recordId: id,
      action,
      changes: fieldChanges(before, after, this.secrets),
      snapshot: this.resource.entity.history && state ? this.public(state) : null,
      ...(details ? { details } : {}),
    };
  }

  /**
   * The entries of a change to several records in one statement: one per record and, for a bulk request, one for
   * the request itself naming the records (`{ ids, count }`).
   */
  async record(
    tx: Queryable,
    actor: AuditActor,
    action: AuditAction,
    changes: readonly RowChange[],
    bulk?: AuditAction,
    details?: Record<string, unknown>,
  ): Promise<void> {
    const entries = changes.map((change) => this.entry(action, change, details));
    if (bulk)
      entries.push({
        module: this.resource.key,
        recordId: null,
        action: bulk,
        details: { ids: changes.map((change) => change.id), count: changes.length },
      });
    await recordAudit(tx, actor, entries);
  }

  /** How many entries the record's history has. */
  async historyCount(db: Queryable, recordId: number): Promise<number> {
    const [counted] = await db.query<{ total: number }>(
      'SELECT count(*) AS total FROM audit_log WHERE module = $1 AND record_id = $2',
      [this.resource.key, recordId],
    );
    return Number(counted?.total ?? 0);
  }

  /** A page of the record's history, newest first. */
  historyPage(db: Queryable, recordId: number, page: number, pageSize: number): Promise<HistoryEntry[]> {
    return db.query<HistoryEntry>(
      `SELECT id, at, user_id, user_email, api_token, client_address, request_id, module, record_id, action, changes, details, snapshot
         FROM audit_log WHERE module = $1 AND record_id = $2 ORDER BY at DESC, id DESC LIMIT $3 OFFSET $4`,
      [this.resource.key, recordId, pageSize, (page - 1) * pageSize],
    );
  }

  /** The version of the record an entry of its history holds: undefined when there is no such entry, null when it holds none. */
  async snapshot(db: Queryable, recordId: number, entryId: number): Promise<Row | null | undefined> {
    const [found] = await db.query<{ snapshot: Row | null }>(
      'SELECT snapshot FROM audit_log WHERE id = $1 AND module = $2 AND record_id = $3',
      [entryId, this.resource.key, recordId],
    );
    return found?.snapshot;
  }
}

/** Pairs the rows read before and after a change of `ids`, in the order of `ids`. */
export function rowChanges(ids: readonly number[], before: Map<number, Row>, after: Map<number, Row>): RowChange[] {
  return ids.map((id) => ({ id, before: before.get(id) ?? null, after: after.get(id) ?? null }));
}
