import { Validator } from '@seriousme/openapi-schema-validator';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldErrors } from '../../../validation/messages.ts';
import { buildApp } from '../../app.ts';
import { ENTITY_RESOURCES, MODULE } from '../../registry.ts';
import { startTestServer, type TestServer } from '../../testing/testServer.ts';
import { describeAccess, type Access } from '../auth/access.ts';
import { listQuerySchema } from '../resources/schemas.ts';
import { S3BucketStorage } from '../uploads/s3Storage.ts';
import { MemoryStorage, type FileStorage } from '../uploads/storage.ts';
import { SHARED_KEYWORDS, documentAjv, resolvedSchema } from './testing/documentAjv.ts';

type Schema = Record<string, any>;
type Storage = 'folder' | 'bucket';

const BASE = '/api/v1';
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** `POST /api/v1/uploads/:id/file`: a route as Fastify names it. */
function routeKey(method: string, path: string): string {
  return `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`;
}

interface DocumentedOperation {
  key: string;
  method: string;
  path: string;
  operation: Schema;
}

function operationsOf(document: Schema): DocumentedOperation[] {
  return Object.entries(document.paths as Record<string, Schema>).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({
      key: routeKey(method, `${BASE}${path}`),
      method,
      path,
      operation: item[method] as Schema,
    })),
  );
}

interface RegisteredRoute {
  key: string;
  access: Access | undefined;
}

/** An app of the real server with one upload storage: every route it registers under /api/v1 (HEAD aside), and its document. */
async function appWith(
  server: TestServer,
  storage: FileStorage,
): Promise<{ app: FastifyInstance; routes: Map<string, RegisteredRoute>; document: Schema }> {
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
  const response = await app.inject({ method: 'GET', url: `${BASE}/openapi.json` });
  expect(response.statusCode).toBe(200);
  return { app, routes, document: response.json() as Schema };
}

/** A bucket storage only needs to sign locally for the routes to be registered; nothing is sent to it. */
const bucketStorage = () =>
  new S3BucketStorage({
    bucket: 'inventory',
    region: 'us-east-1',
    endpoint: 'http://127.0.0.1:9',
    accessKeyId: 'inventory',
    secretAccessKey: 'inventory-secret',
    forcePathStyle: true,
  });

function concretePath(path: string): string {
  return `${BASE}${path.replaceAll('{id}', '1').replaceAll('{name}', 'missing.png')}`;
}

