import type { FastifyInstance, FastifyRequest } from 'fastify';
import { actorOf, recordAudit } from '../audit/record.ts';
import { currentUser, permission } from '../auth/access.ts';
import type { SessionUser } from '../auth/session.ts';
import type { Queryable } from '../../db/database.ts';
import { errorAnswers, messageAnswer } from '../../http/answers.ts';
import { notFound, validationError } from '../../http/errors.ts';
import { resourceRouteDocs } from '../../http/routeDocs.ts';
import { etagOf, expectedVersion, IF_MATCH_HEADER, staleRecord } from '../../http/recordVersion.ts';
import { idParams } from '../../http/requestSchemas.ts';
import { ENTITY_RESOURCES, type EntityResource } from '../../registry.ts';
import { listableFields } from '../resources/schemas.ts';
import { hasFullAccess } from '../users-and-roles/fullAccess.ts';
import { roleExists } from '../users-and-roles/roles.ts';
import { SAVED_VIEW_LIMITS } from '../../../contract/savedViews.ts';
import {
  PREFERENCES_SAVED,
  preferencesBody,
  VIEW_ANSWER,
  VIEW_BODY,
  VIEW_SAVED,
  VIEWS_ANSWER,
  viewsQuery,
} from './schemas.ts';
import {
  ViewStore,
  type StoredPreferences,
  type StoredView,
  type Viewer,
  type ViewPlace,
  type ViewWrite,
} from './store.ts';
import { checkViewQuery } from './viewQuery.ts';

/** `views/<list>` and `list-preferences/<list>` of every resource with a list (docs/api.md, "Saved views and list settings"). */
export async function viewRoutes(app: FastifyInstance): Promise<void> {
  for (const resource of ENTITY_RESOURCES) if (resource.actions.includes('view')) registerViews(app, resource);
}

const viewerOf = (user: SessionUser): Viewer => ({ id: user.id, roleId: user.roleId });

