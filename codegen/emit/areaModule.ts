import { writeAreaDescription, type AreaModel, type ProjectModel } from '../../contract/description.ts';
import { tsHeader } from './header.ts';
import { formValidatorName, hasValidators } from './validators.ts';

/** src/generated/areas/<area>.json: the area's description, the data the console, the server and the OpenAPI document read. */
export function emitAreaDescription(area: AreaModel): string {
  return writeAreaDescription(area);
}

/**
 * src/generated/areas/index.ts: every area's description, for the server (the console loads each area's chunk on its
 * own). Static imports, so every runtime and bundler finds the files.
 */
export function emitAreaIndex(model: ProjectModel): string {
  const names = model.areas.map((area, index) => [`area${index}`, area.path] as const);
  return `${tsHeader()}
${names.map(([name, path]) => `import ${name} from './${path}.json';`).join('\n')}

/** Each area's description as written, in module order. */
export const AREA_DESCRIPTIONS: readonly unknown[] = [${names.map(([name]) => name).join(', ')}];
`;
}

/** src/generated/areas/<area>.ts: the area's chunk, its description joined with its precompiled validators. */
export function emitAreaModule(area: AreaModel): string {
  const resources = area.resources.flatMap((resource) => {
    const validators: string[] = [];
    if (resource.entity) {
      const update = resource.entity.updateSchema === resource.entity.createSchema ? 'Create' : 'Update';
      validators.push(`create: validators.${resource.typeName}Create`, `update: validators.${resource.typeName}${update}`);
    }
    const forms = Object.keys(resource.forms).map((action) => `${action}: validators.${formValidatorName(resource, action)}`);
    if (forms.length > 0) validators.push(`forms: { ${forms.join(', ')} }`);
    return validators.length > 0 ? [`  ${resource.key}: { ${validators.join(', ')} },`] : [];
  });
  return `${tsHeader()}
import { areaModule } from '../../routing/areaModule.ts';
import description from './${area.path}.json';
${hasValidators(area) ? `import * as validators from '../validators/${area.path}.ts';\n` : ''}
export default areaModule(description, {${resources.length > 0 ? `\n${resources.join('\n')}\n` : ''}});
`;
}
