/**
 * Changes every record a list's search and filters match, not a list of ids: the list's own condition (sql.ts `where`)
 * picks them inside one transaction, within the caller's scope, in batched statements with awaits between them so
 * other requests go on. The caller confirms the count they saw; a different count now is a 409 that states it.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuditAction } from '../../../contract/audit.ts';
import type { Queryable, Row } from '../../db/database.ts';
import { SqlParams } from '../../db/sqlParams.ts';
import { HttpError, forbidden, validationError } from '../../http/errors.ts';
import { sendWithProgress, type ProgressReporter } from '../../http/progressStream.ts';
import { validateBody } from '../../http/validation.ts';
import { quoted } from '../../registry.ts';
import { actorOf, recordAudit, withoutSecrets, type AuditActor, type AuditEntry } from '../audit/record.ts';
import { currentUser } from '../auth/access.ts';
import type { SessionUser } from '../auth/session.ts';
import type { RecordChange } from './behaviours.ts';
import type { ResourceEndpoint } from './endpoint.ts';
import { listQuery, type ListQueryString } from './read.ts';
import type { ListQuery } from './sql.ts';
import { bulkSetSchema } from './bulkSchemas.ts';

/** Records one statement changes; small enough that a batch's statement and its audit entries stay brief. */
export const BULK_BATCH = 5000;

export type BulkChange = { kind: 'status'; isActive: boolean } | { kind: 'delete' } | { kind: 'set'; field: string; value: unknown };

type BulkRequest<B> = FastifyRequest<{ Querystring: ListQueryString; Body: B & { expected_count: number } }>;

const AUDIT_ACTION: Record<BulkChange['kind'], AuditAction> = { status: 'bulk_status', delete: 'bulk_delete', set: 'bulk_update' };

/** POST /<resource>/bulk/status: activates or deactivates every matching record. */
export function bulkSetStatus(endpoint: ResourceEndpoint) {
  return (request: BulkRequest<{ is_active: boolean }>, reply: FastifyReply) => runBulk(endpoint, request, reply, { kind: 'status', isActive: request.body.is_active });
}

/** POST /<resource>/bulk/delete: deletes every matching record. */
export function bulkDelete(endpoint: ResourceEndpoint) {
  return (request: BulkRequest<object>, reply: FastifyReply) => runBulk(endpoint, request, reply, { kind: 'delete' });
}

/** POST /<resource>/bulk/set: gives one field one value on every matching record; the value is judged by the field's schema. */
export function bulkSetField(endpoint: ResourceEndpoint) {
  return (request: BulkRequest<{ field: string; value: unknown }>, reply: FastifyReply) => {
    const { field, value } = request.body;
    const errors = validateBody(bulkSetSchema(endpoint.resource, field), { [field]: value });
    if (errors) throw validationError(errors);
    return runBulk(endpoint, request, reply, { kind: 'set', field, value });
  };
}

async function runBulk(endpoint: ResourceEndpoint, request: BulkRequest<object>, reply: FastifyReply, change: BulkChange): Promise<FastifyReply> {
  const user = currentUser(request);
  const query = listQuery(endpoint.resource, request.query);
  const { q, filters } = query;
  const expected = request.body.expected_count;
  const actor = actorOf(request);
  return sendWithProgress(reply, (progress) =>
    endpoint.db.transaction(async (tx) => {
      const ids = await matchingIds(tx, endpoint, query, user);
      if (ids.length !== expected) {
        throw new HttpError(409, `${ids.length} record(s) match now, not the ${expected} you confirmed. Check the list and confirm again.`, {
          expected_count: `${ids.length} record(s) match now.`,
        });
      }
      progress.start(ids.length);
      const guardedChange: RecordChange = change.kind === 'delete' ? { kind: 'delete', ids } : { kind: 'status', ids, isActive: change.kind === 'status' ? change.isActive : true };
      const write = () => applyInBatches(tx, endpoint, ids, query, user, change, actor, progress);
      const changed = change.kind === 'set' ? await write() : await endpoint.guarded(guardedChange, { app: endpoint.app, tx, user }, write);
      await recordAudit(tx, actor, {
        module: endpoint.resource.key,
        action: AUDIT_ACTION[change.kind],
        details: { matched: ids.length, changed: changed.length, q: q ?? null, filters, ...(change.kind === 'set' ? { field: change.field, value: change.value } : {}), ...(change.kind === 'status' ? { is_active: change.isActive } : {}) },
      });
      const verb = change.kind === 'delete' ? 'deleted' : 'updated';
      return { data: { matched: ids.length, changed: changed.length }, message: `${changed.length} of ${ids.length} matching record(s) ${verb}.` };
    }),
  );
}

