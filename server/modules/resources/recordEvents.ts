import type { AuditAction } from '../../../contract/audit.ts';
import type { RecordEvent } from '../../../contract/webhooks.ts';
import type { Queryable } from '../../db/database.ts';
import type { EntityResource } from '../../registry.ts';
import { recordEventName } from '../webhooks/catalogue.ts';
import { answeredFields, publishEvents } from '../webhooks/events.ts';
import { recordSchema } from './answers.ts';
import type { RowChange } from './auditTrail.ts';
import type { ResourceTableReads } from './tableReads.ts';

/** What a change did to its record, as its event names it. */
function recordEventOf(action: AuditAction, change: RowChange): RecordEvent {
  if (action === 'restore') return 'restored';
  if (!change.after) return 'deleted';
  return change.before ? 'updated' : 'created';
}

/**
 * The events of one resource's record changes, published from the one write path (recordOperations.ts) in the
 * change's transaction. Each carries the record as the API answers it after the change (before it, for a delete).
 */
export class RecordEvents {
  private fields: string[] | null = null;

  constructor(
    private readonly resource: EntityResource,
    private readonly table: ResourceTableReads,
  ) {}

  async publish(tx: Queryable, action: AuditAction, changes: readonly RowChange[]): Promise<void> {
    if (changes.length === 0) return;
    const named = changes.map((change) => ({
      change,
      event: recordEventName(this.resource, recordEventOf(action, change)),
    }));
    // Read the records only when a webhook wants one of these events: most writes have none to tell.
    await publishEvents(tx, this.resource.key, named, async () => {
      const answered = await this.table.answeredRows(
        tx,
        changes.filter((change) => change.after).map((change) => change.id),
      );
      return named.map(({ change, event }) => ({
        event,
        data: answeredFields(answered.get(change.id) ?? change.after ?? change.before!, this.answerFields()),
      }));
    });
  }

  /** An event of the records `ids` beyond their plain change (`uploads.published`), each as the API answers it now. */
  async publishNamed(tx: Queryable, event: string, ids: readonly number[]): Promise<void> {
    await publishEvents(
      tx,
      this.resource.key,
      ids.map(() => ({ event })),
      async () => {
        const answered = await this.table.answeredRows(tx, ids);
        return ids.flatMap((id) => {
          const row = answered.get(id);
          return row ? [{ event, data: answeredFields(row, this.answerFields()) }] : [];
        });
      },
    );
  }

  private answerFields(): string[] {
    this.fields ??= Object.keys((recordSchema(this.resource).properties ?? {}) as Record<string, unknown>);
    return this.fields;
  }
}
