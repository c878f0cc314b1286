import type { FastifyInstance, RouteOptions } from 'fastify';
import { AUDIT_ACTIONS, type AuditAction } from '../../../contract/audit.ts';

/**
 * What a write route records in the audit log, stated in its definition (`config.audit`) as its access rule is, so a
 * route cannot change data without saying what trace it leaves:
 * - `{ action }`: the action (or actions, e.g. `login` and `login_failed`) of the entries it writes, in the
 *   transaction of its change. A generic resource route states its own, e.g. `{ action: 'create' }`.
 * - `{ none: reason }`: the route changes nothing a person audits (a token rotation, a link check); the reason says why.
 */
export type RouteAudit = { action: AuditAction | readonly AuditAction[] } | { none: string };

declare module 'fastify' {
  interface FastifyContextConfig {
    audit?: RouteAudit;
  }
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The actions a route declares it records; empty for `{ none }` or no declaration. */
export function declaredActions(audit: RouteAudit | undefined): readonly AuditAction[] {
  if (!audit || !('action' in audit)) return [];
  return typeof audit.action === 'string' ? [audit.action] : audit.action;
}

export function isWriteRoute(route: Pick<RouteOptions, 'method'>): boolean {
  return [route.method].flat().some((method) => WRITE_METHODS.has(method));
}

/** Why a route's declaration is refused, or null when it is sound. */
export function auditDeclarationProblem(audit: unknown): string | null {
  if (audit === undefined) return 'it declares no config.audit';
  if (typeof audit !== 'object' || audit === null) return 'config.audit must be { action } or { none: reason }';
  if ('none' in audit)
    return typeof audit.none === 'string' && audit.none.trim() !== '' ? null : 'config.audit.none must give the reason';
  if (!('action' in audit)) return 'config.audit must be { action } or { none: reason }';
  const actions = [audit.action].flat();
  if (actions.length === 0) return 'config.audit.action names no action';
  const unknown = actions.find((action) => typeof action !== 'string' || !Object.hasOwn(AUDIT_ACTIONS, action));
  return unknown === undefined
    ? null
    : `config.audit.action ${JSON.stringify(unknown)} is not in contract/audit.ts AUDIT_ACTIONS`;
}

/**
 * Refuses to register, so the server does not start, any write route of `scope` registered from now on that does not
 * state what it records.
 */
export function requireAuditDeclarations(scope: FastifyInstance): void {
  scope.addHook('onRoute', (route) => {
    if (!isWriteRoute(route)) return;
    const problem = auditDeclarationProblem(route.config?.audit);
    if (problem)
      throw new Error(
        `${[route.method].flat().join(',')} ${route.url}: ${problem} (server/modules/audit/routeAudit.ts)`,
      );
  });
}
