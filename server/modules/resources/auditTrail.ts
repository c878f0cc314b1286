import type { AuditAction } from '../../../contract/audit.ts';
import type { Queryable, Row } from '../../db/database.ts';
import { type EntityResource } from '../../registry.ts';
import { quoted } from '../../../codegen/sqlNames.ts';
import { fieldChanges, recordAudit, withoutSecrets, type AuditActor, type AuditEntry } from '../audit/record.ts';

/** One record's change as the trail records it: its row before and after (null where it did not exist). */
export interface RowChange {
  id: number;
  before: Row | null;
  after: Row | null;
}

/**
 * The entries of a resource's writes (docs/api.md, "Audit log, history and trash"). Rows are read whole as JSON
 * (`to_jsonb`), so every column is compared, dates read the same on PGlite and PostgreSQL, and a snapshot holds what
 * a restore writes back. Secrets (the resource's writeOnly fields and every column named like one) only show as changed.
 */
export class AuditTrail {
  readonly secrets: ReadonlySet<string>;
  private readonly table: string;

  constructor(readonly resource: EntityResource) {
    this.table = quoted(resource.entity.table);
    this.secrets = new Set(resource.entity.fields.filter((field) => field.writeOnly).map((field) => field.name));
  }

  /**
   * The rows of `ids` as they stand in the transaction, by id: one statement, whatever the count. `lock` holds them
   * until the change is made, so the state read before it is the one it changes.
   */
  async rows(tx: Queryable, ids: readonly number[], { lock = false } = {}): Promise<Map<number, Row>> {
    if (ids.length === 0) return new Map();
    const rows = await tx.query<{ id: number; row: Row }>(
      `SELECT t.id, to_jsonb(t) AS row FROM ${this.table} t WHERE t.id = ANY($1::bigint[])${lock ? ' FOR UPDATE OF t' : ''}`,
      [ids],
    );
    return new Map(rows.map(({ id, row }) => [Number(id), row]));
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
}

/** Pairs the rows read before and after a change of `ids`, in the order of `ids`. */
export function rowChanges(ids: readonly number[], before: Map<number, Row>, after: Map<number, Row>): RowChange[] {
  return ids.map((id) => ({ id, before: before.get(id) ?? null, after: after.get(id) ?? null }));
}
