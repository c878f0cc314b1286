import { readAreaDescription } from '../../contract/writtenDescription.ts';
import type { AreaChunk, AreaModule, PrecompiledValidator } from './areaTypes.ts';

/** A resource of the description while its validators are set on it. */
interface Joining {
  module: string;
  entity: { validateCreate?: PrecompiledValidator; validateUpdate?: PrecompiledValidator } | null;
  forms: Record<string, { validate?: PrecompiledValidator }>;
}

/**
 * An area as the console uses it: its chunk's description (the console's JSON) joined with its precompiled
 * validators, by module. The route table's loaders call it as a chunk arrives, so it ships once with the shell
 * instead of in each area's first visit. Codegen writes both halves from one model and `npm run check` holds them
 * together, so every entity and form has its validator here; hence no check of its own.
 */
export function joinArea({ written, validators = {} }: AreaChunk): AreaModule {
  const area = readAreaDescription(written);
  for (const resource of area.resources as Joining[]) {
    // Only read for a resource with an entity or a form, which always has its validators.
    const own = validators[resource.module]!;
    if (resource.entity) {
      resource.entity.validateCreate = own.create;
      resource.entity.validateUpdate = own.update;
    }
    for (const action in resource.forms) resource.forms[action]!.validate = own.forms![action];
  }
  return area as unknown as AreaModule;
}
