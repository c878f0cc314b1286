import { MODULE, SUBSCRIPTION_PLAN_FIELDS, type ContractField } from '../../contract/modules.ts';
import { manifestError, pointerOf, type ManifestError } from '../errors.ts';
import type { LoadedArea } from '../load.ts';

/**
 * The subscription-plans module holds the fields the server reads by name (`SUBSCRIPTION_PLAN_FIELDS`), each of its
 * type and format and required, so that no sale reads a missing price as 0. A manifest without the module has no sales.
 */
export function subscriptionPlanErrors(areas: readonly LoadedArea[]): ManifestError[] {
  const errors: ManifestError[] = [];
  for (const { file, document: area } of areas) {
    area.resources.forEach((resource, index) => {
      if (resource.key !== MODULE.subscriptionPlans) return;
      const at = (...rest: (string | number)[]) => pointerOf('resources', index, ...rest);
      const refuse = (pointer: string, message: string) =>
        errors.push(manifestError('ModuleContractViolation', file, pointer, message));
      const schema = resource.entity?.schema;
      if (!schema) {
        refuse(at(), `${resource.key} holds the subscription plans a sale reads, so it needs an entity`);
        return;
      }
      const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
      const required = new Set((schema.required ?? []) as string[]);
      for (const contract of Object.values(SUBSCRIPTION_PLAN_FIELDS) as ContractField[]) {
        const { field } = contract;
        const property = Object.hasOwn(properties, field) ? properties[field] : undefined;
        const wanted = `${contract.type === 'integer' ? 'an' : 'a'} ${contract.type}${contract.format ? ` of format "${contract.format}"` : ''}`;
        const why = `${contract.readBy} (contract/modules.ts, SUBSCRIPTION_PLAN_FIELDS)`;
        if (!property) {
          refuse(at('entity', 'schema', 'properties'), `a plan needs "${field}", ${wanted}: ${why}`);
          continue;
        }
        if (property.type !== contract.type)
          refuse(at('entity', 'schema', 'properties', field, 'type'), `"${field}" must be ${wanted}: ${why}`);
        if (property.format !== contract.format)
          refuse(
            at('entity', 'schema', 'properties', field, ...(property.format === undefined ? [] : ['format'])),
            `"${field}" must be ${wanted}: ${why}`,
          );
        if (!required.has(field))
          refuse(at('entity', 'schema', 'required'), `"${field}" must be required, never empty: ${why}`);
      }
    });
  }
  return errors;
}
