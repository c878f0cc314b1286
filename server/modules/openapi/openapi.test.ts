import { isDeepStrictEqual } from 'node:util';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAjv } from '../../../validation/createAjv.ts';
import { fieldErrors } from '../../../validation/messages.ts';
import { buildApp } from '../../app.ts';
import { openApiDocument } from './routes.ts';
import type { Access } from '../auth/access.ts';
import { Grants } from '../auth/grants.ts';
import { AREAS, RESOURCES, actionsOf } from '../../registry.ts';
import { startTestServer, type TestServer } from '../../testing/testServer.ts';
import { S3BucketStorage } from '../uploads/s3Storage.ts';
import { MemoryStorage, type FileStorage } from '../uploads/storage.ts';

type Schema = Record<string, any>;
type Storage = 'folder' | 'bucket';

const document = JSON.parse(openApiDocument()) as Schema;
const BASE = '/api/v1';
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

interface DocumentedOperation {
  key: string;
  method: string;
  path: string;
  operation: Schema;
}

/** `POST /api/v1/uploads/:id/file`: a route as Fastify names it. */
function routeKey(method: string, path: string): string {
  return `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`;
}

const operations: DocumentedOperation[] = Object.entries(document.paths as Record<string, Schema>).flatMap(([path, item]) =>
  METHODS.filter((method) => item[method]).map((method) => ({ key: routeKey(method, `${BASE}${path}`), method, path, operation: item[method] as Schema })),
);

function documentedFor(storage: Storage): Map<string, DocumentedOperation> {
  return new Map(operations.filter(({ operation }) => (operation['x-storage'] ?? storage) === storage).map((operation) => [operation.key, operation]));
}

interface RegisteredRoute {
  key: string;
  access: Access | undefined;
}

/** Every route the real app registers under /api/v1 (HEAD routes aside) with its access rule, for one upload storage. */
async function registeredRoutes(server: TestServer, storage: FileStorage): Promise<Map<string, RegisteredRoute>> {
  const routes = new Map<string, RegisteredRoute>();
  const onRoute = (route: RouteOptions) => {
    if (!route.url.startsWith(`${BASE}/`)) return;
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      const key = routeKey(method, route.url);
      routes.set(key, { key, access: route.config?.access });
    }
  };
  const app = await buildApp({ config: server.config, db: server.db, storage, onRoute });
  await app.close();
  return routes;
}

/** A bucket storage only needs to sign locally for the routes to be registered; nothing is sent to it. */
const bucketStorage = () =>
  new S3BucketStorage({ bucket: 'inventory', region: 'us-east-1', endpoint: 'http://127.0.0.1:9', accessKeyId: 'inventory', secretAccessKey: 'inventory-secret', forcePathStyle: true });

/** Every module permission the manifest knows. */
const KNOWN_PAIRS = [...AREAS.map((area) => area.key), ...RESOURCES.map((resource) => resource.key)].flatMap((module) => actionsOf(module).map((action) => `${module}:${action}`));

type Permission = { module: string; action?: string };
type DocumentedAccess = 'public' | 'development' | 'signed-in' | Required<Permission> | { anyOf: Permission[] } | { allOf: Permission[] };

function documentedAllows(access: DocumentedAccess, grants: Grants): boolean {
  const allows = (permission: Permission) => (permission.action ? grants.can(permission.module, permission.action) : grants.canAny(permission.module));
  if (typeof access === 'string') throw new Error(`${access} is not a permission`);
  if ('anyOf' in access) return access.anyOf.some(allows);
  if ('allOf' in access) return access.allOf.every(allows);
  return allows(access);
}

/** The grant sets a rule is tried with: none, each permission alone, all, and all but each one. */
const GRANT_SETS: string[][] = [[], ...KNOWN_PAIRS.map((pair) => [pair]), KNOWN_PAIRS, ...KNOWN_PAIRS.map((pair) => KNOWN_PAIRS.filter((other) => other !== pair))];

/** Why the documented access differs from the route's rule, or null when they agree. */
function accessMismatch(access: Access | undefined, claimed: DocumentedAccess | undefined): string | null {
  if (access === undefined) return 'the route states no access rule';
  if (claimed === undefined) return 'not documented';
  if (typeof access === 'string' || 'module' in access) {
    return isDeepStrictEqual(claimed, access) ? null : `documented ${JSON.stringify(claimed)}, enforced ${JSON.stringify(access)}`;
  }
  if (typeof claimed === 'string' || !('anyOf' in claimed || 'allOf' in claimed)) return `documented ${JSON.stringify(claimed)} for a combined rule (${access.description})`;
  for (const pairs of GRANT_SETS) {
    const grants = new Grants(pairs);
    const allowed = access.allows(grants);
    if (allowed !== documentedAllows(claimed, grants)) return `the server ${allowed ? 'allows' : 'refuses'} a role granted ${grantedText(pairs)}; the document says otherwise`;
  }
  return null;
}

