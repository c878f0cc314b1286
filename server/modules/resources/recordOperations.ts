/**
 * The one set of record operations (docs/api.md, "One write path"): create, update, status, delete, restore from
 * the trash, restore a version, set on all matching and import all change a manifest record here, whichever route,
 * import, bulk change or job asks. Each applies, in the caller's transaction: the caller's scope before the change
 * (in the statement) and after it (a record may not leave it), the resource's behaviour (`guard`, `prepare`,
 * `after*`), the version check, the audit entry with its history snapshot, the events of the webhooks that want
 * them (recordEvents.ts). Cached answers follow by themselves: the data version they are kept under moves on with
 * every write (the triggers responseCache.ts names).
 */
import type { AuditAction } from '../../../contract/audit.ts';
import type { Row } from '../../db/database.ts';
import type { Scope } from '../../db/sqlParams.ts';
import { HttpError, forbidden, notFound } from '../../http/errors.ts';
import { staleRecord, type ExpectedVersion } from '../../http/recordVersion.ts';
import { entityResource, type EntityResource } from '../../registry.ts';
import type { SessionUser } from '../auth/session.ts';
import { AuditTrail, rowChanges, type RowChange } from './auditTrail.ts';
import type { RecordChange, ResourceBehaviour, WriteContext } from './behaviours.ts';
import { ResourceTable, type ChangeOptions } from './sql.ts';
import { ResourceTrash } from './trash.ts';
import { RecordEvents } from './recordEvents.ts';
import { recordScope } from './recordScope.ts';
import { storedValues } from './storedValues.ts';

export interface ChangeEntry {
  /** The entry's action: `update` unless the path says what it was (`restore_version`, `bulk_update`, `subscribe`). */
  action?: AuditAction;
  details?: Record<string, unknown>;
  /** A request that names several records also gets an entry of its own, with this action. */
  bulk?: AuditAction;
}

/** An imported row that updates a record: the record as the import read it, and the fields the row gives. */
export interface ImportedUpdate {
  before: Row & { id: number; version: number };
  body: Record<string, unknown>;
}

/** The write operations of one resource. */
export class ResourceRecords {
  readonly table: ResourceTable;
  readonly trail: AuditTrail;
  readonly trash: ResourceTrash;
  /** The webhook events of its records (those of its changes are published by the operations themselves). */
  readonly events: RecordEvents;

  constructor(
    readonly resource: EntityResource,
    readonly behaviour: ResourceBehaviour,
  ) {
    this.table = new ResourceTable(resource);
    this.trail = new AuditTrail(resource);
    this.trash = new ResourceTrash(resource);
    this.events = new RecordEvents(resource, this.table);
  }

  scopeOf(user: SessionUser | null): Scope | null {
    return recordScope(this.resource, this.behaviour, user);
  }

  /** A new record from a validated body; its id. */
  async create(context: WriteContext, body: Record<string, unknown>, entry: ChangeEntry = {}): Promise<number> {
    const [id] = await this.createMany(context, [body], entry);
    return id!;
  }

  /** New records, one statement per set of columns; their ids in the order of `bodies`. */
  async createMany(
    context: WriteContext,
    bodies: ReadonlyArray<Record<string, unknown>>,
    entry: ChangeEntry = {},
  ): Promise<number[]> {
    const changes = bodies.map((body) => ({ kind: 'create', body }) as const);
    return this.guarded(changes, context, async () => {
      const values = [];
      for (const change of changes) values.push(await this.prepared(context, change));
      const created = await this.table.insertMany(context.tx, values);
      const ids = created.map((row) => Number(row.id));
      await this.holdInScope(context, ids, 'add records outside your assignment');
      for (const [index, id] of ids.entries()) await this.behaviour.afterCreate?.(id, bodies[index]!, context);
      const after = this.behaviour.afterCreate
        ? await this.table.rows(context.tx, ids)
        : new Map(created.map((row) => [Number(row.id), row]));
      await this.recordEntries(context, entry.action ?? 'create', rowChanges(ids, new Map(), after), entry);
      return ids;
    });
  }

