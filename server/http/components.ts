/**
 * Names of the schemas and answers several routes share. The OpenAPI document lists a named object once, under
 * `components`, and every route that uses it refers to it there; the routes themselves use the object as it is.
 * The name belongs to the object (not to a copy), so a route must use the very object that was named.
 */
export type ComponentKind = 'schemas' | 'responses';

const names = new WeakMap<object, { kind: ComponentKind; name: string }>();

function named<T extends object>(kind: ComponentKind, name: string, value: T): T {
  const earlier = names.get(value);
  if (earlier && (earlier.kind !== kind || earlier.name !== name))
    throw new Error(`One object named twice: ${earlier.name} and ${name}.`);
  names.set(value, { kind, name });
  return value;
}

/** A schema listed once under `components.schemas`. */
export function namedSchema<T extends object>(name: string, schema: T): T {
  return named('schemas', name, schema);
}

/** An answer (description and content) listed once under `components.responses`. */
export function namedAnswer<T extends object>(name: string, answer: T): T {
  return named('responses', name, answer);
}

export function componentOf(value: object): { kind: ComponentKind; name: string } | undefined {
  return names.get(value);
}