/** The ids of the records the list shows for this search and these filters, to this caller. */
async function matchingIds(tx: Queryable, endpoint: ResourceEndpoint, query: ListQuery, user: SessionUser): Promise<number[]> {
  const params = new SqlParams();
  const where = endpoint.table.where(params, query, endpoint.scopeOf(user));
  const rows = await tx.query<{ id: number }>(`SELECT t.id FROM ${endpoint.table.table} t ${where} ORDER BY t.id`, params.values);
  return rows.map((row) => row.id);
}

/**
 * Each batch's statement keeps the list's condition, so a record that stopped matching since it was counted is left
 * alone, and skips records already as asked, so an entry says what changed. Returns the changed records.
 */
async function applyInBatches(tx: Queryable, endpoint: ResourceEndpoint, ids: readonly number[], query: ListQuery, user: SessionUser, change: BulkChange, actor: AuditActor, progress: ProgressReporter): Promise<Row[]> {
  const { resource, table } = endpoint;
  const scope = endpoint.scopeOf(user);
  const secrets = new Set(resource.entity.writeOnly);
  const changed: Row[] = [];
  for (let start = 0; start < ids.length; start += BULK_BATCH) {
    const batch = ids.slice(start, start + BULK_BATCH);
    const params = new SqlParams();
    const where = table.where(params, query, scope);
    // The id range lets the primary key find the batch; the ids themselves keep it to the records counted.
    const inBatch = `t.id BETWEEN ${params.add(batch[0])} AND ${params.add(batch.at(-1))} AND t.id = ANY(${params.add(batch)}::bigint[])`;
    const condition = where ? `${where} AND ${inBatch}` : `WHERE ${inBatch}`;
    let rows: Row[];
    let entry: (row: Row) => Pick<AuditEntry, 'changes'>;
    if (change.kind === 'delete') {
      // Through the trash, as a single delete goes, where the manifest keeps deleted records.
      const matching = await tx.query<{ id: number }>(`SELECT t.id FROM ${table.table} t ${condition}`, params.values);
      rows = [...(await endpoint.trash.remove(tx, matching.map((row) => Number(row.id)), scope, 'any', actor)).values()];
      entry = () => ({ changes: {} });
    } else {
      const column = change.kind === 'status' ? 'is_active' : change.field;
      const value = change.kind === 'status' ? change.isActive : change.value;
      const placeholder = params.add(value);
      rows = await tx.query(
        `WITH before AS (SELECT id AS __id, ${quoted(column)} AS __before FROM ${table.table} WHERE id BETWEEN ${params.add(batch[0])} AND ${params.add(batch.at(-1))})
         UPDATE ${table.table} t SET ${quoted(column)} = ${placeholder}, updated_at = now()
           FROM before
          ${condition} AND before.__id = t.id AND t.${quoted(column)} IS DISTINCT FROM ${placeholder}
          RETURNING t.*, before.__before`,
        params.values,
      );
      entry = (row) => ({ changes: { [column]: { before: row.__before ?? null, after: row[column] ?? null } } });
    }
    if (change.kind === 'delete') await endpoint.behaviour.afterDelete?.(rows.map((row) => Number(row.id)), { app: endpoint.app, tx, user });
    await recordAudit(
      tx,
      actor,
      rows.map((row) => ({ module: resource.key, recordId: Number(row.id), action: AUDIT_ACTION[change.kind], ...entry(row), snapshot: resource.entity.history ? snapshotOf(row, secrets) : null })),
    );
    changed.push(...rows.map((row) => ({ id: row.id })));
    progress.report(Math.min(start + BULK_BATCH, ids.length));
  }
  if (change.kind === 'set' && scope && changed.length > 0) {
    // A value that moves records out of the caller's assignment (another executive) is refused, as a single edit is.
    if (!(await table.visible(tx, changed.map((row) => Number(row.id)), scope))) throw forbidden(resource.key, 'move records outside your assignment');
  }
  return changed;
}

/** The record as the change left it, without secrets; a deleted record as it was. */
function snapshotOf(row: Row, secrets: ReadonlySet<string>): Row {
  const { __before: _before, ...record } = row;
  return withoutSecrets(record, secrets);
}
