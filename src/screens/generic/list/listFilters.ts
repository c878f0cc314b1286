import {
  EMPTY_SUFFIX,
  filterAddressKeys,
  FROM_SUFFIX,
  listFilterModels,
  RANGE_SUFFIX,
  TO_SUFFIX,
  type FilterKind,
} from '../../../../contract/listFilters.ts';
import type { FieldDescription, ResourceDescription } from '../../../generated/types.ts';

export interface ListFilter {
  field: FieldDescription;
  kind: FilterKind;
  /** Takes several values, comma-separated in the address (`status=trial,expired`). */
  multiple: boolean;
  /** Offers "is empty" and "is not empty" (`<field>_empty=true|false`). */
  emptiable: boolean;
  /** The address keys it uses: the field, a date's `_from`, `_to` and `_range` (a preset), and `_empty`. */
  keys: readonly string[];
}

/** The keys of one filter by role, so controls and chips need not spell them. */
export function keysOf(filter: ListFilter) {
  const { name } = filter.field;
  return {
    value: name,
    from: `${name}${FROM_SUFFIX}`,
    to: `${name}${TO_SUFFIX}`,
    range: `${name}${RANGE_SUFFIX}`,
    empty: `${name}${EMPTY_SUFFIX}`,
  };
}

/** The manifest's filters of a resource, each with the address keys it uses. */
export function listFilters(resource: ResourceDescription): ListFilter[] {
  return listFilterModels(resource.entity?.fields ?? [], resource.list?.filters ?? []).map((model) => ({
    ...model,
    keys: filterAddressKeys(model),
  }));
}

/** What every filter control takes: its label, its value as the URL holds it, and the way to change it. */
export interface FilterProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
}
