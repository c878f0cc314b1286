import { readFile } from 'node:fs/promises';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOP_UP_SERVER_ONLY } from '../modules/subscribers/schemas.ts';
import { writeSchema } from './requestSchemas.ts';
import * as profileAreaChunk from '../../src/generated/areas/profile-management.ts';
import * as subscriberAreaChunk from '../../src/generated/areas/subscriber-management.ts';
import type { ActionFormDescription, AreaModule } from '../../src/generated/types.ts';
import { fieldErrors } from '../../validation/messages.ts';
import { profileRoutes } from '../modules/profile/routes.ts';
import { MODULE, actionFormSchema } from '../registry.ts';
import { subscriberRoutes } from '../modules/subscribers/routes.ts';
import { saleRoutes } from '../modules/subscribers/saleRoutes.ts';
import { startTestServer, testDatabases, type TestServer } from '../testing/testServer.ts';
import { validatorCompiler } from './validation.ts';
import { joinArea } from '../../src/routing/areaModule.ts';

const profileArea = joinArea(profileAreaChunk);
const subscriberArea = joinArea(subscriberAreaChunk);

type Schema = Record<string, unknown>;

const databases = await testDatabases();

/** The four action bodies the manifest's forms judge, with where the console and the manifest keep them. */
const OPERATIONS = [
  {
    name: 'profile',
    module: MODULE.userProfile,
    action: 'edit',
    method: 'PUT',
    path: '/user/profile',
    manifest: 'profile-management.json',
    area: profileArea,
  },
  {
    name: 'change password',
    module: MODULE.changePassword,
    action: 'edit',
    method: 'POST',
    path: '/user/change-password',
    manifest: 'profile-management.json',
    area: profileArea,
  },
  {
    name: 'subscription',
    module: MODULE.subscribers,
    action: 'ADD_SUBSCRIPTION',
    method: 'POST',
    path: '/subscribers/:id/subscriptions',
    manifest: 'subscriber-management.json',
    area: subscriberArea,
  },
  {
    name: 'top-up',
    module: MODULE.subscribers,
    action: 'ADD_TOP_UP',
    method: 'POST',
    path: '/subscribers/:id/top-ups',
    manifest: 'subscriber-management.json',
    area: subscriberArea,
  },
] as const;

type Operation = (typeof OPERATIONS)[number];

/** Properties a body carries beside the form's data (TOP_UP_SERVER_ONLY); none for the other operations. */
const serverOnly = (operation: Operation): Record<string, Schema> =>
  operation.action === 'ADD_TOP_UP' ? TOP_UP_SERVER_ONLY : {};

function consoleForm(operation: Operation): ActionFormDescription {
  const area: AreaModule = operation.area;
  const form = area.resources.find((resource) => resource.module === operation.module)?.forms[operation.action];
  if (!form) throw new Error(`no console form for ${operation.module} ${operation.action}`);
  return form;
}

/** The field errors the console's form shows for the data (without the "* " prefix, as the server sends them). */
function consoleErrors(operation: Operation, data: Record<string, unknown>): Record<string, string> {
  const { validate, schema } = consoleForm(operation);
  return validate(data) ? {} : { ...fieldErrors(validate.errors ?? [], schema, data) };
}

async function manifestForm(operation: Operation): Promise<Schema> {
  const area = JSON.parse(await readFile(new URL(`../../manifest/${operation.manifest}`, import.meta.url), 'utf8')) as {
    resources: Array<{ key: string; forms?: Record<string, { schema: Schema }> }>;
  };
  return area.resources.find((resource) => resource.key === operation.module)!.forms![operation.action]!.schema;
}