function grantedText(pairs: string[]): string {
  if (pairs.length === KNOWN_PAIRS.length) return 'every permission';
  if (pairs.length === KNOWN_PAIRS.length - 1) return `every permission but ${KNOWN_PAIRS.find((pair) => !pairs.includes(pair))}`;
  return pairs.length === 0 ? 'nothing' : pairs.join(', ');
}

/** The document's schemas with their $refs pointing into one ajv schema, so any part of the document compiles. */
function documentAjv() {
  const ajv = createAjv({ coerceTypes: false, removeAdditional: false, useDefaults: false });
  const rewrite = (value: unknown) => JSON.parse(JSON.stringify(value).replaceAll('"#/components/schemas/', '"openapi#/$defs/')) as Schema;
  ajv.addSchema({ $id: 'openapi', $defs: rewrite(document.components.schemas) });
  return { ajv, rewrite };
}

function resolved(schema: Schema): Schema {
  const name = typeof schema.$ref === 'string' ? /^#\/components\/schemas\/(.+)$/.exec(schema.$ref)?.[1] : undefined;
  return name ? (document.components.schemas[name] as Schema) : schema;
}

function concretePath(path: string): string {
  return `${BASE}${path.replaceAll('{id}', '1')}`;
}

describe('the OpenAPI document', () => {
  let server: TestServer;
  let admin: Record<string, string>;
  const registered = new Map<Storage, Map<string, RegisteredRoute>>();

  beforeAll(async () => {
    server = await startTestServer('pglite');
    admin = await server.auth('Super Admin');
    registered.set('folder', await registeredRoutes(server, new MemoryStorage()));
    registered.set('bucket', await registeredRoutes(server, bucketStorage()));
  });
  afterAll(async () => server?.close());

  it.each(['folder', 'bucket'] as const)('documents exactly the routes the server registers with %s storage', (storage) => {
    const routes = [...registered.get(storage)!.keys()];
    const documented = [...documentedFor(storage).keys()];
    expect(routes.length).toBeGreaterThan(100);
    expect(routes.filter((key) => !documented.includes(key)).sort(), 'registered but not documented').toEqual([]);
    expect(documented.filter((key) => !routes.includes(key)).sort(), 'documented but not registered').toEqual([]);
  });

  it('gives each operation the access rule its route enforces (x-permission)', () => {
    const mismatches: string[] = [];
    for (const storage of ['folder', 'bucket'] as const) {
      const documented = documentedFor(storage);
      for (const route of registered.get(storage)!.values()) {
        const claimed = documented.get(route.key)?.operation['x-permission'] as DocumentedAccess | undefined;
        const mismatch = accessMismatch(route.access, claimed);
        if (mismatch) mismatches.push(`${route.key}: ${mismatch}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('is valid OpenAPI 3.1', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    // Every $ref points at something.
    expect(() => validator.resolveRefs()).not.toThrow();
  });

  it('the validator refuses a broken document (the check above can fail)', async () => {
    const broken = structuredClone(document);
    broken.paths['/login'].post.parameters = [{ name: 'email', in: 'query' }];
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it('marks the login password required, and the server refuses a login without one', async () => {
    const body = document.paths['/login'].post.requestBody.content['application/json'].schema;
    expect(body.required).toContain('password');
    const response = await server.app.inject({ method: 'POST', url: `${BASE}/login`, payload: { email: 'admin@example.com' } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: 'Validation failed', errors: { password: 'This field is required' } });
  });

  it('documents the top-up idempotency key the server requires beside the manifest\'s form', () => {
    const body = document.paths['/subscribers/{id}/top-ups'].post.requestBody.content['application/json'].schema;
    expect(body.required).toContain('idempotency_key');
    expect(body.properties.idempotency_key.minLength).toBe(8);
  });

  it('every JSON request body: where the documented schema refuses a probe, the server refuses it with the same field errors', async () => {
    const { ajv, rewrite } = documentAjv();
    const probes: Array<Record<string, unknown>> = [{}, { not_a_field: true }];
    let compared = 0;
    for (const { key, method, path, operation } of documentedFor('folder').values()) {
      const schema = operation.requestBody?.content?.['application/json']?.schema as Schema | undefined;
      if (!schema) continue;
      const body = resolved(schema);
      const validate = ajv.compile(rewrite(body));
      for (const probe of probes) {
        if (validate(probe)) continue;
        const expected = fieldErrors(validate.errors ?? [], body, probe);
        const response = await server.app.inject({ method: method.toUpperCase() as 'POST', url: concretePath(path), headers: admin, payload: probe });
        expect(response.statusCode, `${key} ${JSON.stringify(probe)}: ${response.body}`).toBe(400);
        expect((response.json() as { errors: unknown }).errors, `${key} ${JSON.stringify(probe)}`).toEqual(expected);
        compared += 1;
      }
    }
    expect(compared).toBeGreaterThan(50);
  });

  it('every documented maximum and enum of a query or path parameter is the one the server enforces', async () => {
    const mismatches: string[] = [];
    let compared = 0;
    for (const { key, method, path, operation } of documentedFor('folder').values()) {
      const parameters = (operation.parameters ?? []).map((parameter: Schema) =>
        parameter.$ref ? document.components.parameters[String(parameter.$ref).replace('#/components/parameters/', '')] : parameter,
      ) as Schema[];
      for (const parameter of parameters) {
        const bounds = boundaryValues(parameter.schema as Schema);
        if (!bounds) continue;
        for (const [value, refused] of [[bounds.inside, false], [bounds.outside, true]] as const) {
          const url =
            parameter.in === 'path'
              ? `${BASE}${path.replace(`{${parameter.name}}`, value)}`.replaceAll('{id}', '1')
              : `${concretePath(path)}?${new URLSearchParams({ ...requiredQuery(parameters), [parameter.name]: value })}`;
          const response = await server.app.inject({ method: method.toUpperCase() as 'GET', url, headers: admin, ...(method === 'get' ? {} : { payload: {} }) });
          const errors = response.statusCode === 400 ? Object.keys((response.json() as { errors?: object }).errors ?? {}) : [];
          if (errors.includes(parameter.name) !== refused) mismatches.push(`${key} ${parameter.name}=${value}: ${response.statusCode} ${response.body.slice(0, 200)}`);
          compared += 1;
        }
      }
    }
    expect(mismatches).toEqual([]);
    expect(compared).toBeGreaterThan(200);
  });

  it('answers have the documented shapes, nulls and relation labels included', async () => {
    const { ajv, rewrite } = documentAjv();
    const call = (method: 'GET' | 'POST', path: string, payload?: object) => server.app.inject({ method, url: `${BASE}${path}`, headers: admin, ...(payload ? { payload } : {}) });
    const country = await call('POST', '/countries', { name: 'Contractland', iso2: 'CL', iso3: 'CLD', region: 'asia', currency_code: 'INR' });
    const countryId = country.json().data.id as number;
    // Only the required fields: the optional ones come back as null.
    const subscriber = await call('POST', '/subscribers', { name: 'Contract Subscriber', email: 'contract.subscriber@example.com', mobile: '9876543218', country_id: countryId, status: 'trial' });
    const subscriberId = subscriber.json().data.id as number;
    const login = await server.app.inject({ method: 'POST', url: `${BASE}/login`, payload: { email: 'viewer@example.com', password: 'Viewer@12345' } });
    const answers: Array<[string, string, { statusCode: number; body: string }]> = [
      ['/login', 'post', login],
      ['/countries', 'post', country],
      ['/subscribers', 'post', subscriber],
      ['/subscribers/{id}/top-ups', 'post', await call('POST', `/subscribers/${subscriberId}/top-ups`, { points: 10, amount: 5, idempotency_key: 'contract-top-up-1' })],
      ['/forget_password', 'post', await call('POST', '/forget_password', { email: 'operator@example.com' })],
    ];
    const reads: Array<[string, string]> = [
      ['/user/permission', '/user/permission'],
      ['/user/profile', '/user/profile'],
      ['/notification', '/notification'],
      ['/roles/{id}/permissions', '/roles/1/permissions'],
      ['/modules', '/modules'],
      ['/reports/summary', '/reports/summary'],
      ['/sync-trending-data', '/sync-trending-data'],
      ['/uploaded-data-report', '/uploaded-data-report'],
      ['/users', '/users'],
      ['/roles', '/roles'],
      ['/subscribers/{id}', `/subscribers/${subscriberId}`],
      ['/subscribers/{id}/summary', `/subscribers/${subscriberId}/summary`],
      ['/subscribers/{id}/ledger', `/subscribers/${subscriberId}/ledger`],
      ['/countries/options', '/countries/options'],
      ['/users/{id}/email-verification', '/users/1/email-verification'],
      ['/dev/mailbox', '/dev/mailbox'],
    ];
    for (const [path, url] of reads) answers.push([path, 'get', await call('GET', url)]);
    for (const [path, method, response] of answers) {
      const answer = document.paths[path][method].responses[String(response.statusCode)];
      expect(answer, `${method} ${path} answered ${response.statusCode}: ${response.body}`).toBeDefined();
      const documented = answer.$ref ? document.components.responses[answer.$ref.replace('#/components/responses/', '')] : answer;
      const validate = ajv.compile(rewrite(documented.content['application/json'].schema));
      expect(validate(JSON.parse(response.body)) ? [] : validate.errors, `${method} ${path}`).toEqual([]);
    }
  });
});

/** A value at a parameter schema's maximum (or in its enum), and one just beyond; null when it has neither. */
function boundaryValues(schema: Schema): { inside: string; outside: string } | null {
  if (typeof schema.maximum === 'number') return { inside: String(schema.maximum), outside: String(schema.maximum + 1) };
  if (Array.isArray(schema.enum)) return { inside: String(schema.enum[0]), outside: 'not-one-of-them' };
  return null;
}

/** Valid values for a query's required parameters, so that only the probed one is wrong. */
function requiredQuery(parameters: Schema[]): Record<string, string> {
  return Object.fromEntries(parameters.filter((parameter) => parameter.in === 'query' && parameter.required).map((parameter) => [parameter.name, parameter.schema.type === 'integer' ? '1' : 'x']));
}
