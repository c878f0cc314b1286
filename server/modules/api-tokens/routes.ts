import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import {
  API_TOKEN_LIMITS,
  API_TOKEN_PREFIX,
  MODULES_NO_TOKEN_REACHES,
  type TokenPermissions,
} from '../../../contract/apiTokens.ts';
import { MODULE } from '../../../contract/modules.ts';
import { actorOf, recordAudit } from '../audit/record.ts';
import { currentUser, permission } from '../auth/access.ts';
import type { Grants } from '../auth/grants.ts';
import { hashToken } from '../auth/tokens.ts';
import { errorAnswers } from '../../http/answers.ts';
import { conflict, notFound, validationError } from '../../http/errors.ts';
import { idParams, type PageQuery } from '../../http/requestSchemas.ts';
import { resource } from '../../registry.ts';
import { TOKEN_BODY, TOKEN_CREATED, TOKEN_REVOKED, TOKENS_ANSWER, tokensQuery } from './schemas.ts';
import { tokenStore } from './store.ts';

interface TokenWrite {
  name: string;
  permissions: TokenPermissions;
  expires_at: string;
}

const DAY_MS = 86_400_000;
/** Characters of the secret kept in the clear to tell tokens apart: the prefix and four of the random part. */
const SHOWN_CHARACTERS = API_TOKEN_PREFIX.length + 4;

/** `api-tokens` (docs/api.md, "API tokens"): machine credentials, made, listed and revoked by administrators. */
export async function apiTokenRoutes(app: FastifyInstance): Promise<void> {
  const module = MODULE.apiTokens;
  if (!resource(module)) return;
  const tags = [resource(module)!.label];

  app.get<{ Querystring: PageQuery }>('/api-tokens', {
    config: { access: permission(module, 'view') },
    schema: {
      tags,
      operationId: 'listApiTokens',
      summary: 'List API tokens',
      description: 'Every token, whoever made it, with its permissions, creator, last use and expiry; never a secret.',
      querystring: tokensQuery,
      response: { 200: TOKENS_ANSWER, ...errorAnswers(400, 401, 403) },
    },
    handler: async (request) => {
      const { _page: page, _page_size: pageSize } = request.query;
      const { tokens, total } = await tokenStore.page(app.db, page, pageSize);
      return { data: tokens, meta: { total, page, page_size: pageSize } };
    },
  });

  app.post<{ Body: TokenWrite }>('/api-tokens', {
    config: { access: permission(module, 'add'), audit: { action: 'create' } },
    schema: {
      tags,
      operationId: 'createApiToken',
      summary: 'Make an API token',
      description: `A token acting for the caller, narrowed to the module actions it names (each one the caller's role has). The secret is in the answer once. At most ${API_TOKEN_LIMITS.liveTokens} live tokens at once (409 beyond).`,
      body: TOKEN_BODY,
      response: { 201: TOKEN_CREATED, ...errorAnswers(400, 401, 403, 409) },
    },
    handler: async (request, reply) => {
      const user = currentUser(request);
      const permissions = checkedPermissions(request.body.permissions, user.grants);
      const expiresAt = checkedExpiry(request.body.expires_at);
      const secret = `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
      const token = await app.db.transaction(async (tx) => {
        if ((await tokenStore.liveCount(tx)) >= API_TOKEN_LIMITS.liveTokens)
          throw conflict(
            `There are ${API_TOKEN_LIMITS.liveTokens} live API tokens, the most there may be: revoke one first.`,
          );
        const name = request.body.name.trim();
        const id = await tokenStore.insert(tx, {
          name,
          permissions,
          expiresAt,
          createdBy: user.id,
          hash: hashToken(secret),
          prefix: secret.slice(0, SHOWN_CHARACTERS),
        });
        await recordAudit(tx, actorOf(request), {
          module,
          recordId: id,
          action: 'create',
          details: { name, permissions, expires_at: expiresAt },
        });
        return (await tokenStore.one(tx, id))!;
      });
      return reply.code(201).send({
        data: { ...token, token: secret },
        message: `API token "${token.name}" made. Copy it now: it is not shown again.`,
      });
    },
  });

  app.delete<{ Params: { id: number } }>('/api-tokens/:id', {
    config: { access: permission(module, 'delete'), audit: { action: 'revoke' } },
    schema: {
      tags,
      operationId: 'revokeApiToken',
      summary: 'Revoke an API token',
      description: 'Its next request is refused, on every instance. The token stays listed as revoked.',
      params: idParams,
      response: { 200: TOKEN_REVOKED, ...errorAnswers(400, 401, 403, 404, 409) },
    },
    handler: async (request) => {
      const user = currentUser(request);
      const { id } = request.params;
      const token = await app.db.transaction(async (tx) => {
        const before = await tokenStore.one(tx, id);
        if (!before) throw notFound('API token');
        if (!(await tokenStore.revoke(tx, id, user.id)))
          throw conflict(`API token "${before.name}" is already revoked.`);
        await recordAudit(tx, actorOf(request), {
          module,
          recordId: id,
          action: 'revoke',
          details: { name: before.name },
        });
        return (await tokenStore.one(tx, id))!;
      });
      return { data: token, message: `API token "${token.name}" revoked.` };
    },
  });
}

/** The permissions as named, each a known action of a module a token may reach that the caller's role has. */
function checkedPermissions(named: TokenPermissions, grants: Grants): TokenPermissions {
  const problems: string[] = [];
  for (const [module, actions] of Object.entries(named)) {
    const known = resource(module)?.actions;
    if (!known) problems.push(`${module} is not a module`);
    else if (MODULES_NO_TOKEN_REACHES.has(module)) problems.push(`no token reaches ${resource(module)!.label}`);
    else
      for (const action of actions) {
        if (!known.includes(action)) problems.push(`${module} has no action "${action}"`);
        else if (!grants.can(module, action)) problems.push(`your role does not have ${module} ${action}`);
      }
  }
  if (problems.length > 0) throw validationError({ permissions: `${problems.join('; ')}.` });
  return named;
}

/** The expiry as an ISO time: in the future, no further than the longest a token may live. */
function checkedExpiry(text: string): string {
  const at = Date.parse(text);
  const now = Date.now();
  if (!Number.isFinite(at) || at <= now) throw validationError({ expires_at: 'Choose a time in the future.' });
  if (at > now + API_TOKEN_LIMITS.maxDays * DAY_MS)
    throw validationError({ expires_at: `A token may live at most ${API_TOKEN_LIMITS.maxDays} days.` });
  return new Date(at).toISOString();
}
