import type { FastifySchemaCompiler } from 'fastify';
import type { ValidateFunction } from 'ajv';
import { createAjv } from '../../validation/createAjv.ts';
import { fieldErrors } from '../../validation/messages.ts';
import { FIELD_ERRORS } from './errors.ts';

/** A failed request validation, carrying the field errors the console maps onto its form (FORM-12). */
export class RequestValidationError extends Error {
  readonly statusCode = 400;
  constructor(readonly errors: Record<string, string>) {
    super(FIELD_ERRORS);
  }
}

// Bodies are judged exactly as the console's form judges them: no coercion, no defaults, and unknown
// properties rejected rather than removed. Query strings and path parameters arrive as text, so those coerce.
const bodyAjv = createAjv({ coerceTypes: false, removeAdditional: false, useDefaults: false });
const textAjv = createAjv({ coerceTypes: true, removeAdditional: false, useDefaults: true });

const compiled = new WeakMap<object, ValidateFunction>();

/** Compiles (once per schema object) and validates, returning field errors or null. */
export function validateBody(schema: Record<string, unknown>, data: unknown): Record<string, string> | null {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = bodyAjv.compile(schema);
    compiled.set(schema, validate);
  }
  if (validate(data)) return nulBytes(data);
  return fieldErrors(validate.errors ?? [], schema, data);
}

/**
 * Request headers and multipart bodies are documented by their route's schema but judged by the handler: a missing
 * `If-Match` is a 428 and a stale one a 412 (server/http/recordVersion.ts), and a multipart body is split and its
 * file checked by the route that takes it (400, 413, 415).
 */
const judgedByHandler = (httpPart: string | undefined, contentType: string | undefined) =>
  httpPart === 'headers' || contentType === 'multipart/form-data';

export const validatorCompiler: FastifySchemaCompiler<Record<string, unknown>> = ({
  schema,
  httpPart,
  contentType,
}) => {
  if (judgedByHandler(httpPart, contentType)) return (data: unknown) => ({ value: data });
  const ajv = httpPart === 'body' ? bodyAjv : textAjv;
  const validate = ajv.compile(schema);
  return (data: unknown) => {
    if (validate(data)) {
      const nul = nulBytes(data);
      return nul ? { error: new RequestValidationError(nul) } : { value: data };
    }
    return { error: new RequestValidationError(fieldErrors(validate.errors ?? [], schema, data)) };
  };
};

/** PostgreSQL text cannot hold U+0000; say so as a field error instead of failing in the database. */
function nulBytes(data: unknown, path = ''): Record<string, string> | null {
  if (typeof data === 'string') return data.includes('\u0000') ? { [path || '_']: 'Invalid value.' } : null;
  if (Array.isArray(data)) {
    for (const item of data) {
      const found = nulBytes(item, path);
      if (found) return found;
    }
    return null;
  }
  if (data && typeof data === 'object') {
    for (const [key, value] of Object.entries(data)) {
      const found =
        nulBytes(value, path ? `${path}.${key}` : key) ?? (key.includes('\u0000') ? { [key]: 'Invalid value.' } : null);
      if (found) return found;
    }
  }
  return null;
}
