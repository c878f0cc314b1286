import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FieldChanges } from '../../../contract/audit.ts';
import { currentUser } from '../auth/access.ts';
import type { SessionUser } from '../auth/session.ts';
import { entriesPageMeta } from '../audit/answers.ts';
import type { PageQuery } from '../../http/requestSchemas.ts';
import type { Row } from '../../db/database.ts';
import { HttpError, forbidden, notFound } from '../../http/errors.ts';
import { expectedVersion } from '../../http/recordVersion.ts';
import { validateBody } from '../../http/validation.ts';
import type { EntityResource } from '../../registry.ts';
import type { HistoryEntry } from './auditTrail.ts';
import { sendRecord, type ResourceContext } from './resourceContext.ts';
import { missingRelation, relationLabels } from './relations.ts';
import { refusedValue } from './refusedValue.ts';

/**
 * GET /<resource>/:id/history: the record's entries, newest first. A caller with a scope (an executive) reads only
 * the history of a record within it, in its table or its trash; others also that of a record deleted for good.
 */
export function listHistory(resourceContext: ResourceContext) {
  return async (request: FastifyRequest<{ Params: { id: number }; Querystring: PageQuery }>) => {
    const user = currentUser(request);
    const { id } = request.params;
    const { _page: page, _page_size: pageSize } = request.query;
    const { trail } = resourceContext;
    const total = await trail.historyCount(resourceContext.db, id);
    if ((resourceContext.scopeOf(user) || total === 0) && !(await known(resourceContext, id, user)))
      throw notFound(resourceContext.singular);
    const entries = await trail.historyPage(resourceContext.db, id, page, pageSize);
    const current = (await resourceContext.table.rows(resourceContext.db, [id])).get(id) ?? null;
    const mayRestore =
      resourceContext.resource.actions.includes('edit') &&
      resourceContext.resource.entity.history &&
      user.grants.can(resourceContext.resource.key, 'edit');
    const labels = await changeLabels(resourceContext, entries);
    const data = [];
    for (const { snapshot, ...entry } of entries) {
      const restorable =
        mayRestore &&
        snapshot !== null &&
        current !== null &&
        differs(resourceContext.resource, snapshot, current) &&
        (await restoreRefusal(resourceContext, user, current, snapshot)) === null;
      data.push({ ...entry, restorable, labels: labels(entry.changes) });
    }
    return { data, meta: entriesPageMeta(request.query, total) };
  };
}

/** POST /<resource>/:id/history/:entry/restore: the version an entry holds, written back as an update of the record. */
export function restoreVersion(resourceContext: ResourceContext) {
  return async (request: FastifyRequest<{ Params: { id: number; entry: number } }>, reply: FastifyReply) => {
    const user = currentUser(request);
    const { id, entry } = request.params;
    const expected = expectedVersion(request);
    const current = await resourceContext.load(id, user);
    const snapshot = await resourceContext.trail.snapshot(resourceContext.db, id, entry);
    if (snapshot === undefined) throw notFound('History entry');
    if (snapshot === null) throw new HttpError(409, 'This entry holds no version of the record to restore.');
    const body = versionValues(resourceContext.resource, snapshot);
    const refusal = await restoreRefusal(resourceContext, user, current, snapshot);
    if (refusal) throw refusal;
    await resourceContext
      .write(request, (context) =>
        resourceContext.records.update(context, id, body, expected, { action: 'restore_version', details: { entry } }),
      )
      .catch((error: unknown) =>
        refusedValue(resourceContext.db, request, resourceContext.resource.entity.table, body, error),
      );
    return sendRecord(
      reply,
      await resourceContext.load(id, user),
      `${resourceContext.singular} restored to an earlier version.`,
    );
  };
}

/**
 * Why writing a version back would be refused, or null: a rule the manifest has tightened since, a related record
 * gone, or a value that would take the record out of the caller's scope (another executive's subscriber).
 */
