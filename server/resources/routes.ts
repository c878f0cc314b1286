import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { currentUser, permission, type Access } from '../auth/access.ts';
import type { SessionUser } from '../auth/session.ts';
import { forbidden, notFound } from '../http/errors.ts';
import { ENTITY_RESOURCES, MODULE, RESOURCES, quoted, type EntityResource } from '../registry.ts';
import { behaviourOf } from './behaviours.ts';
import { csvLine } from './csv.ts';
import { ResponseCache } from './responseCache.ts';
import { bulkStatusBody, exportQuerySchema, idParams, idsBody, listQuerySchema, listableFields, optionsQuery, statusBody, writeSchema } from '../../contract/resources.ts';
import { ResourceTable, type ListQuery, type Scope } from './sql.ts';

const EXPORT_BATCH = 500;
const EXPORT_MAX_ROWS = 1_000_000;

type Body = Record<string, unknown>;
type ListQueryString = { _page: number; _page_size: number; _sort?: string; _order?: 'asc' | 'desc'; q?: string; _columns?: string } & Record<string, unknown>;

/** The generic endpoints of every manifest resource with an entity (docs/api.md, "Resource endpoints"). */
export async function resourceRoutes(app: FastifyInstance): Promise<void> {
  const responses = new ResponseCache();
  for (const resource of ENTITY_RESOURCES) registerResource(app, resource, responses);
}

/**
 * Sends the JSON of `read()`, or the same bytes from `responses` when nothing has changed since they were read.
 * The key holds everything the body depends on besides the data: the resource, the request and, when the caller
 * sees a scoped part of the records, who the caller is.
 */
async function sendCached(reply: FastifyReply, responses: ResponseCache, key: string, user: SessionUser, read: () => Promise<unknown>): Promise<FastifyReply> {
  const body = await responses.body(key, user.dataVersion, async () => JSON.stringify(await read()));
  return reply.type('application/json; charset=utf-8').send(body);
}

