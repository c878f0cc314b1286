import { idParams } from '../../contract/resources.ts';
import type { JsonSchema } from '../../contract/description.ts';

/** A module permission; without `action`, any action the module offers. */
export interface Permission {
  module: string;
  action?: string;
}

/**
 * Who may call an operation, as the document's `x-permission` says it: anyone, any signed-in user, one module
 * permission, or a combination of them. It is the server route's access rule (server/modules/auth/access.ts) written as data.
 */
export type Access = 'public' | 'development' | 'signed-in' | Required<Permission> | { anyOf: Permission[] } | { allOf: Array<Required<Permission>> };

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Error answers an operation may give beyond those its access and validation imply. */
export type ErrorStatus = 404 | 409 | 413 | 415 | 429;

export interface OperationSpec {
  method: Method;
  /** OpenAPI form, relative to the server URL: `/vouchers/{id}`. */
  path: string;
  tag: string;
  summary: string;
  access: Access;
  /** Said after the access rule in the description. */
  notes?: string;
  /** The server's schemas of the path parameters and the query string; each property becomes a parameter. */
  params?: JsonSchema;
  query?: JsonSchema;
  /** Path parameters the handler checks itself, so a wrong one is a 404 rather than a 400. */
  checkedParams?: JsonSchema;
  requestBody?: Record<string, unknown>;
  /** Success answers by status. */
  answers: Record<string, unknown>;
  errors?: ErrorStatus[];
  /** Registered only with this upload storage (`x-storage`): the data folder or an S3-compatible bucket. */
  storage?: 'folder' | 'bucket';
  /** A Bearer token is read when sent but not required (logout). */
  optionalToken?: boolean;
  /** Changes one record only at the version the caller read: `If-Match` is required (428 without it, 412 when stale). */
  ifMatch?: boolean;
}

export const ERROR_RESPONSES = {
  '400': { name: 'BadRequest', description: 'Invalid input; `errors` names the fields, with the messages the console\'s forms show.' },
  '401': { name: 'Unauthorized', description: 'Missing, expired or invalid token.' },
  '403': { name: 'Forbidden', description: 'The caller\'s role lacks the permission the operation requires.' },
  '404': { name: 'NotFound', description: 'No such record (or none the caller may see).' },
  '409': { name: 'Conflict', description: 'The request conflicts with the current state (a record still referenced, a file already posted).' },
  '412': { name: 'PreconditionFailed', description: 'The record was changed since the caller read it: `If-Match` does not name its current version. Read it again (GET sends the new `ETag`), then make the change again.' },
  '413': { name: 'PayloadTooLarge', description: 'The body or file is larger than allowed.' },
  '415': { name: 'UnsupportedMediaType', description: 'The file is not of an accepted type.' },
  '428': { name: 'PreconditionRequired', description: 'The change needs an `If-Match` header with the `ETag` of the record as read.' },
  '429': { name: 'TooManyRequests', description: 'Too many attempts; `Retry-After` says when to try again.' },
} as const;

/** Spread into an answer that carries a record's version (`components.headers.ETag`). */
export const ETAG_HEADER = { headers: { ETag: { $ref: '#/components/headers/ETag' } } };

export function json(schema: unknown) {
  return { 'application/json': { schema } };
}

export function ref(name: string) {
  return { $ref: `#/components/schemas/${name}` };
}

export function jsonBody(schema: unknown) {
  return { required: true, content: json(schema) };
}

/** `{ data, message? }` (docs/api.md); `message` is listed as required when the server always sends one. */
export function dataAnswer(description: string, data: unknown, withMessage = false) {
  return {
    description,
    content: json({ type: 'object', required: withMessage ? ['data', 'message'] : ['data'], properties: { data, message: { type: 'string' } } }),
  };
}

export function listAnswer(description: string, item: unknown) {
  return {
    description,
    content: json({ type: 'object', required: ['data', 'meta'], properties: { data: { type: 'array', items: item }, meta: ref('ListMeta') } }),
  };
}

export function messageAnswer(description: string) {
  return { description, content: json({ type: 'object', required: ['message'], properties: { message: { type: 'string' } } }) };
}

export function csvAnswer(description: string) {
  return { description, content: { 'text/csv': { schema: { type: 'string' } } } };
}

/** The OpenAPI operation object of a spec. */
export function operation(spec: OperationSpec): Record<string, unknown> {
  const parameters = [
    ...pathParameters(spec.params),
    ...pathParameters(spec.checkedParams),
    ...queryParameters(spec.query),
    ...(spec.ifMatch ? [{ $ref: '#/components/parameters/ifMatch' }] : []),
  ];
  const validates = spec.params !== undefined || spec.query !== undefined || spec.requestBody !== undefined;
  const errors: string[] = [
    ...(validates ? ['400'] : []),
    ...(spec.access === 'public' || spec.access === 'development' ? [] : ['401']),
    ...(typeof spec.access === 'string' ? [] : ['403']),
    ...(spec.errors ?? []).map(String),
    ...(spec.ifMatch ? ['412', '428'] : []),
  ];
  return {
    tags: [spec.tag],
    summary: spec.summary,
    description: [accessText(spec.access), spec.notes].filter(Boolean).join(' '),
    ...(spec.optionalToken ? { security: [{}, { bearer: [] }] } : spec.access === 'public' || spec.access === 'development' ? { security: [] } : {}),
    'x-permission': spec.access,
    ...(spec.storage ? { 'x-storage': spec.storage } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(spec.requestBody ? { requestBody: spec.requestBody } : {}),
    responses: {
      ...spec.answers,
      ...Object.fromEntries(errors.map((status) => [status, { $ref: `#/components/responses/${ERROR_RESPONSES[status as keyof typeof ERROR_RESPONSES].name}` }])),
    },
  };
}

function accessText(access: Access): string {
  if (access === 'public') return 'Public: no token needed.';
  if (access === 'development') return 'Development only: no token needed on a server not in production; with NODE_ENV=production it answers 404, as a path no route serves.';
  if (access === 'signed-in') return 'Any signed-in user.';
  const named = (permission: Permission) => (permission.action ? `${permission.module}:${permission.action}` : `any permission on ${permission.module}`);
  if ('anyOf' in access) return `Requires one of ${access.anyOf.map(named).join(', ')}.`;
  if ('allOf' in access) return `Requires ${access.allOf.map(named).join(' and ')}.`;
  return `Requires ${named(access)}.`;
}

function pathParameters(schema: JsonSchema | undefined): unknown[] {
  if (!schema) return [];
  // The id of every record route is one shared component.
  if (schema === idParams) return [{ $ref: '#/components/parameters/id' }];
  return Object.entries(properties(schema)).map(([name, property]) => ({ name, in: 'path', required: true, schema: property }));
}

function queryParameters(schema: JsonSchema | undefined): unknown[] {
  if (!schema) return [];
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties(schema)).map(([name, property]) => ({ name, in: 'query', ...(required.has(name) ? { required: true } : {}), schema: property }));
}

function properties(schema: JsonSchema): Record<string, unknown> {
  return (schema.properties ?? {}) as Record<string, unknown>;
}
