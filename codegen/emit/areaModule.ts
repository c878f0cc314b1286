import type { AreaModel, ResourceModel } from '../model.ts';
import { literal, tsHeader } from './header.ts';

/** src/generated/areas/<area>.ts: the area's chunk, its resource descriptions with their validators. */
export function emitAreaModule(area: AreaModel): string {
  const hasEntities = area.resources.some((resource) => resource.entity);
  const resources = area.resources.map((resource) => describeResource(resource));
  return `${tsHeader()}
import type { AreaModule } from '../types.ts';
${hasEntities ? `import * as validators from '../validators/${area.path}.ts';\n` : ''}
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
      createSchema: ${literal(resource.entity.createSchema, 6)},
      updateSchema: ${literal(resource.entity.updateSchema, 6)},
      fields: ${literal(
        resource.entity.fields.map(({ sqlType: _sqlType, relation, ...field }) => ({
          ...field,
          relation: relation ? { resource: relation.resource, api: relation.api, labelField: relation.labelField } : null,
        })),
        6,
      )},
      unique: ${literal(resource.entity.unique, 6)},
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
    },`;
}
