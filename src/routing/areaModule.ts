import { readAreaDescription, type ResourceModel } from '../../contract/description.ts';
import type { ActionName, ModuleKey } from '../generated/permissions.ts';
import type { ActionFormDescription, AreaModule, PrecompiledValidator, ResourceDescription, ResourceValidators } from './areaTypes.ts';

/** An area's chunk: its generated description (JSON) joined with its precompiled validators, by module. */
export function areaModule(written: unknown, validators: Partial<Record<string, ResourceValidators>>): AreaModule {
  const area = readAreaDescription(written);
  return { module: area.key as ModuleKey, resources: area.resources.map((resource) => consoleResource(resource, validators[resource.key] ?? {})) };
}

function consoleResource(resource: ResourceModel, validators: ResourceValidators): ResourceDescription {
  const { entity } = resource;
  return {
    module: resource.key as ModuleKey,
    area: resource.areaKey as ModuleKey,
    label: resource.label,
    singular: resource.singular,
    api: resource.api,
    actions: resource.actions as ActionName[],
    routes: Object.fromEntries(resource.routes.map((route) => [route.action, route.path])),
    entity: entity
      ? {
          // As described (schemas, whether it keeps history and a trash), with fields and unique keys in the console's shape.
          ...entity,
          fields: entity.fields.map(({ sqlType: _sqlType, relation, ...field }) => ({
            ...field,
            relation: relation ? { resource: relation.resource as ModuleKey, api: relation.api, labelField: relation.labelField } : null,
          })),
          unique: entity.unique.map((key) => key.fields),
          validateCreate: required(validators.create, resource, 'create'),
          validateUpdate: required(validators.update, resource, 'update'),
        }
      : null,
    list: resource.list,
    uiSchema: resource.uiSchema,
    forms: Object.fromEntries(
      Object.entries(resource.forms).map(([action, form]): [string, ActionFormDescription] => [action, { ...form, validate: required(validators.forms?.[action], resource, action) }]),
    ),
  };
}

function required(validator: PrecompiledValidator | undefined, resource: ResourceModel, what: string): PrecompiledValidator {
  if (!validator) throw new Error(`The area chunk has no ${what} validator for ${resource.key}: run \`npm run generate\`.`);
  return validator;
}