/** The body schema of each route as registered, read through an onRoute hook on an app that only registers them. */
async function registeredBodies(): Promise<Map<string, Schema>> {
  const app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  // Registering the routes touches neither the database nor the password hasher.
  app.decorate('db', {} as never);
  app.decorate('passwords', {} as never);
  const bodies = new Map<string, Schema>();
  app.addHook('onRoute', (route) => {
    const body = route.schema?.body as Schema | undefined;
    if (body) bodies.set(`${String(route.method)} ${route.url}`, body);
  });
  await app.register(profileRoutes);
  await app.register(subscriberRoutes);
  await app.register(saleRoutes);
  await app.ready();
  await app.close();
  return bodies;
}

describe('the action routes validate their bodies with the manifest forms', () => {
  it.each(OPERATIONS)(
    '$name: the route body schema is the manifest form (as writeSchema applies it), the registry and console hold the same form',
    async (operation) => {
      const authored = await manifestForm(operation);
      expect(actionFormSchema(operation.module, operation.action)).toEqual(authored);
      expect(consoleForm(operation).schema).toEqual(authored);

      const body = (await registeredBodies()).get(`${operation.method} ${operation.path}`);
      expect(body).toBeDefined();
      const extra = serverOnly(operation);
      const properties = body!.properties as Record<string, Schema>;
      const formPart = {
        ...body,
        properties: Object.fromEntries(Object.entries(properties).filter(([name]) => !(name in extra))),
        required: (body!.required as string[]).filter((name) => !(name in extra)),
      };
      // Every rule of the manifest's form, and nothing else but the bounds writeSchema gives unbounded integers.
      expect(formPart).toMatchObject(authored);
      expect(formPart).toEqual(writeSchema(authored));
      expect(Object.fromEntries(Object.entries(properties).filter(([name]) => name in extra))).toEqual(extra);
      expect((body!.required as string[]).filter((name) => name in extra)).toEqual(Object.keys(extra));
    },
  );
});

