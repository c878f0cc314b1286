import type { JsonSchema } from '../../contract/resources.ts';
import type { ProjectModel, ResourceModel } from '../../contract/description.ts';

// Shapes and helpers the fixed endpoints' operations share (openapiFixed.ts).
export const string = { type: 'string' } as const;
export const nullableString = { type: ['string', 'null'] } as const;
export const integer = { type: 'integer' } as const;
export const number = { type: 'number' } as const;
export const dateTime = { type: 'string', format: 'date-time' } as const;

export function object(properties: Record<string, unknown>, required: string[] = Object.keys(properties)) {
  return { type: 'object', required, properties };
}

/** A form of a resource as a request body (with the fields only the server adds), or none when the manifest gives no such form. */
export type FormBody = (resource: ResourceModel | undefined, action: string, serverOnly?: Record<string, JsonSchema>) => { requestBody?: Record<string, unknown> };

/** Every module with the actions it offers, as the role permission set lists them: the areas (view), then the resources. */
export function modulesOf(model: ProjectModel): Array<{ key: string; actions: readonly string[] }> {
  return [...model.areas.map((area) => ({ key: area.key, actions: ['view'] })), ...model.areas.flatMap((area) => area.resources).map((resource) => ({ key: resource.key, actions: resource.actions }))];
}
