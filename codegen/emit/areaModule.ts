import type { AreaModel, ProjectModel } from '../../contract/description.ts';
import { writeAreaDescription } from '../../contract/writtenDescription.ts';
import { tsHeader } from './header.ts';
import { formValidatorName, hasValidators } from './validators.ts';

/**
 * The area's description in its two files (contract/writtenDescription.ts): src/generated/areas/<area>.json, what
 * the console reads (the server reads it too), and server/generated/areas/<area>.json, what only the server reads.
 */
export function emitAreaDescription(area: AreaModel): { console: string; server: string } {
  return writeAreaDescription(area);
}

/**
 * server/generated/areas/index.ts: every area's two files, for the server (the console loads each area's chunk on its
 * own). Static imports, so every runtime and bundler finds the files.
 */
export function emitAreaIndex(model: ProjectModel): string {
  const names = model.areas.map((area, index) => [index, area.path] as const);
  return `${tsHeader()}
${names.map(([index, path]) => `import area${index} from '../../../src/generated/areas/${path}.json';\nimport facts${index} from './${path}.json';`).join('\n')}

/** Each area's description as written, the console's file and the server's, in module order. */
export const AREA_DESCRIPTIONS: readonly { written: unknown; serverFacts: unknown }[] = [
${names.map(([index]) => `  { written: area${index}, serverFacts: facts${index} },`).join('\n')}
];
`;
}

/**
 * src/generated/areas/<area>.ts: the area's chunk, which exports its description as written (`written`) and its
 * precompiled validators by module (`validators`); the shell joins them as the chunk arrives (src/routing/areaModule.ts).
 * An area with nothing to validate has no entity and no form, so its chunk is the description alone.
 */
export function emitAreaModule(area: AreaModel): string {
  if (!hasValidators(area)) {
    return `${tsHeader()}
export { default as written } from './${area.path}.json';
`;
  }
  const resources = area.resources.flatMap((resource) => {
    const validators: string[] = [];
    if (resource.entity) {
      const update = resource.entity.updateSchema === resource.entity.createSchema ? 'Create' : 'Update';
      validators.push(`create: compiled.${resource.typeName}Create`, `update: compiled.${resource.typeName}${update}`);
    }
    const forms = Object.keys(resource.forms).map(
      (action) => `${action}: compiled.${formValidatorName(resource, action)}`,
    );
    if (forms.length > 0) validators.push(`forms: { ${forms.join(', ')} }`);
    return validators.length > 0 ? [`  ${resource.key}: { ${validators.join(', ')} },`] : [];
  });
  return `${tsHeader()}
import type { AreaChunk } from '../../routing/areaTypes.ts';
import * as compiled from '../validators/${area.path}.ts';

export { default as written } from './${area.path}.json';

export const validators: AreaChunk['validators'] = {
${resources.join('\n')}
};
`;
}
