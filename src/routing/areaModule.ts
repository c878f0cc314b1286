import { readAreaDescription } from '../../contract/writtenDescription.ts';
import type { AreaModule, PrecompiledValidator, ResourceValidators } from './areaTypes.ts';

/** A resource of the description while its validators are set on it. */
interface Joining {
  module: string;
  entity: { validateCreate?: PrecompiledValidator; validateUpdate?: PrecompiledValidator } | null;
  forms: Record<string, { validate?: PrecompiledValidator }>;
}

/**
 * An area's chunk: its generated description (the console's JSON) joined with its precompiled validators, by module.
 * Codegen writes both from one model and `npm run check` holds them together, so every entity and form has its
 * validator here; this code is in every area's first visit, hence no check of its own and no copies.
 */
export function areaModule(written: unknown, validators: Partial<Record<string, ResourceValidators>>): AreaModule {
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