  /** One record's change from a validated body, at the version the caller read. */
  async update(
    context: WriteContext,
    id: number,
    body: Record<string, unknown>,
    expected: ExpectedVersion,
    entry: ChangeEntry = {},
  ): Promise<void> {
    const changed = await this.change(context, [id], body, { expected }, entry);
    if (changed.length !== 1) throw await this.missingOrStale(context, id);
  }

  /**
   * Activates or deactivates records: one at the version its caller read, or several (`expected: 'any'`) all or none.
   */
  async setActive(
    context: WriteContext,
    ids: readonly number[],
    isActive: boolean,
    expected: ExpectedVersion,
    entry: ChangeEntry = {},
  ): Promise<number> {
    const changed = await this.change(
      context,
      ids,
      { is_active: isActive },
      { expected, values: { is_active: isActive } },
      { action: 'status', ...entry },
    );
    if (changed.length !== ids.length)
      throw expected === 'any' ? notFound(this.resource.singular) : await this.missingOrStale(context, ids[0]!);
    return changed.length;
  }

  /**
   * Gives records the fields of `body`: each record as it stands (within the scope, at the expected version, still
   * matching the list's search and filters when `matching` is given). Answers the ids it changed; with `skipUnchanged`
   * a record that already holds the values is left out.
   */
  async change(
    context: WriteContext,
    ids: readonly number[],
    body: Record<string, unknown>,
    options: Omit<ChangeOptions, 'scope'> & { values?: Record<string, unknown> },
    entry: ChangeEntry = {},
  ): Promise<number[]> {
    const change = { kind: 'update', ids, body } as const;
    return this.guarded([change], context, async () => {
      const { values: given, ...statement } = options;
      const values = given ? { ...given } : await storedValues(context.app, this.resource, body);
      await this.behaviour.prepare?.(values, change, context);
      const rows = await this.table.change(context.tx, ids, values, {
        ...statement,
        scope: this.scopeOf(context.user),
      });
      const changed = rows.map((row) => row.id);
      await this.holdInScope(context, changed, 'move records outside your assignment');
      if (changed.length > 0) await this.behaviour.afterUpdate?.(changed, body, context);
      const after = this.behaviour.afterUpdate
        ? await this.table.rows(context.tx, changed)
        : new Map(rows.map((row) => [row.id, row.after]));
      const before = new Map(rows.map((row) => [row.id, row.before]));
      await this.recordEntries(context, entry.action ?? 'update', rowChanges(changed, before, after), entry);
      return changed;
    });
  }

  /**
   * Deletes records (into the trash, with soft delete), each within the scope at the expected version. All of them or
   * none, unless `partial` (a change of all matching records: one deleted meanwhile is passed by). The deleted ids.
   */
  async remove(
    context: WriteContext,
    ids: readonly number[],
    expected: ExpectedVersion,
    entry: ChangeEntry & { partial?: boolean } = {},
  ): Promise<number[]> {
    return this.guarded([{ kind: 'delete', ids }], context, async () => {
      const removed = await this.trash.remove(context.tx, ids, this.scopeOf(context.user), expected, context.actor);
      if (!entry.partial && removed.size !== ids.length)
        throw expected === 'any' ? notFound(this.resource.singular) : await this.missingOrStale(context, ids[0]!);
      const gone = ids.filter((id) => removed.has(id));
      if (gone.length > 0) await this.behaviour.afterDelete?.(gone, context);
      await this.recordEntries(context, entry.action ?? 'delete', rowChanges(gone, removed, new Map()), entry);
      return gone;
    });
  }

  /** A deleted record back from the trash with its id (within the scope, judged on the stored row). */
  async restoreDeleted(context: WriteContext, id: number): Promise<void> {
    await this.guarded([{ kind: 'restore', ids: [id] }], context, async () => {
      await this.trash.restore(context.tx, id, this.scopeOf(context.user));
      const after = await this.table.rows(context.tx, [id]);
      await this.recordEntries(context, 'restore', [{ id, before: null, after: after.get(id) ?? null }]);
    });
  }

