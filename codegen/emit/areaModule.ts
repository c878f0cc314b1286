import type { AreaModel, ResourceModel } from '../model.ts';
import { literal, tsHeader } from './header.ts';
import { formValidatorName, hasValidators } from './validators.ts';

/** src/generated/areas/<area>.ts: the area's chunk, its resource descriptions with their validators. */
export function emitAreaModule(area: AreaModel): string {
  const resources = area.resources.map((resource) => describeResource(resource));
  // Schemas are hoisted so that an update schema equal to the create schema is one object, not two copies.
  const schemas = area.resources
    .filter((resource) => resource.entity)
    .map((resource) => {
      const entity = resource.entity!;
      const update = entity.updateSchema === entity.createSchema ? '' : `\nconst ${resource.typeName}UpdateSchema = ${literal(entity.updateSchema)};\n`;
      return `\nconst ${resource.typeName}CreateSchema = ${literal(entity.createSchema)};\n${update}`;
    })
    .join('');
  return `${tsHeader()}
import type { AreaModule } from '../types.ts';
${hasValidators(area) ? `import * as validators from '../validators/${area.path}.ts';\n` : ''}${schemas}
const area: AreaModule = {
  module: '${area.key}',
  resources: [
${resources.join('\n')}
  ],
};

export default area;
`;
}

function describeResource(resource: ResourceModel): string {
  const routes = Object.fromEntries(resource.routes.map((route) => [route.action, route.path]));
  const entity = resource.entity
    ? `{
      createSchema: ${resource.typeName}CreateSchema,
      updateSchema: ${resource.typeName}${resource.entity.updateSchema === resource.entity.createSchema ? 'Create' : 'Update'}Schema,
      fields: ${literal(
        resource.entity.fields.map(({ sqlType: _sqlType, relation, ...field }) => ({
          ...field,
          relation: relation ? { resource: relation.resource, api: relation.api, labelField: relation.labelField } : null,
        })),
        6,
      )},
      unique: ${literal(resource.entity.unique.map((key) => key.fields), 6)},
      validateCreate: validators.${resource.typeName}Create,
      validateUpdate: validators.${resource.typeName}Update,
    }`
    : 'null';
  return `    {
      module: '${resource.key}',
      area: '${resource.areaKey}',
      label: ${JSON.stringify(resource.label)},
      singular: ${JSON.stringify(resource.singular)},
      api: '${resource.api}',
      actions: ${literal(resource.actions, 6)},
      routes: ${literal(routes, 6)},
      entity: ${entity.replace(/\n/g, '\n  ')},
      list: ${literal(resource.list, 6)},
      uiSchema: ${literal(resource.uiSchema, 6)},
      forms: {${Object.entries(resource.forms)
        .map(([action, form]) => `\n        ${action}: {\n          schema: ${literal(form.schema, 10)},\n          uiSchema: ${literal(form.uiSchema, 10)},\n          validate: validators.${formValidatorName(resource, action)},\n        },`)
        .join('')}${Object.keys(resource.forms).length ? '\n      ' : ''}},
    },`;
}
