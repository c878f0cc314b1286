/**
 * Changes every record a list's search and filters match, not a list of ids: the list's own condition (listSql.ts)
 * picks them inside one transaction, within the caller's scope, in batched statements with awaits between them so
 * other requests go on; each batch goes through the record operations, as a single change does. The caller confirms
 * the count they saw; a different count now is a 409 that states it.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuditAction } from '../../../contract/audit.ts';
import { HttpError, validationError } from '../../http/errors.ts';
import { sendWithProgress } from '../../http/progressStream.ts';
import { validateBody } from '../../http/validation.ts';
import { recordAudit } from '../audit/record.ts';
import type { WriteContext } from './behaviours.ts';
import type { ResourceContext } from './resourceContext.ts';
import { listQuery, type ListQueryString } from './read.ts';
import type { ListQuery } from './listSql.ts';
import { bulkSetSchema } from './bulkSchemas.ts';

/** Records one statement changes; small enough that a batch's statement and its audit entries stay brief. */
export const BULK_BATCH = 5000;

export type BulkChange =
  { kind: 'status'; isActive: boolean } | { kind: 'delete' } | { kind: 'set'; field: string; value: unknown };

type BulkRequest<B> = FastifyRequest<{ Querystring: ListQueryString; Body: B & { expected_count: number } }>;

const AUDIT_ACTION: Record<BulkChange['kind'], AuditAction> = {
  status: 'bulk_status',
  delete: 'bulk_delete',
  set: 'bulk_update',
};

/** POST /<resource>/bulk/status: activates or deactivates every matching record. */
export function bulkSetStatus(resourceContext: ResourceContext) {
  return (request: BulkRequest<{ is_active: boolean }>, reply: FastifyReply) =>
    runBulk(resourceContext, request, reply, { kind: 'status', isActive: request.body.is_active });
}

/** POST /<resource>/bulk/delete: deletes every matching record. */
export function bulkDelete(resourceContext: ResourceContext) {
  return (request: BulkRequest<object>, reply: FastifyReply) =>
    runBulk(resourceContext, request, reply, { kind: 'delete' });
}

/** POST /<resource>/bulk/set: gives one field one value on every matching record; the value is judged by the field's schema. */
export function bulkSetField(resourceContext: ResourceContext) {
  return (request: BulkRequest<{ field: string; value: unknown }>, reply: FastifyReply) => {
    const { field, value } = request.body;
    const errors = validateBody(bulkSetSchema(resourceContext.resource, field), { [field]: value });
    if (errors) throw validationError(errors);
    return runBulk(resourceContext, request, reply, { kind: 'set', field, value });
  };
}

async function runBulk(
  resourceContext: ResourceContext,
  request: BulkRequest<object>,
  reply: FastifyReply,
  change: BulkChange,
): Promise<FastifyReply> {
  const query = listQuery(resourceContext.resource, request.query);
  const { q, filters } = query;
  const expected = request.body.expected_count;
  return sendWithProgress(reply, (progress) =>
    resourceContext.write(request, async (context) => {
      const ids = await resourceContext.table.matchingIds(context.tx, query, resourceContext.scopeOf(context.user));
      if (ids.length !== expected) {
        throw new HttpError(
          409,
          `${ids.length} record(s) match now, not the ${expected} you confirmed. Check the list and confirm again.`,
          {
            expected_count: `${ids.length} record(s) match now.`,
          },
        );
      }
      progress.start(ids.length);
      let changed = 0;
      for (let start = 0; start < ids.length; start += BULK_BATCH) {
        changed += (await applyBatch(context, resourceContext, ids.slice(start, start + BULK_BATCH), query, change))
          .length;
        progress.report(Math.min(start + BULK_BATCH, ids.length));
      }
      await recordAudit(context.tx, context.actor, {
        module: resourceContext.resource.key,
        action: AUDIT_ACTION[change.kind],
        details: {
          matched: ids.length,
          changed,
          q: q ?? null,
          filters,
          ...(change.kind === 'set' ? { field: change.field, value: change.value } : {}),
          ...(change.kind === 'status' ? { is_active: change.isActive } : {}),
        },
      });
      const verb = change.kind === 'delete' ? 'deleted' : 'updated';
      return {
        data: { matched: ids.length, changed },
        message: `${changed} of ${ids.length} matching record(s) ${verb}.`,
      };
    }),
  );
}

/**
 * One batch through the record operations. Each keeps the list's condition, so a record that stopped matching since
 * it was counted is left alone, and skips records already as asked, so an entry says what changed.
 */
async function applyBatch(
  context: WriteContext,
  resourceContext: ResourceContext,
  batch: readonly number[],
  query: ListQuery,
  change: BulkChange,
): Promise<number[]> {
  const action = AUDIT_ACTION[change.kind];
  if (change.kind === 'delete') {
    const scope = resourceContext.scopeOf(context.user);
    const matching = await resourceContext.table.matchingIds(context.tx, query, scope, batch);
    return resourceContext.records.remove(context, matching, 'any', { action, partial: true });
  }
  const body = change.kind === 'status' ? { is_active: change.isActive } : { [change.field]: change.value };
  const values = change.kind === 'status' ? body : undefined;
  return resourceContext.records.change(
    context,
    batch,
    body,
    { expected: 'any', values, matching: query, skipUnchanged: true },
    { action },
  );
}