function registerResource(app: FastifyInstance, resource: EntityResource, responses: ResponseCache): void {
  const { db } = app;
  const table = new ResourceTable(resource);
  const behaviour = behaviourOf(resource);
  const base = `/${resource.api}`;
  const can = (action: string): Access => permission(resource.key, action);
  const offers = (action: string) => resource.actions.includes(action);
  const scopeOf = (user: SessionUser): Scope | null => behaviour.scope?.(user) ?? null;
  const cacheKey = (user: SessionUser, request: string) => `${resource.key} ${scopeOf(user) ? user.id : '*'} ${request}`;
  const createSchema = writeSchema(resource.entity.createSchema);
  const updateSchema = writeSchema(resource.entity.updateSchema);
  const singular = resource.singular;

  const load = async (id: number, user: SessionUser) => {
    const row = await table.get(db, id, scopeOf(user));
    if (!row) throw notFound(singular);
    return row;
  };

  if (offers('view')) {
    app.get<{ Querystring: ListQueryString }>(base, {
      config: { access: can('view') },
      schema: { querystring: listQuerySchema(resource) },
      handler: async (request, reply) => {
        const user = currentUser(request);
        const query = listQuery(resource, request.query);
        return sendCached(reply, responses, cacheKey(user, `list ${JSON.stringify(query)}`), user, async () => {
          const { rows, total } = await table.list(db, query, scopeOf(user));
          return { data: rows, meta: { total, page: query.page, page_size: query.pageSize } };
        });
      },
    });
    app.get<{ Params: { id: number } }>(`${base}/:id`, {
      config: { access: can('view') },
      schema: { params: idParams },
      handler: async (request, reply) => {
        const user = currentUser(request);
        return sendCached(reply, responses, cacheKey(user, `get ${request.params.id}`), user, async () => ({ data: await load(request.params.id, user) }));
      },
    });
  }

  app.get<{ Querystring: { q?: string } }>(`${base}/options`, {
    config: { access: optionsAccess(resource) },
    schema: { querystring: optionsQuery },
    handler: async (request) => ({ data: await options(app, resource, request.query.q) }),
  });

  if (offers('add') && !behaviour.replaces?.includes('create')) {
    app.post<{ Body: Body }>(base, {
      config: { access: can('add') },
      schema: { body: createSchema },
      handler: async (request, reply) => {
        const user = currentUser(request);
        const id = await db.transaction(async (tx) => {
          const context = { app, tx, user };
          const values = await columnValues(app, resource, request.body);
          await behaviour.prepare?.(values, request.body, { ...context, id: null });
          const created = await table.insert(tx, values);
          if (!(await table.visible(tx, [created], scopeOf(user)))) throw forbidden(resource.key, 'add records outside your assignment');
          await behaviour.afterCreate?.(created, request.body, context);
          return created;
        });
        reply.code(201);
        return { data: await load(id, user), message: `${singular} created.` };
      },
    });
  }

  if (offers('edit')) {
    app.put<{ Params: { id: number }; Body: Body }>(`${base}/:id`, {
      config: { access: can('edit') },
      schema: { params: idParams, body: updateSchema },
      handler: async (request) => {
        const user = currentUser(request);
        const { id } = request.params;
        await db.transaction(async (tx) => {
          const context = { app, tx, user };
          const values = await columnValues(app, resource, request.body);
          await behaviour.prepare?.(values, request.body, { ...context, id });
          if (!(await table.update(tx, id, values, scopeOf(user)))) throw notFound(singular);
          if (!(await table.visible(tx, [id], scopeOf(user)))) throw forbidden(resource.key, 'move records outside your assignment');
          await behaviour.afterUpdate?.(id, request.body, context);
        });
        return { data: await load(id, user), message: `${singular} updated.` };
      },
    });
  }

  if (offers('delete')) {
    const remove = async (ids: readonly number[], user: SessionUser) =>
      db.transaction(async (tx) => {
        const removed = await table.remove(tx, ids, scopeOf(user));
        if (removed !== ids.length) throw notFound(singular);
        await behaviour.afterDelete?.(ids, { app, tx, user });
        return removed;
      });
    app.delete<{ Params: { id: number } }>(`${base}/:id`, {
      config: { access: can('delete') },
      schema: { params: idParams },
      handler: async (request) => {
        await remove([request.params.id], currentUser(request));
        return { message: `${singular} deleted.` };
      },
    });
    app.delete<{ Body: { ids: number[] } }>(base, {
      config: { access: can('delete') },
      schema: { body: idsBody },
      handler: async (request) => {
        const deleted = await remove(request.body.ids, currentUser(request));
        return { data: { deleted }, message: `${deleted} record(s) deleted.` };
      },
    });
  }

  if (offers('ACTIVE_INACTIVE')) {
    app.patch<{ Params: { id: number }; Body: { is_active: boolean } }>(`${base}/:id/status`, {
      config: { access: can('ACTIVE_INACTIVE') },
      schema: { params: idParams, body: statusBody },
      handler: async (request) => {
        const user = currentUser(request);
        if ((await table.setActive(db, [request.params.id], request.body.is_active, scopeOf(user))) !== 1) throw notFound(singular);
        return { data: await load(request.params.id, user), message: `${singular} ${request.body.is_active ? 'activated' : 'deactivated'}.` };
      },
    });
    app.patch<{ Body: { ids: number[]; is_active: boolean } }>(`${base}/status`, {
      config: { access: can('ACTIVE_INACTIVE') },
      schema: { body: bulkStatusBody },
      handler: async (request) => {
        const user = currentUser(request);
        const updated = await db.transaction(async (tx) => {
          const count = await table.setActive(tx, request.body.ids, request.body.is_active, scopeOf(user));
          if (count !== request.body.ids.length) throw notFound(singular);
          return count;
        });
        return { data: { updated }, message: `${updated} record(s) updated.` };
      },
    });
  }

  if (offers('download')) {
    app.get<{ Querystring: ListQueryString }>(`${base}/export`, {
      config: { access: can('download') },
      schema: { querystring: exportQuerySchema(resource) },
      handler: async (request, reply) => exportCsv(app, reply, resource, table, request.query, scopeOf(currentUser(request))),
    });
  }

  if (offers('verify')) {
    app.post<{ Params: { id: number } }>(`${base}/:id/verify`, {
      config: { access: can('verify') },
      schema: { params: idParams },
      handler: async (request) => {
        const user = currentUser(request);
        await load(request.params.id, user);
        await db.query(
          `INSERT INTO verifications (module, record_id, verified_by) VALUES ($1, $2, $3)
           ON CONFLICT (module, record_id) DO UPDATE SET verified_by = excluded.verified_by, verified_at = now()`,
          [resource.key, request.params.id, user.id],
        );
        return { data: await load(request.params.id, user), message: `${singular} verified.` };
      },
    });
  }
}

