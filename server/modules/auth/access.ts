import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_TOKEN_PREFIX } from '../../../contract/apiTokens.ts';
import { PERMISSIONS_VERSION_HEADER } from '../../../contract/headers.ts';
import { operatorToken } from '../../backup/backup.ts';
import { forbidden, HttpError, unauthorized } from '../../http/errors.ts';
import type { Grants } from './grants.ts';
import type { SessionUser } from './session.ts';
import { SessionLookups } from './sessionLookups.ts';
import { verifyAccessToken } from './tokens.ts';
import { tokenCaller } from './apiTokenCaller.ts';

/** A module permission; without `action`, any action the module offers. */
export interface ModulePermission {
  module: string;
  action?: string;
}

/**
 * Who may call a route, as data, so the OpenAPI document states it as the server checks it (`x-permission`). Every
 * API route states one; a route that states none is refused (deny by default).
 * - `public`: anyone (login, password reset, the signed upload URL which carries its own signature)
 * - `development`: anyone, on a server not in production (the development mailbox); with NODE_ENV=production the
 *   route answers as a path no route serves (404)
 * - `metrics`: a scraper: the METRICS_TOKEN bearer token; without one set, callers on this machine (loopback) of a
 *   server not in production, and for anyone else the route answers as a path no route serves (404)
 * - `operator`: whoever can read the data folder or the server's environment (`npm run backup`): the bearer token
 *   derived from the JWT secret, from this machine (loopback) only; anyone else gets a 404
 * - `signed-in`: any valid session (own permissions, own notifications, logout), once the user has the second factor
 *   their role may require
 * - `enrolling`: any valid session, also one whose role requires a second factor not enrolled yet (the enrolment
 *   routes: every other route refuses such a session with 403 `two_factor_enrolment_required`)
 * - a permission: the caller's role must grant that module action
 * - `anyOf` / `allOf`: for checks that depend on several permissions
 */
export type Access =
  | 'public'
  | 'development'
  | 'metrics'
  | 'operator'
  | 'signed-in'
  | 'enrolling'
  | Required<ModulePermission>
  | { anyOf: ModulePermission[] }
  | { allOf: Array<Required<ModulePermission>> };

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    user: SessionUser | null;
  }
}

export function permission(module: string, action: string): Access {
  return { module, action };
}

/** Every one of `actions` of `module` (an export asks for download on top of view). */
export function allPermissions(module: string, ...actions: string[]): Access {
  return { allOf: actions.map((action) => ({ module, action })) };
}

/** The signed-in user of a request whose route requires one. */
export function currentUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw unauthorized();
  return request.user;
}

/** The answer to a session whose role requires a second factor it has not enrolled, on any other than enrolment routes. */
export const ENROLMENT_REQUIRED = 'two_factor_enrolment_required';
function enrolmentRequired(): HttpError {
  return new HttpError(
    403,
    'Your role requires two-factor sign-in. Add an authenticator app or a passkey before you continue.',
    undefined,
    {},
    ENROLMENT_REQUIRED,
  );
}

/** A token reaches routes that require a module permission; a person's own (profile, sessions, logout) are theirs. */
function personalRoute(): HttpError {
  return new HttpError(
    403,
    "An API token reaches only routes that require a module permission: this one is for a person's own account.",
  );
}

/** The session checks of each database (tests run many apps, each on its own database, in one process). */
const sessionLookups = new WeakMap<object, SessionLookups>();

/**
 * Checks the access rule of the route Fastify matched, for every request, whatever spelling of the path led there
 * (`/%61pi/...` is routed as `/api/...`, so no test of the URL text may decide). A request that matched no route
 * reaches only the not-found handler; a matched route without a rule is refused.
 */
export function registerAccessControl(app: FastifyInstance, secret: Uint8Array): void {
  app.decorateRequest('user', null);
  app.addHook('onRequest', async (request, reply) => {
    if (request.is404) return;
    const access = request.routeOptions.config.access;
    if (access === 'public') return;
    if (access === 'development') return app.config.production ? reply.callNotFound() : undefined;
    if (access === 'metrics') return checkScraper(app, request, reply);
    if (access === 'operator') return checkOperator(app, request, reply);
    if (access === undefined) throw forbidden('this module', 'use this route');
    request.user = await authenticate(app, request, secret);
    if (!request.user) throw unauthorized();
    // On a refusal too: a 403 may be the first the console hears of a permission change.
    reply.header(PERMISSIONS_VERSION_HEADER, request.user.permissionsVersion);
    if (request.user.apiToken && (access === 'enrolling' || access === 'signed-in')) throw personalRoute();
    if (access === 'enrolling') return;
    if (request.user.mustEnrol) throw enrolmentRequired();
    if (access === 'signed-in') return;
    if ('module' in access) {
      if (!request.user.grants.can(access.module, access.action)) throw forbidden(access.module, access.action);
      return;
    }
    if (!allows(access, request.user.grants)) throw forbidden(describePermissions(access), 'use this route');
  });
}

