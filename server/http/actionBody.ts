import { actionFormSchema } from '../registry.ts';
import type { JsonSchema } from '../../contract/description.ts';
import { writeSchema } from './requestSchemas.ts';

/**
 * The request body of an action the manifest gives a form (profile, change password, top-up, subscription): the
 * form's schema as every write schema is applied, so a body is judged by the same rules, and answered with the same
 * messages, as in the console's form.
 *
 * `serverOnly` adds required properties the server needs but no user types, so they are not form fields: a top-up's
 * idempotency key, which the console makes once per dialog and sends beside the form's data. It is the one way a
 * body may differ from its form, and it may only add properties, never loosen or replace the form's.
 */
export function actionBodySchema(
  module: string,
  action: string,
  serverOnly: Record<string, JsonSchema> = {},
): JsonSchema {
  const body = writeSchema(actionFormSchema(module, action));
  const names = Object.keys(serverOnly);
  if (names.length === 0) return body;
  const properties = body.properties as Record<string, JsonSchema>;
  const clash = names.find((name) => Object.hasOwn(properties, name));
  if (clash)
    throw new Error(`"${clash}" is a field of the manifest's form, so it cannot also be a server-only property.`);
  return {
    ...body,
    required: [...((body.required ?? []) as string[]), ...names],
    properties: { ...properties, ...serverOnly },
  };
}
