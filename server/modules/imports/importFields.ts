import type { FieldModel } from '../../../contract/description.ts';
import type { EntityResource } from '../../registry.ts';

/** The fields a file may fill: entered by people (not system, read-only or write-only), scalar. */
export function importableFields(resource: EntityResource): FieldModel[] {
  return resource.entity.fields.filter(
    (field) =>
      !field.system && !field.readOnly && !field.writeOnly && field.type !== 'array' && field.type !== 'object',
  );
}

/** The fields rows are matched on: the resource's first unique key (the manifest requires one for import). */
export function matchKey(resource: EntityResource): string[] {
  return resource.entity.unique[0]?.fields ?? [];
}

const normalised = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '');

/** Each heading's field, matched by name or title whatever the case, spacing and punctuation; null when none. */
export function suggestedMapping(
  headings: readonly string[],
  fields: readonly FieldModel[],
): Record<string, string | null> {
  const taken = new Set<string>();
  return Object.fromEntries(
    headings.map((heading) => {
      const wanted = normalised(heading);
      const field = fields.find(
        (candidate) =>
          !taken.has(candidate.name) &&
          (normalised(candidate.name) === wanted || normalised(candidate.title) === wanted),
      );
      if (field) taken.add(field.name);
      return [heading, field?.name ?? null];
    }),
  );
}
