import { readAreaDescription } from '../../contract/writtenDescription.ts';
import type { AreaModule, ResourceValidators } from './areaTypes.ts';

/**
 * An area's chunk: its generated description (the console's JSON) joined with its precompiled validators, by module.
 * Codegen writes both from one model and `npm run check` holds them together, so every entity and form has its
 * validator here; the chunk carries no check of its own for that.
 */
export function areaModule(written: unknown, validators: Partial<Record<string, ResourceValidators>>): AreaModule {
  const area = readAreaDescription(written);
  for (const { module, entity, forms } of area.resources) {
    const own = validators[module];
    if (entity) Object.assign(entity, { validateCreate: own?.create, validateUpdate: own?.update });
    for (const [action, form] of Object.entries(forms)) Object.assign(form, { validate: own?.forms?.[action] });
  }
  return area as unknown as AreaModule;
}
