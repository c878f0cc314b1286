import type { FastifyError, FastifyInstance, FastifySchema } from 'fastify';
import type { ConsolePages } from '../console/consoleSite.ts';
import { PG, isDatabaseError, type DatabaseError } from '../db/database.ts';
import { ENTITY_RESOURCES, field as entityField, type RegistryEntity } from '../registry.ts';
import { FIELD_ERRORS, HttpError } from './errors.ts';
import { fieldErrorsMessage } from './fieldErrorsMessage.ts';
import { RequestValidationError } from './validation.ts';

/**
 * Every failure answers `{ message, errors? }` (docs/api.md, "Errors"); nothing internal leaks out of a 500. A GET of
 * a path outside the API that no route serves and that names no file is one of the console's own paths:
 * `consolePages` answers it.
 */
export function registerErrorHandler(app: FastifyInstance, consolePages: ConsolePages | null = null): void {
  app.setErrorHandler((error: FastifyError | HttpError | Error, request, reply) => {
    const answer = errorAnswer(error, request.routeOptions.schema);
    if (answer) {
      if (isDatabaseError(error) && error.code.startsWith('22'))
        request.log.warn({ err: error }, 'the database refused a value of the request, naming no field');
      return reply.code(answer.status).headers(answer.headers).send(answer.body);
    }
    const fastifyError = error as FastifyError;
    if (fastifyError.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
      return reply.code(413).send({ message: 'The request body is too large.' });
    const status = fastifyError.statusCode;
    if (status && status >= 400 && status < 500) {
      const message =
        fastifyError.code?.startsWith('FST_ERR_CTP') || error instanceof SyntaxError
          ? 'The request body is not valid JSON.'
          : fastifyError.message;
      return reply.code(status).send({ message });
    }
    request.log.error({ err: error }, 'unexpected error');
    return reply.code(500).send({ message: 'Something went wrong on the server.' });
  });

  app.setNotFoundHandler((request, reply) => {
    if (consolePages && request.method === 'GET' && !isApiPath(request.url) && !namesAFile(request.url)) {
      const page = consolePages(request.url);
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(page);
    }
    return reply.code(404).send({ message: `No such endpoint: ${request.method} ${request.url.split('?')[0]}` });
  });
}

/** Whether a URL names the API however it is spelled (`/%61pi/`, `//api/`, `/API/`): those get a JSON 404, never the page. */
function isApiPath(url: string): boolean {
  let path = url.split('?')[0] ?? '';
  try {
    path = decodeURIComponent(path);
  } catch {
    return true;
  }
  return /^\/+api(?:\/|$)/i.test(path);
}

/** `/assets/app.js.map`: a missing file is a 404, not the console's page. */
function namesAFile(url: string): boolean {
  return /\.[^/]*$/.test(url.split('?')[0] ?? '');
}

/** What a refused request is answered: its status, `{ message, errors? }` and headers. */
export interface ErrorAnswer {
  status: number;
  body: { message: string; errors?: Record<string, string>; code?: string };
  headers: Record<string, string>;
}

/**
 * The answer to an error the API means to give (an `HttpError`, a request failing its schema, a database refusal),
 * null for anything else. A 400 with field errors has a message naming them by their titles in the route's schema
 * (or the entity's, for a database refusal) for the console's toast (docs/api.md, "Errors").
 */
export function errorAnswer(error: unknown, schema: FastifySchema | undefined): ErrorAnswer | null {
  const answer = plainAnswer(error);
  const errors = answer?.body.errors;
  if (!answer || answer.status !== 400 || !errors) return answer;
  const table = isDatabaseError(error) ? (error as { table?: string }).table : undefined;
  const titleOf = (name: string) => titleInSchema(schema, name) ?? titleInTable(table, name);
  return { ...answer, body: { message: fieldErrorsMessage(inFormOrder(errors, schema), titleOf), errors } };
}

/** The errors in the order of the body schema's fields, as the form shows them (and focuses the first); others after. */
function inFormOrder(errors: Record<string, string>, schema: FastifySchema | undefined): Record<string, string> {
  const fields = Object.keys((schema?.body as SchemaNode | undefined)?.properties ?? {});
  const place = (name: string) => {
    const at = fields.indexOf(name.split('.')[0]!);
    return at < 0 ? fields.length : at;
  };
  return Object.fromEntries(Object.entries(errors).sort(([a], [b]) => place(a) - place(b)));
}

function plainAnswer(error: unknown): ErrorAnswer | null {
  if (error instanceof HttpError) {
    return {
      status: error.statusCode,
      body: {
        message: error.message,
        ...(error.errors ? { errors: error.errors } : {}),
        ...(error.code ? { code: error.code } : {}),
      },
      headers: error.headers,
    };
  }
  if (error instanceof RequestValidationError)
    return { status: 400, body: { message: error.message, errors: error.errors }, headers: {} };
  const refused = isDatabaseError(error) ? databaseAnswer(error) : null;
  return refused ? { ...refused, headers: {} } : null;
}

type SchemaNode = { title?: unknown; properties?: Record<string, SchemaNode> };

/** The title of a field (`code`, or `rows.code` inside an object) in the route's body, query or path schema. */
function titleInSchema(schema: FastifySchema | undefined, name: string): string | undefined {
  for (const part of [schema?.body, schema?.querystring, schema?.params] as (SchemaNode | undefined)[]) {
    let node = part;
    for (const segment of name.split('.')) node = node?.properties?.[segment];
    if (typeof node?.title === 'string') return node.title;
  }
  return undefined;
}

function titleInTable(table: string | undefined, name: string): string | undefined {
  const entity = table ? ENTITY_RESOURCES.find((resource) => resource.entity.table === table)?.entity : undefined;
  return entity ? entityField(entity, name)?.title : undefined;
}

/** The answer a database refusal gets: a clash on a unique key, a record still in use, a value the column cannot hold. */
function databaseAnswer(error: DatabaseError & { table?: string }): Omit<ErrorAnswer, 'headers'> | null {
  const field = fieldOfConstraint(error.table, error.constraint);
  switch (error.code) {
    case PG.uniqueViolation:
      return { status: 400, body: { message: FIELD_ERRORS, errors: uniqueValueTaken(error) } };
    case PG.restrictViolation:
      return {
        status: 409,
        body: { message: 'This record is still in use by other records, so it cannot be deleted.' },
      };
    case PG.foreignKeyViolation:
      if (error.detail?.includes('referenced from')) {
        return {
          status: 409,
          body: { message: 'This record is still in use by other records, so it cannot be deleted.' },
        };
      }
      return {
        status: 400,
        body: { message: FIELD_ERRORS, errors: { [field ?? '_']: 'The selected record does not exist.' } },
      };
    case PG.notNullViolation:
      return {
        status: 400,
        body: {
          message: FIELD_ERRORS,
          errors: { [(error as { column?: string }).column ?? '_']: 'This field is required' },
        },
      };
    case PG.serializationFailure:
      return { status: 409, body: { message: 'The record was changed at the same time. Please try again.' } };
    default:
      // Class 22: data exceptions (a value PostgreSQL cannot hold, e.g. a date out of its range).
      return error.code.startsWith('22')
        ? { status: 400, body: { message: FIELD_ERRORS, errors: { _: 'Invalid value.' } } }
        : null;
  }
}

const IN_USE = 'This value is already in use.';

/** The field a unique violation names, with the message a form shows on it. */
export function uniqueValueTaken(error: DatabaseError & { table?: string }): Record<string, string> {
  return (
    uniqueClash(error.table, error.constraint) ?? { [fieldOfConstraint(error.table, error.constraint) ?? '_']: IN_USE }
  );
}

/** The manifest's unique keys by table and index name, the constraint a unique violation names. */
const UNIQUE_KEYS = new Map(
  ENTITY_RESOURCES.flatMap(({ entity }) =>
    entity.unique.map((key) => [`${entity.table}.${key.index}`, { entity, fields: key.fields }] as const),
  ),
);

/**
 * A clash on a manifest unique key, on the key's last field; a composite key's message says what the value is unique
 * within, by the other fields' titles: "This value is already in use for this Lookup type."
 */
function uniqueClash(table: string | undefined, constraint: string | undefined): Record<string, string> | null {
  const key = UNIQUE_KEYS.get(`${table}.${constraint}`);
  return key ? keyInUse(key.entity, key.fields) : null;
}

/**
 * What a create says of a unique key's value already in use, on the key's last field: an import says the same of a
 * key held by a record outside the caller's scope, so it tells no more than the form would.
 */
export function keyInUse(entity: RegistryEntity, fields: readonly string[]): Record<string, string> {
  const key = { entity, fields };
  const last = key.fields.at(-1)!;
  if (key.fields.length === 1) return { [last]: IN_USE };
  const within = key.fields.slice(0, -1).map((name) => entityField(key.entity, name)?.title ?? name);
  const listed = within.length === 1 ? within[0] : `${within.slice(0, -1).join(', ')} and ${within.at(-1)}`;
  return { [last]: `This value is already in use for this ${listed}.` };
}

/** `users_email_key`, `users_email_lower_key`, `users_role_id_fkey` -> the field they guard. */
function fieldOfConstraint(table: string | undefined, constraint: string | undefined): string | null {
  if (!table || !constraint?.startsWith(`${table}_`)) return null;
  const rest = constraint.slice(table.length + 1).replace(/(?:_lower)?_(?:key|fkey)$/, '');
  const entity = ENTITY_RESOURCES.find((resource) => resource.entity.table === table)?.entity;
  return entity?.fields.some((field) => field.name === rest) ? rest : rest || null;
}
