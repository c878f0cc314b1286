import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOP_UP_SERVER_ONLY } from '../subscribers/schemas.ts';
import { actionBodySchema } from '../../http/actionBody.ts';
import { validateBody } from '../../http/validation.ts';
import { ENTITY_RESOURCES, MODULE, type EntityResource } from '../../registry.ts';
import { RESOURCE_BEHAVIOURS } from '../behaviours.ts';
import { updateBodySchema, writeSchema } from '../../http/requestSchemas.ts';
import { startTestServer, testDatabases, type TestServer } from '../../testing/testServer.ts';

const databases = await testDatabases();
const RUNS = 100;

type Schema = Record<string, unknown>;

/** Values near what a property allows (formats, enums, bounds) mixed with values of every other kind. */
function propertyValue(property: Schema): fc.Arbitrary<unknown> {
  const near: Array<fc.Arbitrary<unknown>> = [];
  if (Array.isArray(property.enum)) near.push(fc.constantFrom(...(property.enum as unknown[])));
  switch (property.format) {
    case 'email':
      near.push(fc.emailAddress());
      break;
    case 'mobile':
      near.push(fc.stringMatching(/^[6-9]\d{9}$/));
      break;
    case 'date':
      near.push(
        fc
          .date({ min: new Date('1900-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
          .map((date) => date.toISOString().slice(0, 10)),
      );
      break;
    case 'date-time':
      near.push(
        fc
          .date({ min: new Date('1900-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
          .map((date) => date.toISOString()),
      );
      break;
    case 'period':
      near.push(fc.stringMatching(/^20[0-9]{2}-(0[1-9]|1[0-2])$/));
      break;
    case 'password':
      near.push(fc.constant('Valid@12345'));
      break;
    case 'uri':
      near.push(fc.webUrl());
      break;
    case 'pincode':
      near.push(fc.stringMatching(/^[1-9]\d{5}$/));
      break;
    case 'ipv4':
      near.push(fc.ipV4());
      break;
    default:
      break;
  }
  if (typeof property.pattern === 'string')
    near.push(fc.stringMatching(new RegExp(property.pattern)).filter((text) => text.length <= 60));
  if (property.type === 'integer')
    near.push(fc.integer({ min: -5, max: 5_000 }), fc.constant(Number.MAX_SAFE_INTEGER), fc.constant(1e300));
  if (property.type === 'number')
    near.push(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer({ min: 0, max: 100 }));
  if (property.type === 'boolean') near.push(fc.boolean());
  if (property.type === 'array') near.push(fc.array(fc.string({ maxLength: 20 }), { maxLength: 5 }));
  if (property.type === 'string')
    near.push(
      fc.string({ maxLength: 40 }),
      fc.string({ unit: 'grapheme', maxLength: 40 }),
      fc.constantFrom("O'Brien; DROP TABLE x;--", '%_\\', '\u0000', ' '),
    );
  return fc.oneof(...near, fc.constantFrom(null, '', 0, -1, true, [], {}, 'x'.repeat(2000)));
}

/** Bodies for an operation: mostly shaped like the schema (fields present, dropped or added), sometimes anything. */
function bodies(schema: Schema): fc.Arbitrary<unknown> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const shaped = fc.record(
    Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, propertyValue(property)])),
    { requiredKeys: [] },
  );
  const withExtra = fc
    .tuple(shaped, fc.string({ minLength: 1, maxLength: 12 }), fc.anything())
    .map(([body, key, value]) => ({ ...body, [key]: value }));
  return fc.oneof(
    { weight: 6, arbitrary: shaped },
    { weight: 1, arbitrary: withExtra },
    { weight: 1, arbitrary: fc.anything() },
  );
}

interface Operation {
  method: 'POST' | 'PUT';
  /** The URL, given the id of a subscriber made for the action operations. */
  url: (subscriberId: number) => string;
  schema: Schema;
  /** Sent with the body: an update names the version it changes, here any (`*`), to reach the body's checks and the write. */
  headers?: Record<string, string>;
}

const ENTITY_OPERATIONS = ENTITY_RESOURCES.flatMap((resource: EntityResource) => {
  const operations: Array<[string, Operation]> = [];
  // An update needs a record: the first one a valid create made, or a missing id (404 once the body is valid).
  if (resource.actions.includes('add') && !RESOURCE_BEHAVIOURS[resource.key]?.replaces?.includes('create')) {
    operations.push([
      `${resource.key} create`,
      { method: 'POST', url: () => `/api/v1/${resource.api}`, schema: writeSchema(resource.entity.createSchema) },
    ]);
  }
  if (resource.actions.includes('edit')) {
    operations.push([
      `${resource.key} update`,
      {
        method: 'PUT',
        url: () => `/api/v1/${resource.api}/1`,
        schema: updateBodySchema(resource.entity.updateSchema),
        headers: { 'if-match': '*' },
      },
    ]);
  }
  return operations;
});

// The action bodies judged by the manifest's forms (server/http/actionBody.ts).
const ACTION_OPERATIONS: Array<[string, Operation]> = [
  [
    'USER_PROFILE edit',
    { method: 'PUT', url: () => '/api/v1/user/profile', schema: actionBodySchema(MODULE.userProfile, 'edit') },
  ],
  [
    'CHANGE_PASSWORD edit',
    {
      method: 'POST',
      url: () => '/api/v1/user/change-password',
      schema: actionBodySchema(MODULE.changePassword, 'edit'),
    },
  ],
  [
    'SUBSCRIBERS ADD_SUBSCRIPTION',
    {
      method: 'POST',
      url: (id) => `/api/v1/subscribers/${id}/subscriptions`,
      schema: actionBodySchema(MODULE.subscribers, 'ADD_SUBSCRIPTION'),
    },
  ],
  [
    'SUBSCRIBERS ADD_TOP_UP',
    {
      method: 'POST',
      url: (id) => `/api/v1/subscribers/${id}/top-ups`,
      schema: actionBodySchema(MODULE.subscribers, 'ADD_TOP_UP', TOP_UP_SERVER_ONLY),
    },
  ],
];

describe.each(databases)('property-based fuzzing of every write operation on $kind', ({ kind, skip }) => {
  let server: TestServer;
  let admin: Record<string, string>;
  let subscriberId: number;
  beforeAll(async () => {
    if (skip) return;
    server = await startTestServer(kind);
    admin = await server.auth('Super Admin');
    const create = async (api: string, body: object) => {
      const response = await server.app.inject({
        method: 'POST',
        url: `/api/v1/${api}`,
        headers: admin,
        payload: body,
      });
      expect(response.statusCode, response.body).toBe(201);
      return (response.json() as { data: { id: number } }).data.id;
    };
    const countryId = await create('countries', {
      name: 'Fuzzland',
      iso2: 'FZ',
      iso3: 'FZL',
      region: 'asia',
      currency_code: 'INR',
    });
    subscriberId = await create('subscribers', {
      name: 'Fuzz Subscriber',
      email: 'fuzz.subscriber@example.com',
      mobile: '9876543219',
      country_id: countryId,
    });
  });
  afterAll(async () => server?.close());

  it.skipIf(skip).each([...ENTITY_OPERATIONS, ...ACTION_OPERATIONS])(
    '%s: no 5xx, and every body the schema rejects is a 400',
    async (_name, { method, url, schema, headers }) => {
      await fc.assert(
        fc.asyncProperty(bodies(schema), async (body) => {
          const response = await server.app.inject({
            method,
            url: url(subscriberId),
            headers: { ...admin, ...headers, 'content-type': 'application/json' },
            payload: JSON.stringify(body),
          });
          expect(response.statusCode).toBeLessThan(500);
          const invalid =
            body === null || typeof body !== 'object' || Array.isArray(body) || validateBody(schema, body) !== null;
          if (invalid) {
            expect(response.statusCode).toBe(400);
            expect(Object.keys((response.json() as { errors?: object }).errors ?? { _: 1 }).length).toBeGreaterThan(0);
          } else {
            expect([200, 201, 400, 404]).toContain(response.statusCode);
          }
        }),
        { numRuns: RUNS, seed: 20261121 },
      );
    },
    120_000,
  );

  it.skipIf(skip)('If-Match of any spelling on a valid update: no 5xx, only 200, 412 or 428', async () => {
    const country = { name: 'Fuzzland', iso2: 'FZ', iso3: 'FZL', region: 'asia', currency_code: 'INR' };
    const [{ id }] = (await server.db.query<{ id: number }>(`SELECT id FROM countries WHERE iso2 = 'FZ'`)) as [
      { id: number },
    ];
    const spelling = fc.string({ unit: fc.constantFrom(...'"W/*, 0123456789x'.split('')), maxLength: 12 });
    await fc.assert(
      fc.asyncProperty(spelling, async (ifMatch) => {
        const response = await server.app.inject({
          method: 'PUT',
          url: `/api/v1/countries/${id}`,
          headers: { ...admin, 'if-match': ifMatch },
          payload: country,
        });
        expect([200, 412, 428], `If-Match: ${ifMatch}`).toContain(response.statusCode);
      }),
      { numRuns: RUNS, seed: 20261121 },
    );
  });
});
