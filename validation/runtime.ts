/**
 * The run-time helpers ajv's standalone validators call, in ESM. ajv ships them as CommonJS, whose default
 * export bundlers disagree on (Vite imports the exports object, Node the function), so the generated
 * validators import these instead.
 */

/** String length in Unicode code points, as JSON Schema's minLength / maxLength count it. */
export function ucs2length(value: string): number {
  let length = 0;
  for (const _codePoint of value) length += 1;
  return length;
}
