import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MODULE } from '../../../contract/modules.ts';
import { errorAnswers, messageAnswer } from '../../http/answers.ts';
import { notFound } from '../../http/errors.ts';
import { idParams } from '../../http/requestSchemas.ts';
import { resource } from '../../registry.ts';
import { actorOf } from '../audit/record.ts';
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
import { auditUser } from './userAudit.ts';

type Page = { _page: number; _page_size: number };
type ListPage = { data: unknown[]; total: number };

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
  /**
   * The two pages of one list of a user's (sessions, sign-ins): the caller's own at `/user/<list>`, and any user's at
   * `/users/:id/<list>` for an administrator with view_detail on users, the user in scope. Each is answered with the
   * list's total and the page's number and size. `summaries` are the own page's and the administered page's.
   */
  const userPages = (
    list: string,
    answer: object,
    read: (request: FastifyRequest, userId: number, number: number, size: number) => Promise<ListPage>,
    summaries: Record<'own' | 'user', [operationId: string, summary: string]>,
  ) => {
    for (const own of [true, false]) {
      const [operationId, summary] = summaries[own ? 'own' : 'user'];
      app.get<{ Params: { id: number }; Querystring: Page }>(own ? `/user/${list}` : `/users/:id/${list}`, {
        config: { access: own ? 'signed-in' : permission(MODULE.users, 'view_detail') },
        schema: {
          tags: own ? ownTags : userTags,
          operationId,
          summary,
          ...(own ? {} : { params: idParams }),
          querystring: pageQuery,
          response: { 200: answer, ...(own ? errorAnswers(400, 401) : errorAnswers(400, 401, 403, 404)) },
        },
        handler: async (request) => {
          const id = own ? currentUser(request).id : await visibleUser(request, request.params.id);
          const { _page: number, _page_size: size } = request.query;
          const { data, total } = await read(request, id, number, size);
          return { data, meta: { total, page: number, page_size: size } };
        },
      });
    }
  };
  /** Ends one of a user's live sessions, audited on the user; 404 when the user has no such session. */
  const endSession = async (request: FastifyRequest, userId: number, sessionId: string) => {
    await db.transaction(async (tx) => {
      if (!(await revokeUserSession(tx, userId, sessionId))) throw notFound('Session');
      await auditUser(tx, actorOf(request), userId, 'session_end', { sessions: [sessionId] });
    });
    return { message: 'The session has ended.' };
  };
  const liveSessions = (request: FastifyRequest, userId: number, number: number, size: number) =>
    listLiveSessions(db, userId, currentUser(request).sessionId, number, size);
  const signIns = (_request: FastifyRequest, userId: number, number: number, size: number) =>
    listSignIns(db, userId, number, size);

  userPages('sessions', sessionListAnswer, liveSessions, {
    own: ['listOwnSessions', "The caller's live sessions"],
    user: ['listUserSessions', "A user's live sessions"],
  });
  userPages('sign-ins', signInListAnswer, signIns, {
    own: ['listOwnSignIns', "Sign-in attempts on the caller's account"],
    user: ['listUserSignIns', "Sign-in attempts on a user's account"],
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
    handler: (request) => endSession(request, currentUser(request).id, request.params.sessionId),
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
        await auditUser(tx, actorOf(request), user.id, 'session_end', { sessions, everywhere_else: true });
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
    handler: async (request) =>
      endSession(request, await visibleUser(request, request.params.id), request.params.sessionId),
  });
}
