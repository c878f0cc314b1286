import type { FastifyInstance } from 'fastify';
import { HttpError, validationError } from './errors.ts';

const MAX_DEPTH = 64;

export const MERGE_PATCH = 'application/merge-patch+json';

/**
 * JSON bodies (and merge patches) parsed so that a prototype-polluting key (`__proto__`, `constructor.prototype`) is a 400 naming
 * the field, like any other unknown field, rather than being dropped silently.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  // A JSON Merge Patch (RFC 7396, a record's PATCH) is JSON read the same way.
  app.addContentTypeParser(['application/json', MERGE_PATCH], { parseAs: 'string' }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      done(new HttpError(400, 'The request body is not valid JSON.'), undefined);
      return;
    }
    const poisoned = pollutingKey(parsed, '', 0);
    if (poisoned) {
      done(validationError({ [poisoned]: 'This field is not allowed' }), undefined);
      return;
    }
    done(null, parsed);
  });
}

function pollutingKey(value: unknown, path: string, depth: number): string | null {
  if (value === null || typeof value !== 'object') return null;
  if (depth > MAX_DEPTH) return path || '_';
  for (const key of Object.keys(value)) {
    const here = path ? `${path}.${key}` : key;
    if (key === '__proto__') return here;
    const child = (value as Record<string, unknown>)[key];
    if (key === 'constructor' && child !== null && typeof child === 'object' && Object.hasOwn(child, 'prototype'))
      return `${here}.prototype`;
    const found = pollutingKey(child, here, depth + 1);
    if (found) return found;
  }
  return null;
}
