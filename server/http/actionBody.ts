import { actionBody } from '../../contract/resources.ts';
import { actionFormSchema } from '../registry.ts';

type JsonSchema = Record<string, unknown>;

/**
 * The request body schema of an action the manifest gives a form (profile, change password, top-up, subscription),
 * with the server-only properties it adds: `actionBody`, which the OpenAPI document's body is built with too.
 */
export function actionBodySchema(module: string, action: string, serverOnly: Record<string, JsonSchema> = {}): JsonSchema {
  return actionBody(actionFormSchema(module, action), serverOnly);
}