function registerViews(app: FastifyInstance, resource: EntityResource): void {
  const store = new ViewStore(resource.key);
  const viewsPath = `/views/${resource.api}`;
  const config = { access: permission(resource.key, 'view') };
  const { singular, about } = resourceRouteDocs(resource);
  const list = `the ${resource.label.toLowerCase()} list`;

  const answerOf = (view: StoredView, user: SessionUser) => ({
    ...view,
    mine: view.owner_id === user.id,
    ...checkViewQuery(resource, view.query),
  });
  const loadView = async (db: Queryable, user: SessionUser, id: number) => {
    const view = await store.visibleOne(db, viewerOf(user), id);
    if (!view) throw notFound('View');
    return answerOf(view, user);
  };
  const audit = (
    tx: Queryable,
    request: FastifyRequest,
    action: 'view_saved' | 'view_deleted' | 'list_preferences',
    details: Record<string, unknown>,
  ) => recordAudit(tx, actorOf(request), { module: resource.key, action, details: { list: resource.key, ...details } });

  /**
   * A view as written: its query must name only what the list has and fit its size, it may be shared with the caller's
   * own role (any role with full access), and where it lands (`before`: where it was) must have room for it.
   */
  const judged = async (
    db: Queryable,
    user: SessionUser,
    body: ViewWrite,
    before: { id: number; shared_role_id: number | null } | null,
  ): Promise<ViewWrite> => {
    const { query, dropped } = checkViewQuery(resource, body.query);
    if (dropped.length > 0) throw validationError({ query: `Not part of ${list}: ${dropped.join(', ')}.` });
    const bytes = Buffer.byteLength(JSON.stringify(query));
    if (bytes > SAVED_VIEW_LIMITS.definitionBytes) {
      throw validationError({
        query: `A view holds at most ${SAVED_VIEW_LIMITS.definitionBytes.toLocaleString('en')} bytes of search, filters and settings (as JSON); this one has ${bytes.toLocaleString('en')}.`,
      });
    }
    const shared = body.shared_role_id ?? null;
    if (shared !== null && shared !== user.roleId) {
      if (!hasFullAccess(user.grants))
        throw validationError({ shared_role_id: 'You can share a view with your own role only.' });
      if (!(await roleExists(db, shared))) throw validationError({ shared_role_id: 'No such role.' });
    }
    // A view that stays where it was takes no more room there, even where older views fill it past the limit.
    if (!before || before.shared_role_id !== shared)
      await checkRoom(db, shared === null ? { private: user.id } : { sharedWith: shared }, before?.id ?? null);
    return { name: body.name.trim(), query, shared_role_id: shared };
  };
  const checkRoom = async (db: Queryable, place: ViewPlace, except: number | null) => {
    const count = await store.countIn(db, place, except);
    if ('private' in place && count >= SAVED_VIEW_LIMITS.privatePerUser) {
      throw validationError({
        shared_role_id: `You have ${count} private views of ${list}, the most a user may keep (${SAVED_VIEW_LIMITS.privatePerUser}): delete one first.`,
      });
    }
    if ('sharedWith' in place && count >= SAVED_VIEW_LIMITS.sharedPerRole) {
      throw validationError({
        shared_role_id: `This role has ${count} views of ${list} shared with it, the most a role may have (${SAVED_VIEW_LIMITS.sharedPerRole}): one must be deleted or made private first.`,
      });
    }
  };

  app.get<{ Querystring: { _page: number; _page_size: number } }>(viewsPath, {
    config,
    schema: {
      ...about(`list${singular}Views`, `Saved views and settings of ${list}`, 'The views by name, a page at a time.'),
      querystring: viewsQuery,
      response: { 200: VIEWS_ANSWER, ...errorAnswers(400, 401, 403) },
    },
    handler: async (request) => {
      const user = currentUser(request);
      const { _page: page, _page_size: pageSize } = request.query;
      const { views, total, preferences, shareRoles } = await store.opening(
        app.db,
        viewerOf(user),
        hasFullAccess(user.grants),
        { page, pageSize },
      );
      return {
        data: {
          views: views.map((view) => answerOf(view, user)),
          preferences: checkedPreferences(resource, preferences),
          share_roles: shareRoles,
        },
        meta: { total, page, page_size: pageSize },
      };
    },
  });

  app.get<{ Params: { id: number } }>(`${viewsPath}/:id`, {
    config,
    schema: {
      ...about(
        `get${singular}View`,
        `One saved view of ${list}`,
        'One the caller may open (their own, or shared with their role), whichever page of the list holds it.',
      ),
      params: idParams,
      response: { 200: VIEW_ANSWER, ...errorAnswers(400, 401, 403, 404) },
    },
    handler: async (request, reply) => {
      const view = await loadView(app.db, currentUser(request), request.params.id);
      return reply.header('etag', etagOf(view.version)).send({ data: view });
    },
  });

  app.post<{ Body: ViewWrite }>(viewsPath, {
    config: { ...config, audit: { action: 'view_saved' } },
    schema: {
      ...about(`save${singular}View`, `Save a view of ${list}`),
      body: VIEW_BODY,
      response: { 201: VIEW_SAVED, ...errorAnswers(400, 401, 403) },
    },
    handler: async (request, reply) => {
      const user = currentUser(request);
      const view = await app.db.transaction(async (tx) => {
        const written = await judged(tx, user, request.body, null);
        const id = await store.insert(tx, user.id, written);
        await audit(tx, request, 'view_saved', {
          view_id: id,
          name: written.name,
          shared_role_id: written.shared_role_id,
        });
        return loadView(tx, user, id);
      });
      return reply
        .code(201)
        .header('etag', etagOf(view.version))
        .send({ data: view, message: `View "${view.name}" saved.` });
    },
  });

  app.put<{ Params: { id: number }; Body: ViewWrite }>(`${viewsPath}/:id`, {
    config: { ...config, audit: { action: 'view_saved' } },
    schema: {
      ...about(
        `update${singular}View`,
        `Rename, share or change a view of ${list}`,
        'Its owner only; the body is the whole view.',
      ),
      params: idParams,
      headers: IF_MATCH_HEADER,
      body: VIEW_BODY,
      response: { 200: VIEW_SAVED, ...errorAnswers(400, 401, 403, 404, 412, 428) },
    },
    handler: async (request, reply) => {
      const user = currentUser(request);
      const expected = expectedVersion(request);
      const { id } = request.params;
      const view = await app.db.transaction(async (tx) => {
        const before = await store.owned(tx, user.id, id);
        if (!before) throw notFound('View');
        const written = await judged(tx, user, request.body, { id, ...before });
        if (!(await store.update(tx, user.id, id, written, expected)))
          throw (await store.owned(tx, user.id, id)) ? staleRecord('view') : notFound('View');
        await audit(tx, request, 'view_saved', {
          view_id: id,
          name: written.name,
          shared_role_id: written.shared_role_id,
        });
        return loadView(tx, user, id);
      });
      return reply.header('etag', etagOf(view.version)).send({ data: view, message: `View "${view.name}" saved.` });
    },
  });

  app.delete<{ Params: { id: number } }>(`${viewsPath}/:id`, {
    config: { ...config, audit: { action: 'view_deleted' } },
    schema: {
      ...about(`delete${singular}View`, `Delete a view of ${list}`, 'Its owner only.'),
      params: idParams,
      headers: IF_MATCH_HEADER,
      response: { 200: messageAnswer('Deleted.'), ...errorAnswers(400, 401, 403, 404, 412, 428) },
    },
    handler: async (request) => {
      const user = currentUser(request);
      const expected = expectedVersion(request);
      const { id } = request.params;
      const name = await app.db.transaction(async (tx) => {
        const removed = await store.remove(tx, user.id, id, expected);
        if (!removed) throw (await store.owned(tx, user.id, id)) ? staleRecord('view') : notFound('View');
        await audit(tx, request, 'view_deleted', { view_id: id, name: removed.name });
        return removed.name;
      });
      return { message: `View "${name}" deleted.` };
    },
  });

  app.put<{ Body: Partial<StoredPreferences> }>(`/list-preferences/${resource.api}`, {
    config: { ...config, audit: { action: 'list_preferences' } },
    schema: {
      ...about(
        `set${singular}ListPreferences`,
        `Set the caller's columns and default view of ${list}`,
        "What the body names changes; the rest stays. Null resets to the manifest's columns, or to no default view.",
      ),
      body: preferencesBody(resource),
      response: { 200: PREFERENCES_SAVED, ...errorAnswers(400, 401, 403) },
    },
    handler: async (request) => {
      const user = currentUser(request);
      const change = request.body;
      const preferences = await app.db.transaction(async (tx) => {
        if (change.default_view_id != null && !(await store.visibleOne(tx, viewerOf(user), change.default_view_id))) {
          throw validationError({ default_view_id: 'No such view of this list that you may open.' });
        }
        await store.savePreferences(tx, user.id, change);
        await audit(tx, request, 'list_preferences', change);
        return store.preferences(tx, user.id);
      });
      return { data: checkedPreferences(resource, preferences) };
    },
  });
}

/** The settings with the columns the list no longer has left out. */
function checkedPreferences(resource: EntityResource, preferences: StoredPreferences) {
  const fields = new Set(listableFields(resource).map((field) => field.name));
  const columns = preferences.columns?.filter((name) => fields.has(name)) ?? null;
  return {
    columns: columns && columns.length > 0 ? columns : null,
    default_view_id: preferences.default_view_id,
    dropped: preferences.columns?.filter((name) => !fields.has(name)) ?? [],
  };
}
