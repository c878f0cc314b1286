import type { FieldDescription, ResourceDescription } from '../../../generated/types.ts';

export interface ListFilter {
  field: FieldDescription;
  /** Date fields filter by a range (`<field>_from`, `<field>_to`); others by one value. */
  kind: 'select' | 'relation' | 'date-range' | 'text';
  keys: readonly string[];
}

/** The manifest's filters of a resource, each with the URL/API keys it uses. */
export function listFilters(resource: ResourceDescription): ListFilter[] {
  const fields = resource.entity?.fields ?? [];
  return (resource.list?.filters ?? []).flatMap((name): ListFilter[] => {
    const field = fields.find((candidate) => candidate.name === name);
    if (!field) return [];
    if (field.format === 'date' || field.format === 'date-time') return [{ field, kind: 'date-range', keys: [`${name}_from`, `${name}_to`] }];
    if (field.relation) return [{ field, kind: 'relation', keys: [name] }];
    if (field.enum || field.type === 'boolean') return [{ field, kind: 'select', keys: [name] }];
    return [{ field, kind: 'text', keys: [name] }];
  });
}

/** What every filter control takes: its label, its value as the URL holds it, and the way to change it. */
export interface FilterProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
}