async function restoreRefusal(
  resourceContext: ResourceContext,
  user: SessionUser,
  current: Row,
  snapshot: Row,
): Promise<HttpError | null> {
  const broken = brokenRules(resourceContext.resource, { ...current, ...snapshot });
  if (broken) {
    const message = `This version no longer meets the rules of a ${resourceContext.singular.toLowerCase()}: ${Object.entries(
      broken,
    )
      .map(([name, text]) => `${titleOf(resourceContext.resource, name)}: ${text}`)
      .join(' ')}`;
    return new HttpError(409, message, broken);
  }
  const body = versionValues(resourceContext.resource, snapshot);
  const missing = await missingRelation(resourceContext.db, resourceContext.resource, body);
  if (missing) {
    const message = `The ${missing.target} this version names no longer exists.`;
    return new HttpError(409, message, { [missing.field]: message });
  }
  const scope = resourceContext.scopeOf(user);
  if (
    scope &&
    (await resourceContext.table.outsideScope(resourceContext.db, [{ ...current, ...body }], scope)).length > 0
  )
    return forbidden(resourceContext.resource.key, 'move records outside your assignment');
  return null;
}

/** The fields a restore writes back: those an update may write, as the version holds them. */
function versionValues(resource: EntityResource, snapshot: Row): Row {
  const updatable = (resource.entity.updateSchema.properties ?? {}) as Record<string, unknown>;
  const values: Row = {};
  for (const field of resource.entity.fields) {
    if (
      field.system ||
      field.readOnly ||
      field.writeOnly ||
      !Object.hasOwn(updatable, field.name) ||
      !Object.hasOwn(snapshot, field.name)
    )
      continue;
    values[field.name] = snapshot[field.name];
  }
  return values;
}

/**
 * What a record as stored (here: a version's fields over the record's others) breaks of the rules an edit of it is
 * held to today, which may have tightened since it was written; null when it meets them. Empty columns count as absent.
 */
export function brokenRules(resource: EntityResource, record: Row): Record<string, string> | null {
  const given = Object.fromEntries(
    Object.entries(versionValues(resource, record)).filter(([, value]) => value !== null),
  );
  return validateBody(resource.entity.updateSchema as Record<string, unknown>, given);
}

function titleOf(resource: EntityResource, name: string): string {
  return resource.entity.fields.find((field) => field.name === name)?.title ?? name;
}

function differs(resource: EntityResource, snapshot: Row, current: Row): boolean {
  return Object.entries(versionValues(resource, snapshot)).some(
    ([name, value]) => JSON.stringify(value) !== JSON.stringify(current[name] ?? null),
  );
}

/** Whether the caller may see the record: in its table, or in its trash, within the caller's scope. */
async function known(resourceContext: ResourceContext, id: number, user: SessionUser): Promise<boolean> {
  const scope = resourceContext.scopeOf(user);
  return (
    (await resourceContext.table.visible(resourceContext.db, [id], scope)) ||
    (await resourceContext.trash.holds(resourceContext.db, id, scope))
  );
}

/** The relation fields' ids named by the entries, read as their records' labels now: one statement per relation field. */
async function changeLabels(resourceContext: ResourceContext, entries: readonly HistoryEntry[]) {
  const relationFields = resourceContext.resource.entity.fields
    .filter((field) => field.relation !== null)
    .map((field) => field.name);
  const labelsByField = new Map<string, Map<number, string | null>>();
  for (const name of relationFields) {
    const ids = new Set<number>();
    for (const { changes } of entries) {
      const change = changes[name];
      if (change && 'before' in change)
        for (const value of [change.before, change.after]) if (typeof value === 'number') ids.add(value);
    }
    if (ids.size > 0)
      labelsByField.set(name, await relationLabels(resourceContext.db, resourceContext.resource, name, [...ids]));
  }
  const labelOf = (name: string, value: unknown) =>
    typeof value === 'number' ? (labelsByField.get(name)?.get(value) ?? null) : null;
  return (changes: FieldChanges) => {
    const labels: Record<string, { before: string | null; after: string | null }> = {};
    for (const name of labelsByField.keys()) {
      const change = changes[name];
      if (change && 'before' in change)
        labels[name] = { before: labelOf(name, change.before), after: labelOf(name, change.after) };
    }
    return labels;
  };
}
