import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MODULE } from '../../../contract/modules.ts';
import { errorAnswers, messageAnswer } from '../../http/answers.ts';
import { notFound } from '../../http/errors.ts';
import { idParams } from '../../http/requestSchemas.ts';
import { resource } from '../../registry.ts';
import { actorOf, recordAudit } from '../audit/record.ts';
import { currentUser, permission } from './access.ts';
import {
  ownSessionParams,
  pageQuery,
  sessionListAnswer,
  signInListAnswer,
  userSessionParams,
} from './sessionSchemas.ts';
import { listLiveSessions, revokeAllSessions, revokeUserSession } from './sessions.ts';
import { listSignIns } from './signIns.ts';

type Page = { _page: number; _page_size: number };

/**
 * A user's own sessions and sign-in history (profile), and an administrator's view of another user's (the user's
 * detail screen). Ending a session revokes it: its refresh token is refused at once, its access token at its next
 * request (every request reads its session). docs/api.md, "Sessions and sign-in history".
 */
export async function sessionRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;
  const ownTags = ['Session'];
  const userTags = [resource(MODULE.users)?.label ?? 'Users'];

  /** A user the caller may see: an administrator's scope on USERS holds here as on the user's record. */
  const visibleUser = async (request: FastifyRequest, id: number) => {
    const users = app.records.named(MODULE.users);
    if (!(await users.table.visible(db, [id], users.scopeOf(currentUser(request))))) throw notFound('User');
    return id;
  };
  /** The page a request asks for of a list, answered with the list's total and the page's number and size. */
  const answerPage = async <T>(
    request: FastifyRequest<{ Querystring: Page }>,
    read: (number: number, size: number) => Promise<{ data: T[]; total: number }>,
  ) => {
    const { _page: number, _page_size: size } = request.query;
    const { data, total } = await read(number, size);
    return { data, meta: { total, page: number, page_size: size } };
  };

  app.get<{ Querystring: Page }>('/user/sessions', {
    config: { access: 'signed-in' },
    schema: {
      tags: ownTags,
      operationId: 'listOwnSessions',
      summary: "The caller's live sessions",
      querystring: pageQuery,
      response: { 200: sessionListAnswer, ...errorAnswers(400, 401) },
    },
    handler: async (request) => {
      const user = currentUser(request);
      return answerPage(request, (number, size) => listLiveSessions(db, user.id, user.sessionId, number, size));
    },
  });

  app.delete<{ Params: { sessionId: string } }>('/user/sessions/:sessionId', {
    config: { access: 'signed-in', audit: { action: 'session_end' } },
    schema: {
      tags: ownTags,
      operationId: 'endOwnSession',
      summary: "End one of the caller's sessions",
      description: 'Ending the current session signs the caller out. 404 when the caller has no such live session.',
      params: ownSessionParams,
      response: { 200: messageAnswer('Ended.'), ...errorAnswers(400, 401, 404) },
    },
    handler: async (request) => {
      const user = currentUser(request);
      const { sessionId } = request.params;
      await db.transaction(async (tx) => {
        if (!(await revokeUserSession(tx, user.id, sessionId))) throw notFound('Session');
        await recordAudit(tx, actorOf(request), {
          module: MODULE.users,
          recordId: user.id,
          action: 'session_end',
          details: { sessions: [sessionId] },
        });
      });
      return { message: 'The session has ended.' };
    },
  });

  app.delete('/user/sessions', {
    config: { access: 'signed-in', audit: { action: 'session_end' } },
    schema: {
      tags: ownTags,
      operationId: 'endOtherOwnSessions',
      summary: 'Sign out everywhere else',
      description: "Ends every live session of the caller's but the one of this request.",
      response: { 200: messageAnswer('Ended.'), ...errorAnswers(400, 401) },
    },
    handler: async (request) => {
      const user = currentUser(request);
      const ended = await db.transaction(async (tx) => {
        const sessions = await revokeAllSessions(tx, user.id, user.sessionId);
        await recordAudit(tx, actorOf(request), {
          module: MODULE.users,
          recordId: user.id,
          action: 'session_end',
          details: { sessions, everywhere_else: true },
        });
        return sessions.length;
      });
      return {
        message:
          ended === 0
            ? 'You had no other session.'
            : `Signed out everywhere else: ${ended} other session${ended === 1 ? '' : 's'} ended.`,
      };
    },
  });

  app.get<{ Querystring: Page }>('/user/sign-ins', {
    config: { access: 'signed-in' },
    schema: {
      tags: ownTags,
      operationId: 'listOwnSignIns',
      summary: "Sign-in attempts on the caller's account",
      querystring: pageQuery,
      response: { 200: signInListAnswer, ...errorAnswers(400, 401) },
    },
    handler: async (request) => {
      return answerPage(request, (number, size) => listSignIns(db, currentUser(request).id, number, size));
    },
  });

  app.get<{ Params: { id: number }; Querystring: Page }>('/users/:id/sessions', {
    config: { access: permission(MODULE.users, 'view_detail') },
    schema: {
      tags: userTags,
      operationId: 'listUserSessions',
      summary: "A user's live sessions",
      params: idParams,
      querystring: pageQuery,
      response: { 200: sessionListAnswer, ...errorAnswers(400, 401, 403, 404) },
    },
    handler: async (request) => {
      const id = await visibleUser(request, request.params.id);
      return answerPage(request, (number, size) =>
        listLiveSessions(db, id, currentUser(request).sessionId, number, size),
      );
    },
  });

  app.delete<{ Params: { id: number; sessionId: string } }>('/users/:id/sessions/:sessionId', {
    config: { access: permission(MODULE.users, 'edit'), audit: { action: 'session_end' } },
    schema: {
      tags: userTags,
      operationId: 'endUserSession',
      summary: "End one of a user's sessions",
      description: '404 when the user has no such live session.',
      params: userSessionParams,
      response: { 200: messageAnswer('Ended.'), ...errorAnswers(400, 401, 403, 404) },
    },
    handler: async (request) => {
      const id = await visibleUser(request, request.params.id);
      const { sessionId } = request.params;
      await db.transaction(async (tx) => {
        if (!(await revokeUserSession(tx, id, sessionId))) throw notFound('Session');
        await recordAudit(tx, actorOf(request), {
          module: MODULE.users,
          recordId: id,
          action: 'session_end',
          details: { sessions: [sessionId] },
        });
      });
      return { message: 'The session has ended.' };
    },
  });

  app.get<{ Params: { id: number }; Querystring: Page }>('/users/:id/sign-ins', {
    config: { access: permission(MODULE.users, 'view_detail') },
    schema: {
      tags: userTags,
      operationId: 'listUserSignIns',
      summary: "Sign-in attempts on a user's account",
      params: idParams,
      querystring: pageQuery,
      response: { 200: signInListAnswer, ...errorAnswers(400, 401, 403, 404) },
    },
    handler: async (request) => {
      const id = await visibleUser(request, request.params.id);
      return answerPage(request, (number, size) => listSignIns(db, id, number, size));
    },
  });
}
