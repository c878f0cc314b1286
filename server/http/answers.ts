/**
 * The answers routes declare in their `schema.response`, by status: each is an OpenAPI response object (description,
 * content by media type, headers). Fastify serialises a JSON answer with its schema (fast-json-stringify), and the
 * OpenAPI document (server/modules/openapi) prints it as it stands. The error answers are written here once.
 */
import type { JsonSchema } from '../../contract/description.ts';
import { namedAnswer, namedSchema } from './components.ts';

export interface Answer {
  description: string;
  content?: Record<string, { schema: JsonSchema; encoding?: Record<string, unknown> }>;
  headers?: Record<string, { description: string; schema: JsonSchema }>;
}

declare module 'fastify' {
  interface FastifySchema {
    /** What the OpenAPI document says of the route beyond its schemas and access rule. */
    tags?: string[];
    operationId?: string;
    summary?: string;
    description?: string;
    /** Only where it differs from what the access rule implies: logout reads a token when one is sent. */
    security?: Array<Record<string, string[]>>;
  }
}

export function json(schema: JsonSchema): NonNullable<Answer['content']> {
  return { 'application/json': { schema } };
}

/**
 * An object an answer always sends whole: every property it names is required, so the names are written once and
 * `required` cannot drift from `properties`. `more` holds its other keywords (`additionalProperties`, a description, a
 * nullable `type`).
 */
export function wholeObject<Properties extends Record<string, JsonSchema>>(
  properties: Properties,
  more: JsonSchema = {},
): JsonSchema & { properties: Properties } {
  return { type: 'object', required: Object.keys(properties), properties, ...more };
}

/** The body of every answer other than 2xx (docs/api.md, "Errors"). */
export const ERROR_BODY = namedSchema('Error', {
  type: 'object',
  required: ['message'],
  properties: {
    message: { type: 'string' },
    errors: { type: 'object', additionalProperties: { type: 'string' }, description: 'Field name → message.' },
    code: {
      type: 'string',
      description:
        'A refusal the console acts on by name: `two_factor_enrolment_required` (403: the role requires a second factor and the caller has none yet).',
    },
  },
});

function errorAnswer(name: string, description: string, headers?: Answer['headers']): Answer {
  return namedAnswer(name, { description, content: json(ERROR_BODY), ...(headers ? { headers } : {}) });
}

const ERROR_ANSWERS = {
  400: errorAnswer(
    'BadRequest',
    'Invalid input: `errors` names each field, with the message the console\'s forms show; `message` names the fields by their titles, "Code: This value is already in use." (Also an `APP-SOURCE` header other than `ADMIN_APP`, `CUSTOMER` or `ADMIN`.)',
  ),
  401: errorAnswer('Unauthorized', 'Missing, expired or invalid token.'),
  403: errorAnswer(
    'Forbidden',
    "Refused: the caller's role lacks the permission the operation requires (or an upload link is not valid, or a browser holding the `XSRF-TOKEN` cookie did not send it back as `X-XSRF-TOKEN`, or the caller's role requires two-factor sign-in and they have not enrolled a second factor yet: `code` is then `two_factor_enrolment_required`).",
  ),
  404: errorAnswer('NotFound', 'No such record (or none the caller may see).'),
  409: errorAnswer(
    'Conflict',
    'The request conflicts with the current state (a record still referenced, a file already posted).',
  ),
  412: errorAnswer(
    'PreconditionFailed',
    'The record was changed since the caller read it: `If-Match` does not name its current version. Read it again (GET sends the new `ETag`), then make the change again.',
  ),
  413: errorAnswer('PayloadTooLarge', 'The body or file is larger than allowed.'),
  415: errorAnswer('UnsupportedMediaType', 'The file is not of an accepted type.'),
  428: errorAnswer(
    'PreconditionRequired',
    'The change needs an `If-Match` header with the `ETag` of the record as read.',
  ),
  429: errorAnswer('TooManyRequests', 'Too many attempts; `Retry-After` says when to try again.', {
    'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } },
  }),
} satisfies Record<number, Answer>;

export type ErrorStatus = keyof typeof ERROR_ANSWERS;

/** The error answers a route gives, for its `schema.response`. */
export function errorAnswers(...statuses: ErrorStatus[]): Partial<Record<ErrorStatus, Answer>> {
  return Object.fromEntries(statuses.map((status) => [status, ERROR_ANSWERS[status]]));
}

/** `{ data, message? }`; `message` is required when the route always sends one. */
export function dataAnswer(description: string, data: JsonSchema, { message = false } = {}): Answer {
  return {
    description,
    content: json({
      type: 'object',
      required: message ? ['data', 'message'] : ['data'],
      properties: { data, message: { type: 'string' } },
    }),
  };
}

export const LIST_META = namedSchema(
  'ListMeta',
  wholeObject({ total: { type: 'integer' }, page: { type: 'integer' }, page_size: { type: 'integer' } }),
);

/** `{ data: [...], meta }`: a page of a list; `meta` tells which page (the generic API's `LIST_META` unless given). */
export function listAnswer(description: string, item: JsonSchema, meta: JsonSchema = LIST_META): Answer {
  return {
    description,
    content: json(wholeObject({ data: { type: 'array', items: item }, meta })),
  };
}

export function messageAnswer(description: string): Answer {
  return {
    description,
    content: json(wholeObject({ message: { type: 'string' } })),
  };
}

/** A CSV download; the route streams it, so no serialiser touches it. */
export function csvAnswer(description: string): Answer {
  return { description, content: { 'text/csv': { schema: { type: 'string' } } } };
}

/** The answer with the record's version as its `ETag` header (docs/api.md, "Record versions"). */
export function withETag(answer: Answer): Answer {
  return {
    ...answer,
    headers: {
      ETag: { description: 'The record\'s version as a strong entity tag: `"3"`.', schema: { type: 'string' } },
    },
  };
}