describe('the OpenAPI document', () => {
  let server: TestServer;
  let admin: Record<string, string>;
  const apps = new Map<Storage, Awaited<ReturnType<typeof appWith>>>();
  const documentOf = (storage: Storage = 'folder') => apps.get(storage)!.document;

  beforeAll(async () => {
    server = await startTestServer('pglite');
    admin = await server.auth('Super Admin');
    apps.set('folder', await appWith(server, new MemoryStorage()));
    apps.set('bucket', await appWith(server, bucketStorage()));
  });
  afterAll(async () => {
    for (const { app } of apps.values()) await app.close();
    await server?.close();
  });

  it.each(['folder', 'bucket'] as const)(
    'lists exactly the routes the server registers with %s storage, each with its method and path',
    (storage) => {
      const routes = [...apps.get(storage)!.routes.keys()];
      const documented = operationsOf(documentOf(storage)).map((operation) => operation.key);
      expect(routes.length).toBeGreaterThan(250);
      expect(routes.filter((key) => !documented.includes(key)).sort(), 'registered but not documented').toEqual([]);
      expect(documented.filter((key) => !routes.includes(key)).sort(), 'documented but not registered').toEqual([]);
    },
  );

  it.each(['folder', 'bucket'] as const)(
    'every operation it documents with %s storage is answered by a route at that method and path',
    async (storage) => {
      const { app, document } = apps.get(storage)!;
      const unanswered: string[] = [];
      for (const { key, method, path } of operationsOf(document)) {
        // No token: a guarded route answers 401 once matched, and a public one runs on an empty body.
        const response = await app.inject({
          method: method.toUpperCase() as 'GET',
          url: concretePath(path),
          ...(method === 'get' ? {} : { payload: {} }),
        });
        const notRouted = response.statusCode === 404 && String(response.json().message).startsWith('No such endpoint');
        if (notRouted || response.statusCode === 405)
          unanswered.push(`${key}: ${response.statusCode} ${response.body.slice(0, 100)}`);
      }
      expect(unanswered).toEqual([]);
    },
  );

  it('gives each operation the access rule its route enforces (x-permission), said in words in its description', () => {
    const mismatches: string[] = [];
    for (const storage of ['folder', 'bucket'] as const) {
      const documented = new Map(
        operationsOf(documentOf(storage)).map((operation) => [operation.key, operation.operation]),
      );
      for (const route of apps.get(storage)!.routes.values()) {
        const operation = documented.get(route.key);
        if (route.access === undefined) mismatches.push(`${route.key}: the route states no access rule`);
        else if (JSON.stringify(operation?.['x-permission']) !== JSON.stringify(route.access))
          mismatches.push(`${route.key}: documented ${JSON.stringify(operation?.['x-permission'])}`);
        else if (!String(operation?.description).startsWith(describeAccess(route.access)))
          mismatches.push(`${route.key}: described as ${operation?.description}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('every operation has a unique operationId, a summary and a tag, and lists the errors its access and input imply', () => {
    const problems: string[] = [];
    const ids = new Map<string, string>();
    for (const { key, operation } of operationsOf(documentOf())) {
      if (!/^[a-z][A-Za-z0-9]+$/.test(operation.operationId ?? ''))
        problems.push(`${key}: operationId ${operation.operationId}`);
      if (ids.has(operation.operationId))
        problems.push(`${key}: operationId ${operation.operationId} also names ${ids.get(operation.operationId)}`);
      ids.set(operation.operationId, key);
      if (!operation.summary || operation.tags?.length !== 1) problems.push(`${key}: summary or tag missing`);
      const access = operation['x-permission'];
      const parameters = (operation.parameters ?? []) as Schema[];
      const expected = [
        ...(parameters.some((parameter) => parameter.in !== 'header') || operation.requestBody ? ['400'] : []),
        ...(access === 'public' || access === 'development' ? [] : ['401']),
        ...(typeof access === 'object' ? ['403'] : []),
        ...(parameters.some((parameter) => parameter.name === 'If-Match') ? ['412', '428'] : []),
      ];
      const missing = expected.filter((status) => !(status in operation.responses));
      if (missing.length > 0) problems.push(`${key}: does not list ${missing.join(', ')}`);
    }
    expect(problems).toEqual([]);
  });

  it('is valid OpenAPI 3.1, and the validator refuses a broken one (so the check can fail)', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(documentOf()));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(() => validator.resolveRefs()).not.toThrow();
    const broken = structuredClone(documentOf());
    broken.paths['/login'].post.parameters = [{ name: 'email', in: 'query' }];
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it('each resource has the operations its actions offer, with the permission each requires and its list query as parameters', () => {
    const document = documentOf();
    for (const resource of ENTITY_RESOURCES) {
      const offers = (action: string) => resource.actions.includes(action);
      const methods = (path: string) => Object.keys(document.paths[`/${resource.api}${path}`] ?? {}).sort();
      const expectedOnRecord = [
        offers('view') && 'get',
        offers('edit') && 'put',
        offers('edit') && 'patch',
        offers('delete') && 'delete',
      ].filter(Boolean);
      expect(methods('/{id}'), resource.key).toEqual(expectedOnRecord.sort());
      expect(methods('/{id}/status'), resource.key).toEqual(offers('ACTIVE_INACTIVE') ? ['patch'] : []);
      expect(methods('/export'), resource.key).toEqual(offers('download') ? ['get'] : []);
      if (offers('edit'))
        for (const method of ['put', 'patch'])
          expect(document.paths[`/${resource.api}/{id}`][method]['x-permission']).toEqual({
            module: resource.key,
            action: 'edit',
          });
      if (offers('view')) {
        const names = document.paths[`/${resource.api}`].get.parameters.map((parameter: Schema) => parameter.name);
        expect(names, resource.key).toEqual(Object.keys(listQuerySchema(resource).properties as object));
      }
    }
  });

  it('the fixed endpoints: who may call them, their bodies with the shared keywords as x- extensions, relation labels in records', () => {
    const document = documentOf();
    expect(document.paths['/login'].post).toMatchObject({
      security: [],
      'x-permission': 'public',
      operationId: 'login',
    });
    expect(document.paths['/login'].post.requestBody.content['application/json'].schema.required).toEqual([
      'email',
      'password',
    ]);
    expect(document.paths['/logout'].post.security).toEqual([{}, { bearer: [] }]);
    expect(document.paths['/notification'].get['x-permission']).toBe('signed-in');
    expect(document.paths['/reports/summary/export'].get['x-permission']).toEqual({
      allOf: [
        { module: 'ADMIN_REPORTING', action: 'view' },
        { module: 'ADMIN_REPORTING', action: 'download' },
      ],
    });
    expect(document.paths['/banners/image'].post['x-permission']).toEqual({
      anyOf: [
        { module: 'BANNER', action: 'add' },
        { module: 'BANNER', action: 'edit' },
      ],
    });
    expect(document.paths['/banners/images/{name}'].get.security).toEqual([]);
    // The reset form's confirmation carries the shared compareTo rule, published as an extension.
    const reset = document.paths['/reset_password'].post.requestBody.content['application/json'].schema;
    expect(reset.properties.confirm_password['x-compareTo']).toBe('password');
    expect(JSON.stringify(document)).not.toMatch(new RegExp(`"(${SHARED_KEYWORDS.join('|')})":`));
    // A record has its relation's label beside the id, and the options of the related resource open to the relating one.
    const subscriber = document.components.schemas.Subscribers;
    expect(subscriber.properties.country_id_label).toMatchObject({ type: ['string', 'null'] });
    expect(document.paths['/countries/options'].get['x-permission'].anyOf).toEqual(
      expect.arrayContaining([{ module: 'COUNTRIES', action: 'view' }, { module: MODULE.subscribers }]),
    );
  });

  it('marks the login password required, and the server refuses a login without one', async () => {
    const body = documentOf().paths['/login'].post.requestBody.content['application/json'].schema;
    expect(body.required).toContain('password');
    const response = await server.app.inject({
      method: 'POST',
      url: `${BASE}/login`,
      payload: { email: 'admin@example.com' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: 'Password: This field is required.',
      errors: { password: 'This field is required' },
    });
  });

  it("documents the top-up idempotency key the server requires beside the manifest's form", () => {
    const body = documentOf().paths['/subscribers/{id}/top-ups'].post.requestBody.content['application/json'].schema;
    expect(body.required).toContain('idempotency_key');
    expect(body.properties.idempotency_key.minLength).toBe(8);
  });

  it('every JSON request body: where the documented schema refuses a probe, the server refuses it with the same field errors', async () => {
    const document = documentOf();
    const { ajv, rewrite } = documentAjv(document);
    const probes: Array<Record<string, unknown>> = [{}, { not_a_field: true }];
    let compared = 0;
    for (const { key, method, path, operation } of operationsOf(document)) {
      const schema = operation.requestBody?.content?.['application/json']?.schema as Schema | undefined;
      if (!schema) continue;
      const body = rewrite(resolvedSchema(document, schema));
      const validate = ajv.compile(body);
      for (const probe of probes) {
        if (validate(probe)) continue;
        const expected = fieldErrors(validate.errors ?? [], body, probe);
        const response = await server.app.inject({
          method: method.toUpperCase() as 'POST',
          url: concretePath(path),
          headers: admin,
          payload: probe,
        });
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
    for (const { key, method, path, operation } of operationsOf(documentOf())) {
      const parameters = (operation.parameters ?? []) as Schema[];
      for (const parameter of parameters.filter((candidate) => candidate.in !== 'header')) {
        const bounds = boundaryValues(parameter.schema as Schema);
        if (!bounds) continue;
        for (const [value, refused] of [
          [bounds.inside, false],
          [bounds.outside, true],
        ] as const) {
          const url =
            parameter.in === 'path'
              ? `${BASE}${path.replace(`{${parameter.name}}`, value)}`.replaceAll('{id}', '1')
              : `${concretePath(path)}?${new URLSearchParams({ ...requiredQuery(parameters), [parameter.name]: value })}`;
          const payload = method === 'get' ? {} : { payload: validBody(documentOf(), operation) };
          const response = await server.app.inject({
            method: method.toUpperCase() as 'GET',
            url,
            headers: admin,
            ...payload,
          });
          const errors =
            response.statusCode === 400 ? Object.keys((response.json() as { errors?: object }).errors ?? {}) : [];
          // A body field of the same name as the parameter (a bulk "set" of the filtered field) is judged by the handler.
          const fromBody = async () => {
            const bare =
              parameter.in === 'query'
                ? `${concretePath(path)}?${new URLSearchParams(requiredQuery(parameters))}`
                : url;
            const baseline = await server.app.inject({
              method: method.toUpperCase() as 'GET',
              url: bare,
              headers: admin,
              ...payload,
            });
            return (
              baseline.statusCode === 400 &&
              Object.keys((baseline.json() as { errors?: object }).errors ?? {}).includes(parameter.name)
            );
          };
          if (errors.includes(parameter.name) !== refused && !(refused === false && (await fromBody())))
            mismatches.push(`${key} ${parameter.name}=${value}: ${response.statusCode} ${response.body.slice(0, 200)}`);
          compared += 1;
        }
      }
    }
    expect(mismatches).toEqual([]);
    expect(compared).toBeGreaterThan(200);
  });
});

/** A value at a parameter schema's maximum (or in its enum), and one just beyond; null when it has neither. */
function boundaryValues(schema: Schema): { inside: string; outside: string } | null {
  if (typeof schema.maximum === 'number')
    return { inside: String(schema.maximum), outside: String(schema.maximum + 1) };
  if (Array.isArray(schema.enum)) return { inside: String(schema.enum[0]), outside: 'not-one-of-them' };
  return null;
}

/**
 * A JSON body with a value of the right type for each required property, so that the parameter is judged (Fastify
 * judges the body before the query string) and only the probed parameter is wrong.
 */
function validBody(document: Schema, operation: Schema): Record<string, unknown> {
  let schema = operation.requestBody?.content?.['application/json']?.schema as Schema | undefined;
  if (schema?.$ref) schema = document.components.schemas[String(schema.$ref).split('/').at(-1)!] as Schema;
  if (!schema?.required) return {};
  const sample = (property: Schema): unknown => {
    if (Array.isArray(property.enum)) return property.enum[0];
    if (property.type === 'boolean') return true;
    if (property.type === 'integer' || property.type === 'number') return property.minimum ?? 0;
    if (property.type === 'object') return {};
    if (property.type === 'string') return 'x';
    return 1;
  };
  return Object.fromEntries(
    (schema.required as string[]).map((name) => [name, sample((schema.properties ?? {})[name] ?? {})]),
  );
}

/** Valid values for a query's required parameters, so that only the probed one is wrong. */
function requiredQuery(parameters: Schema[]): Record<string, string> {
  return Object.fromEntries(
    parameters
      .filter((parameter) => parameter.in === 'query' && parameter.required)
      .map((parameter) => [parameter.name, parameter.schema.type === 'integer' ? '1' : 'x']),
  );
}