  /**
   * A batch of an import: new records and updates of the records its keys matched, each update at the version the
   * import read (a record changed since is a 409: the dry run must be run again). One entry per record, `import`.
   */
  async importBatch(
    context: WriteContext,
    creates: ReadonlyArray<Record<string, unknown>>,
    updates: readonly ImportedUpdate[],
  ): Promise<void> {
    const changes: RecordChange[] = [
      ...creates.map((body) => ({ kind: 'create', body }) as const),
      ...updates.map(({ before, body }) => ({ kind: 'update', ids: [Number(before.id)], body }) as const),
    ];
    await this.guarded(changes, context, async () => {
      const values = [];
      for (const change of changes)
        values.push(await this.prepared(context, change as Extract<RecordChange, { kind: 'create' | 'update' }>));
      const created = await this.table.insertMany(context.tx, values.slice(0, creates.length));
      const updateValues = values.slice(creates.length);
      const scope = this.scopeOf(context.user);
      const updated = await this.table.updateEach(
        context.tx,
        updates.map(({ before }, index) => ({
          id: Number(before.id),
          version: Number(before.version),
          values: updateValues[index]!,
        })),
        scope,
      );
      if (updated.length !== updates.length)
        throw new HttpError(409, 'Some records changed while the file was imported. Run the dry run again.');
      const createdIds = created.map((row) => Number(row.id));
      const updatedIds = updates.map(({ before }) => Number(before.id));
      await this.holdInScope(context, [...createdIds, ...updatedIds], 'add or move records outside your assignment');
      for (const [index, id] of createdIds.entries()) await this.behaviour.afterCreate?.(id, creates[index]!, context);
      for (const [index, id] of updatedIds.entries())
        await this.behaviour.afterUpdate?.([id], updates[index]!.body, context);
      const after = await this.table.rows(context.tx, [...createdIds, ...updatedIds]);
      const before = new Map(updates.map(({ before: row }) => [Number(row.id), row as Row]));
      const entries: RowChange[] = [
        ...rowChanges(createdIds, new Map(), after),
        ...rowChanges(updatedIds, before, after),
      ];
      await this.recordEntries(context, 'import', entries);
    });
  }

  /** Why a write of one record changed nothing: the caller cannot see it (404), or it moved on since they read it (412). */
  async missingOrStale(context: Pick<WriteContext, 'tx' | 'user'>, id: number) {
    return (await this.table.visible(context.tx, [id], this.scopeOf(context.user)))
      ? staleRecord(this.resource.singular)
      : notFound(this.resource.singular);
  }

  /** The audit entries and webhook events of a change, with the action, bulk entry and details its path gives. */
  private async recordEntries(
    context: WriteContext,
    action: AuditAction,
    changes: RowChange[],
    entry: ChangeEntry = {},
  ): Promise<void> {
    await this.trail.record(context.tx, context.actor, action, changes, entry.bulk, entry.details);
    await this.events.publish(context.tx, action, changes);
  }

  private guarded<T>(changes: readonly RecordChange[], context: WriteContext, write: () => Promise<T>): Promise<T> {
    return this.behaviour.guard ? this.behaviour.guard(changes, context, write) : write();
  }

  private async prepared(
    context: WriteContext,
    change: Extract<RecordChange, { kind: 'create' | 'update' }>,
  ): Promise<Record<string, unknown>> {
    const values = await storedValues(context.app, this.resource, change.body);
    await this.behaviour.prepare?.(values, change, context);
    return values;
  }

  /** A change may not leave a record where the caller's scope does not reach (another executive's subscriber). */
  private async holdInScope(context: WriteContext, ids: readonly number[], what: string): Promise<void> {
    const scope = this.scopeOf(context.user);
    if (scope && ids.length > 0 && !(await this.table.visible(context.tx, ids, scope)))
      throw forbidden(this.resource.key, what);
  }
}

/** Every manifest resource's operations, with the behaviours the server was built with. */
export class RecordOperations {
  private readonly known = new Map<string, ResourceRecords>();

  constructor(private readonly behaviours: Readonly<Record<string, ResourceBehaviour>>) {}

  of(resource: EntityResource): ResourceRecords {
    let records = this.known.get(resource.key);
    if (!records) {
      records = new ResourceRecords(resource, this.behaviours[resource.key] ?? {});
      this.known.set(resource.key, records);
    }
    return records;
  }

  /** The operations of a resource the server's own modules write to (users, subscribers, uploads), by its key. */
  named(key: string): ResourceRecords {
    const resource = entityResource(key);
    if (!resource) throw new Error(`The manifest has no stored resource ${key}.`);
    return this.of(resource);
  }
}