function listQuery(resource: EntityResource, query: ListQueryString): ListQuery {
  const { _page, _page_size, _sort, _order, q, _columns: _ignored, ...filters } = query;
  const sorted = _sort ?? resource.list.sort.field;
  return {
    page: _page,
    pageSize: _page_size,
    sort: sorted,
    order: _order ?? (_sort ? 'asc' : resource.list.sort.direction),
    q: q && q.trim() !== '' ? q.trim() : undefined,
    filters,
  };
}

/** The stored columns of a validated body: confirmations dropped, JSON fields serialised, passwords hashed. */
async function columnValues(app: FastifyInstance, resource: EntityResource, body: Body): Promise<Record<string, unknown>> {
  const values: Record<string, unknown> = {};
  const properties = (resource.entity.createSchema.properties ?? {}) as Record<string, Record<string, unknown>>;
  for (const field of resource.entity.fields) {
    if (field.system || field.readOnly || !(field.name in body)) continue;
    const value = body[field.name];
    if (field.writeOnly) {
      // A confirmation is never stored; a user's password is stored as its hash by the USERS behaviour.
      if (properties[field.name]?.compareTo !== undefined || resource.key === MODULE.users) continue;
      if (field.format === 'password' && typeof value === 'string') {
        values[field.name] = await app.passwords.hash(value);
        continue;
      }
    }
    values[field.name] = field.type === 'array' || field.type === 'object' ? JSON.stringify(value) : value;
  }
  return values;
}

/** Options for selects: view of the resource itself, or any permission on a resource that relates to it. */
function optionsAccess(resource: EntityResource): Access {
  const relating = ENTITY_RESOURCES.filter((candidate) => candidate.entity.fields.some((field) => field.relation?.resource === resource.key));
  return {
    description: resource.key,
    allows: (grants) => grants.can(resource.key, 'view') || relating.some((candidate) => grants.canAny(candidate.key)),
  };
}

function optionLabelField(resource: EntityResource): string {
  for (const candidate of RESOURCES) {
    const relation = candidate.entity?.fields.find((field) => field.relation?.resource === resource.key)?.relation;
    if (relation) return relation.labelField;
  }
  return resource.entity.fields.find((field) => field.type === 'string' && !field.writeOnly && !field.system)?.name ?? 'id';
}

async function options(app: FastifyInstance, resource: EntityResource, q: string | undefined): Promise<Array<{ value: number; label: string }>> {
  const label = quoted(optionLabelField(resource));
  const needle = (q ?? '').trim().toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`);
  return app.db.query(
    `SELECT id AS value, coalesce(${label}::text, id::text) AS label FROM ${quoted(resource.entity.table)}
      WHERE is_active AND ($1 = '' OR lower(${label}::text) LIKE '%' || $1 || '%') ORDER BY ${label}, id LIMIT 50`,
    [needle],
  );
}

async function exportCsv(
  app: FastifyInstance,
  reply: FastifyReply,
  resource: EntityResource,
  table: ResourceTable,
  query: ListQueryString,
  scope: Scope | null,
): Promise<FastifyReply> {
  const { page: _page, pageSize: _pageSize, ...listed } = listQuery(resource, query);
  const fields = listableFields(resource);
  const wanted = query._columns ? query._columns.split(',') : resource.list.columns.filter((name) => fields.some((field) => field.name === name));
  const chosen = wanted.map((name) => fields.find((field) => field.name === name)!).filter(Boolean);
  async function* lines(): AsyncGenerator<string> {
    yield csvLine(chosen.map((field) => field.title));
    for await (const rows of table.batches(app.db, listed, scope, EXPORT_BATCH, EXPORT_MAX_ROWS)) {
      yield rows.map((row) => csvLine(chosen.map((field) => (field.relation ? (row[`${field.name}_label`] ?? row[field.name]) : row[field.name])))).join('');
    }
  }
  const day = new Date().toISOString().slice(0, 10);
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${resource.api.replace(/\//g, '-')}-${day}.csv"`)
    .send(Readable.from(lines()));
}