describe.each(databases)('action bodies judged by the manifest forms on $kind', ({ kind, skip }) => {
  let server: TestServer;
  let admin: Record<string, string>;
  let subscriberId: number;
  const send = async (operation: Operation, body: Record<string, unknown> | string) => {
    const response = await server.app.inject({
      method: operation.method,
      url: `/api/v1${operation.path.replace(':id', String(subscriberId))}`,
      headers: { ...admin, 'content-type': 'application/json' },
      payload: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return {
      status: response.statusCode,
      body: response.json() as { message: string; errors?: Record<string, string> },
    };
  };
  const withServerOnly = (operation: Operation, data: Record<string, unknown>) =>
    operation.action === 'ADD_TOP_UP' ? { ...data, idempotency_key: 'test-key-0001' } : data;

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
      name: 'India',
      iso2: 'IN',
      iso3: 'IND',
      region: 'asia',
      currency_code: 'INR',
    });
    subscriberId = await create('subscribers', {
      name: 'Asha Rao',
      email: 'asha.rao@example.com',
      mobile: '9876543215',
      country_id: countryId,
    });
  });
  afterAll(async () => server?.close());

  // Bodies each form rejects, with the errors the console's form shows for them; the manifest-specific rules are
  // noted where the hand-written route schemas said otherwise.
  const rejected: Array<[string, Operation, Record<string, unknown>, Record<string, string>, string]> = [
    [
      'blank, non-name and wrong-format fields',
      OPERATIONS[0],
      { first_name: ' ', last_name: 'Rao2', mobile: '12345' },
      {
        first_name: 'Empty or white space not allowed.',
        last_name: 'Invalid value.',
        mobile: 'Invalid mobile number.',
      },
      'First name: Empty or white space not allowed; Last name: Invalid value; and 1 more field.',
    ],
    [
      'maxLength 60 and the required mobile',
      OPERATIONS[0],
      { first_name: 'A'.repeat(61), last_name: 'Rao' },
      { first_name: 'Expect max 60 but got 61', mobile: 'This field is required' },
      'First name: Expect max 60 but got 61; Mobile: This field is required.',
    ],
    [
      'a weak password and a confirmation that differs',
      OPERATIONS[1],
      { current_password: 'Admin@12345', password: 'weakpassword', confirm_password: 'other' },
      {
        password: 'Invalid password, Must Have Numbers & Special Character.',
        confirm_password: 'New password does not match.',
      },
      'New password: Invalid password, Must Have Numbers & Special Character; Confirm new password: New password does not match.',
    ],
    [
      'compareTo alone (the title is the manifest\'s "New password")',
      OPERATIONS[1],
      { current_password: 'Admin@12345', password: 'Strong@2026', confirm_password: 'Strong@2027' },
      { confirm_password: 'New password does not match.' },
      'Confirm new password: New password does not match.',
    ],
    [
      'minimum 1 and a date that is not one',
      OPERATIONS[2],
      { plan_id: 0, starts_on: '2026-13-01', amount_paid: 0 },
      { plan_id: 'Min value is 1', starts_on: 'Invalid value.' },
      'Plan: Min value is 1; Starts on: Invalid value.',
    ],
    [
      'a missing plan and a number for a date',
      OPERATIONS[2],
      { starts_on: 20260101, amount_paid: 0 },
      { plan_id: 'This field is required', starts_on: 'Invalid value.' },
      'Plan: This field is required; Starts on: Invalid value.',
    ],
    // The route schema allowed 500 characters of note; the manifest's form allows 200.
    [
      'maximum 10,000,000, minimum 0 and maxLength 200',
      OPERATIONS[3],
      { points: 10_000_001, amount: -1, note: 'x'.repeat(201) },
      { points: 'Max value is 10000000', amount: 'Min value is 0', note: 'Expect max 200 but got 201' },
      'Points: Max value is 10000000; Amount paid: Min value is 0; and 1 more field.',
    ],
    [
      'text for numbers',
      OPERATIONS[3],
      { points: '5', amount: '10' },
      { points: 'Should be a number.', amount: 'Should be a number.' },
      'Points: Should be a number; Amount paid: Should be a number.',
    ],
  ];

  it.skipIf(skip).each(rejected)(
    "%s: 400 naming each field with the console's message",
    async (_case, operation, data, errors, message) => {
      expect(consoleErrors(operation, data)).toEqual(errors);
      expect(await send(operation, withServerOnly(operation, data))).toEqual({
        status: 400,
        body: { message, errors },
      });
    },
  );

  it.skipIf(skip).each(OPERATIONS)('$name: unknown fields and __proto__ are refused', async (operation) => {
    const unknown = await send(operation, { is_admin: true });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors?.is_admin).toBe('This field is not allowed');
    const proto = await send(operation, '{"__proto__":{"is_admin":true}}');
    expect(proto.status).toBe(400);
    expect(Object.entries(proto.body.errors ?? {})).toEqual([['__proto__', 'This field is not allowed']]);
  });

  it.skipIf(skip)(
    'a top-up needs the server-only idempotency key, which the form does not know, and is credited with it',
    async () => {
      const topUp = OPERATIONS[3];
      const data = { points: 10_000_000, amount: 100, note: 'n'.repeat(200) };
      expect(consoleErrors(topUp, data)).toEqual({});
      expect(await send(topUp, data)).toEqual({
        status: 400,
        body: {
          message: 'Idempotency key: This field is required.',
          errors: { idempotency_key: 'This field is required' },
        },
      });
      expect((await send(topUp, { ...data, idempotency_key: 'bad key!' })).body.errors).toEqual({
        idempotency_key: 'Invalid value.',
      });
      const credited = await send(topUp, { ...data, idempotency_key: 'top-up-key-0001' });
      expect(credited.status).toBe(201);
    },
  );

  it.skipIf(skip)('a profile the form accepts is saved', async () => {
    const data = { first_name: "Asha O'Brien", last_name: 'Rao', mobile: '9876543210' };
    expect(consoleErrors(OPERATIONS[0], data)).toEqual({});
    const saved = await send(OPERATIONS[0], data);
    expect(saved.status).toBe(200);
    expect((saved.body as unknown as { data: Record<string, unknown> }).data).toMatchObject(data);
  });
});