/** The `metrics` rule: the scraper's token when one is set, else loopback callers of a server not in production. */
function checkScraper(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply): void {
  const token = app.config.metricsToken;
  if (token !== null) {
    if (!bearerIs(request, token)) throw unauthorized('Send the metrics token as a Bearer token.');
    return;
  }
  if (app.config.production || !fromLoopback(request)) reply.callNotFound();
}

/** The `operator` rule: from this machine, with the token derived from the JWT secret. */
function checkOperator(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply): void {
  if (!fromLoopback(request)) return reply.callNotFound();
  if (!bearerIs(request, operatorToken(app.config.jwtSecret)))
    throw unauthorized("Send the data folder's operator token as a Bearer token.");
}

function fromLoopback(request: FastifyRequest): boolean {
  return /^(?:127\.|::1$|::ffff:127\.)/.test(request.socket.remoteAddress ?? '');
}

/** Whether the request's `Authorization: Bearer` token is `token`, compared in constant time. */
function bearerIs(request: FastifyRequest, token: string): boolean {
  const header = request.headers.authorization ?? '';
  const given = Buffer.from(header.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : '');
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

function allows(access: { anyOf: ModulePermission[] } | { allOf: ModulePermission[] }, grants: Grants): boolean {
  const granted = ({ module, action }: ModulePermission) =>
    action === undefined ? grants.canAny(module) : grants.can(module, action);
  return 'anyOf' in access ? access.anyOf.some(granted) : access.allOf.every(granted);
}

/** Who may call a route, in words: the 403's message and the OpenAPI document's description say it alike. */
export function describeAccess(access: Access): string {
  if (access === 'public') return 'Public: no token needed.';
  if (access === 'development')
    return 'Development only: no token needed on a server not in production; with NODE_ENV=production it answers 404, as a path no route serves.';
  if (access === 'metrics')
    return 'A metrics scraper: `Authorization: Bearer` with METRICS_TOKEN; without METRICS_TOKEN set, open to loopback callers on a server not in production, and 404 to anyone else.';
  if (access === 'operator')
    return "The data folder's operator (`npm run backup`): a bearer token derived from the JWT secret, from loopback only; 404 to anyone else.";
  if (access === 'signed-in') return 'Any signed-in user.';
  if (access === 'enrolling')
    return 'Any signed-in user, also one whose role requires two-factor sign-in and who has not enrolled a second factor yet.';
  return `Requires ${'module' in access ? `${access.module} (${access.action})` : describePermissions(access)}.`;
}

/** `ADMIN_REPORTING (view and download)`, `BANNER (add or edit)`, `VOUCHER (view) or SUBSCRIBERS (any action)`. */
function describePermissions(access: { anyOf: ModulePermission[] } | { allOf: ModulePermission[] }): string {
  const [permissions, joiner] = 'anyOf' in access ? [access.anyOf, ' or '] : [access.allOf, ' and '];
  const byModule = new Map<string, string[]>();
  for (const { module, action } of permissions)
    byModule.set(module, [...(byModule.get(module) ?? []), action ?? 'any action']);
  return [...byModule].map(([module, actions]) => `${module} (${actions.join(joiner)})`).join(joiner);
}

/** Marks every route registered in `scope` from now on as public (the built console's files). */
export function registerPublicRoutes(scope: FastifyInstance): void {
  scope.addHook('onRoute', (route) => {
    route.config = { ...route.config, access: 'public' };
  });
}

/** The session behind a Bearer token, or null when there is none or it is not valid now. */
export async function authenticate(
  app: FastifyInstance,
  request: FastifyRequest,
  secret: Uint8Array,
): Promise<SessionUser | null> {
  const header = request.headers.authorization;
  if (!header?.startsWith('Bearer ')) return null;
  const bearer = header.slice('Bearer '.length).trim();
  let lookups = sessionLookups.get(app.db);
  if (!lookups) sessionLookups.set(app.db, (lookups = new SessionLookups(app.db)));
  if (bearer.startsWith(API_TOKEN_PREFIX)) return tokenCaller(app.db, lookups.grants, bearer);
  const claims = await verifyAccessToken(secret, bearer);
  if (!claims) return null;
  const userId = Number(claims.sub);
  if (!Number.isSafeInteger(userId)) return null;
  return lookups.user(claims.sid, userId);
}
