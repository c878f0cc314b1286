import type { ErrorObject } from 'ajv/dist/2020.js';
import { manifestError, pointerOf, type ManifestError } from '../errors.ts';
import { SCREEN_NAMES, SIDEBAR_ICONS } from '../vocabulary.ts';

/** An area file's shape errors (ajv's, against manifest.schema.json) as manifest errors, each in the author's words. */
export function shapeErrors(file: string, document: unknown, errors: readonly ErrorObject[]): ManifestError[] {
  return errors.filter((error) => !isOtherUniqueKeyForm(document, error)).map((error) => shapeError(file, error));
}

const UNIQUE_KEYS = /^\/resources\/\d+\/entity\/unique$/;
const UNIQUE_KEY = /^\/resources\/\d+\/entity\/unique\/\d+$/;

/**
 * A unique key is a field name or a list of them (an anyOf), and ajv reports both forms' failures and the anyOf's:
 * keep only those of the form the author wrote (a list when it is an array, else a name).
 */
function isOtherUniqueKeyForm(document: unknown, error: ErrorObject): boolean {
  if (!UNIQUE_KEY.test(error.instancePath)) return false;
  if (error.keyword === 'anyOf') return true;
  const value = error.instancePath
    .split('/')
    .slice(1)
    .reduce<unknown>((parent, segment) => (parent as Record<string, unknown>)[segment], document);
  return error.keyword === 'type' && error.params.type === (Array.isArray(value) ? 'string' : 'array');
}

function shapeError(file: string, error: ErrorObject): ManifestError {
  const pointer = error.instancePath;
  if (UNIQUE_KEYS.test(pointer) && error.keyword === 'uniqueItems') {
    return manifestError(
      'DuplicateUniqueKey',
      file,
      `${pointer}/${String(error.params.i)}`,
      `the same unique key as item ${String(error.params.j)}`,
    );
  }
  if (UNIQUE_KEY.test(pointer)) {
    if (error.keyword === 'minItems')
      return manifestError(
        'InvalidUniqueKey',
        file,
        pointer,
        'a composite unique key names 2 or more fields; write a single field as its name',
      );
    if (error.keyword === 'uniqueItems') {
      return manifestError(
        'InvalidUniqueKey',
        file,
        `${pointer}/${String(error.params.i)}`,
        `a composite unique key names each field once; this repeats item ${String(error.params.j)}`,
      );
    }
    if (error.keyword === 'type')
      return manifestError(
        'SchemaViolation',
        file,
        pointer,
        'a unique key is a field name or a list of 2 or more field names',
      );
  }
  if (error.keyword === 'additionalProperties') {
    const property = String(error.params.additionalProperty);
    return manifestError('UnknownProperty', file, `${pointer}${pointerOf(property)}`, `unknown property "${property}"`);
  }
  if (error.keyword === 'enum' && /\/actions\/\d+$/.test(pointer)) {
    return manifestError(
      'UnknownAction',
      file,
      pointer,
      `unknown action; expected one of ${(error.params.allowedValues as string[]).join(', ')}`,
    );
  }
  if (error.keyword === 'enum' && pointer === '/sidebar/icon') {
    return manifestError('UnknownIcon', file, pointer, `unknown icon; expected one of ${SIDEBAR_ICONS.join(', ')}`);
  }
  if (error.keyword === 'enum' && /\/screens\//.test(pointer)) {
    return manifestError(
      'UnknownScreen',
      file,
      pointer,
      `unknown custom screen; expected one of ${SCREEN_NAMES.join(', ')}`,
    );
  }
  if (error.keyword === 'propertyNames' && /\/screens$/.test(pointer)) {
    return manifestError(
      'UnknownAction',
      file,
      `${pointer}${pointerOf(String(error.params.propertyName))}`,
      'screens are keyed by an action of the vocabulary',
    );
  }
  return manifestError('SchemaViolation', file, pointer, error.message ?? 'invalid');
}
