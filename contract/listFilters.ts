/**
 * A list's filters as the server reads them and the console writes them (docs/api.md, "Lists"): the query keys each
 * manifest filter takes, how several values are written, and the date presets the console keeps by name.
 */
import type { FieldModel } from './description.ts';

type FilterField = Pick<FieldModel, 'name' | 'type' | 'format' | 'enum' | 'required' | 'system'> & {
  relation: unknown;
};

/**
 * - `choice`: an enum, one or several of its values (`status=active,trial`)
 * - `relation`: one or several related records by id (`country_id=3,7`)
 * - `date`: a range, `<field>_from` and `<field>_to`, both inclusive
 * - `boolean`, `value`: one value, equal
 */
export type FilterKind = 'choice' | 'relation' | 'date' | 'boolean' | 'value';

export interface ListFilterModel<F extends FilterField = FilterField> {
  field: F;
  kind: FilterKind;
  /** Takes several values, separated by commas. */
  multiple: boolean;
  /** The field may be left empty, so `<field>_empty=true` (is empty) and `=false` (is not empty) apply. */
  emptiable: boolean;
}

/** Separates the values of a filter that takes several; no enum value or id holds one. */
export const VALUE_SEPARATOR = ',';
export const FROM_SUFFIX = '_from';
export const TO_SUFFIX = '_to';
export const EMPTY_SUFFIX = '_empty';
/** The console's own key of a date filter given as a preset (`created_at_range=last_7_days`); the API takes dates. */
export const RANGE_SUFFIX = '_range';

export function isDateFormat(format: string | null): boolean {
  return format === 'date' || format === 'date-time';
}

function kindOf(field: FilterField): FilterKind {
  if (isDateFormat(field.format)) return 'date';
  if (field.relation) return 'relation';
  if (Array.isArray(field.enum)) return 'choice';
  return field.type === 'boolean' ? 'boolean' : 'value';
}

/** The manifest's filters of a list that name a field it has, in the manifest's order. */
export function listFilterModels<F extends FilterField>(
  fields: readonly F[],
  names: readonly string[],
): ListFilterModel<F>[] {
  return names.flatMap((name) => {
    const field = fields.find((candidate) => candidate.name === name);
    if (!field) return [];
    const kind = kindOf(field);
    return [
      { field, kind, multiple: kind === 'choice' || kind === 'relation', emptiable: !field.required && !field.system },
    ];
  });
}

/** The query keys a filter takes in the API: its name (unless a range), the range ends, and `_empty`. */
export function filterQueryKeys(filter: ListFilterModel): string[] {
  const { name } = filter.field;
  const keys = filter.kind === 'date' ? [`${name}${FROM_SUFFIX}`, `${name}${TO_SUFFIX}`] : [name];
  return filter.emptiable ? [...keys, `${name}${EMPTY_SUFFIX}`] : keys;
}

/** The keys the console's address (and so a saved view) may hold for a filter: the API's, and a date's preset. */
export function filterAddressKeys(filter: ListFilterModel): string[] {
  const keys = filterQueryKeys(filter);
  return filter.kind === 'date' ? [...keys, `${filter.field.name}${RANGE_SUFFIX}`] : keys;
}

export function splitValues(value: string): string[] {
  return value.split(VALUE_SEPARATOR).filter((part) => part !== '');
}

export const DATE_PRESETS = {
  today: 'Today',
  last_7_days: 'Last 7 days',
  this_month: 'This month',
  last_month: 'Last month',
} as const;

export type DatePreset = keyof typeof DATE_PRESETS;

export function isDatePreset(value: string): value is DatePreset {
  return Object.hasOwn(DATE_PRESETS, value);
}

/** A preset's first and last day (inclusive, `YYYY-MM-DD`) seen from `today` in the user's own calendar. */
export function presetRange(preset: DatePreset, today: Date): { from: string; to: string } {
  const day = (year: number, month: number, date: number) => isoDay(new Date(year, month, date));
  const [year, month, date] = [today.getFullYear(), today.getMonth(), today.getDate()];
  switch (preset) {
    case 'today':
      return { from: day(year, month, date), to: day(year, month, date) };
    case 'last_7_days':
      return { from: day(year, month, date - 6), to: day(year, month, date) };
    case 'this_month':
      return { from: day(year, month, 1), to: day(year, month + 1, 0) };
    case 'last_month':
      return { from: day(year, month - 1, 1), to: day(year, month, 0) };
  }
}

function isoDay(date: Date): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}
