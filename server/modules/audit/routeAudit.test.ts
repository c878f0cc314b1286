import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { requireAuditDeclarations, type RouteAudit } from './routeAudit.ts';

/** A server with one route under the audit check; the error its start gives, or null when it starts. */
async function startWith(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  audit?: unknown,
): Promise<string | null> {
  const app = Fastify();
  try {
    await app.register(
      async (api) => {
        requireAuditDeclarations(api);
        api.route({
          method,
          url,
          config: audit === undefined ? {} : { audit: audit as RouteAudit },
          handler: async () => ({}),
        });
      },
      { prefix: '/api/v1' },
    );
    await app.ready();
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await app.close();
  }
}

describe('a write route states what it records, or the server does not start', () => {
  it('refuses a POST, PUT, PATCH or DELETE that states nothing, and names it', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      expect(await startWith(method, '/things')).toBe(
        `${method} /api/v1/things: it declares no config.audit (server/modules/audit/routeAudit.ts)`,
      );
    }
    expect(await startWith('GET', '/things')).toBeNull();
  });

  it('accepts an action or several of the vocabulary, or none with a reason', async () => {
    expect(await startWith('POST', '/things', { action: 'create' })).toBeNull();
    expect(await startWith('POST', '/login', { action: ['login', 'login_failed'] })).toBeNull();
    expect(await startWith('POST', '/token/refresh', { none: 'Rotates a token.' })).toBeNull();
  });

  it('refuses an action outside the vocabulary, an empty list and none without a reason', async () => {
    expect(await startWith('POST', '/things', { action: 'stolen' })).toMatch(
      /"stolen" is not in contract\/audit.ts AUDIT_ACTIONS/,
    );
    expect(await startWith('POST', '/things', { action: [] })).toMatch(/names no action/);
    expect(await startWith('POST', '/things', { none: ' ' })).toMatch(/must give the reason/);
    expect(await startWith('POST', '/things', false)).toMatch(/must be \{ action \} or \{ none: reason \}/);
  });
});
