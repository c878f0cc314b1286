import { DATE_PRESETS, isDatePreset, splitValues, VALUE_SEPARATOR } from '../../../../contract/listFilters.ts';
import { enumLabel, formatDate, formatValue } from '../../shared/formatValue.ts';
import { keysOf, type ListFilter } from './listFilters.ts';

/**
 * What a filter says of its field. Each is written in the address with the keys of contract/listFilters.ts, so saved
 * views, shared links and the API read them as before: `is` and `any` the field (`status=trial,expired`), `period`
 * a date's preset (`_range`), `between` its `_from` and `_to`, `empty` and `not-empty` its `_empty`.
 */
export type Operator = 'is' | 'any' | 'period' | 'between' | 'empty' | 'not-empty';

/** One condition on a filter's field: the values chosen (a period's preset; `between` its from and to, either may be ''). */
export interface Condition {
  operator: Operator;
  values: string[];
}

export const OPERATOR_LABELS: Record<Operator, string> = {
  is: 'is',
  any: 'is any of',
  period: 'is',
  between: 'is between',
  empty: 'is empty',
  'not-empty': 'is not empty',
};

/** The operators a filter offers, the first its default. */
export function operatorsOf(filter: ListFilter): Operator[] {
  const own: Operator[] = filter.kind === 'date' ? ['period', 'between'] : filter.multiple ? ['is', 'any'] : ['is'];
  return filter.emptiable ? [...own, 'empty', 'not-empty'] : own;
}

/** The fixed values of an enum or a boolean, in people's words. */
export function valueOptions(filter: ListFilter): { value: string; label: string }[] {
  const { field } = filter;
  if (field.type === 'boolean') {
    const [yes, no] = field.name === 'is_active' ? ['Active', 'Inactive'] : ['Yes', 'No'];
    return [
      { value: 'true', label: yes },
      { value: 'false', label: no },
    ];
  }
  return (field.enum ?? []).map((value) => ({ value: String(value), label: enumLabel(field, value) }));
}

/** The address keys a condition writes. */
function keysOfCondition(filter: ListFilter, operator: Operator): string[] {
  const keys = keysOf(filter);
  switch (operator) {
    case 'is':
    case 'any':
      return [keys.value];
    case 'period':
      return [keys.range];
    case 'between':
      return [keys.from, keys.to];
    default:
      return [keys.empty];
  }
}

/** The conditions the address holds for a filter, in the order chips show them. */
export function conditionsOf(filter: ListFilter, values: Record<string, string>): Condition[] {
  const keys = keysOf(filter);
  const conditions: Condition[] = [];
  const value = values[keys.value] ?? '';
  const chosen = filter.multiple ? splitValues(value) : value === '' ? [] : [value];
  if (chosen.length > 0) conditions.push({ operator: chosen.length > 1 ? 'any' : 'is', values: chosen });
  const range = values[keys.range] ?? '';
  if (filter.kind === 'date' && isDatePreset(range)) conditions.push({ operator: 'period', values: [range] });
  const [from, to] = [values[keys.from] ?? '', values[keys.to] ?? ''];
  if (filter.kind === 'date' && (from || to)) conditions.push({ operator: 'between', values: [from, to] });
  const empty = values[keys.empty];
  if (empty === 'true' || empty === 'false')
    conditions.push({ operator: empty === 'true' ? 'empty' : 'not-empty', values: [] });
  return conditions;
}

/** The values without this condition. */
export function withoutCondition(
  filter: ListFilter,
  values: Record<string, string>,
  operator: Operator,
): Record<string, string> {
  const next = { ...values };
  for (const key of keysOfCondition(filter, operator)) delete next[key];
  return next;
}

/** The values with the filter's field saying this condition alone. */
export function withCondition(
  filter: ListFilter,
  values: Record<string, string>,
  condition: Condition,
): Record<string, string> {
  const next = { ...values };
  for (const key of filter.keys) delete next[key];
  const keys = keysOf(filter);
  const [first = '', second = ''] = condition.values;
  switch (condition.operator) {
    case 'is':
      return { ...next, [keys.value]: first };
    case 'any':
      return { ...next, [keys.value]: condition.values.join(VALUE_SEPARATOR) };
    case 'period':
      return { ...next, [keys.range]: first };
    case 'between':
      return { ...next, ...(first && { [keys.from]: first }), ...(second && { [keys.to]: second }) };
    default:
      return { ...next, [keys.empty]: condition.operator === 'empty' ? 'true' : 'false' };
  }
}

/** Whether the condition has what it needs to apply. */
export function isComplete(condition: Condition): boolean {
  const [first = '', second = ''] = condition.values;
  switch (condition.operator) {
    case 'is':
      return first.trim() !== '';
    case 'any':
      return condition.values.length > 0;
    case 'period':
      return isDatePreset(first);
    case 'between':
      return first !== '' || second !== '';
    default:
      return true;
  }
}

/** A condition in words, less a relation's record labels (asked for by id): its operator and its values. */
export function describe(filter: ListFilter, condition: Condition): { operator: string; values: string[] } {
  const { field } = filter;
  const [first = '', second = ''] = condition.values;
  switch (condition.operator) {
    case 'period':
      return {
        operator: OPERATOR_LABELS.period,
        values: [isDatePreset(first) ? DATE_PRESETS[first].toLowerCase() : first],
      };
    case 'between': {
      const day = (text: string) => formatDate(text, false);
      if (!second) return { operator: 'is on or after', values: [day(first)] };
      if (!first) return { operator: 'is on or before', values: [day(second)] };
      return { operator: OPERATOR_LABELS.between, values: [`${day(first)} and ${day(second)}`] };
    }
    case 'is':
    case 'any': {
      const options = valueOptions(filter);
      const label = (value: string) =>
        options.find((option) => option.value === value)?.label ??
        formatValue(field, { [field.name]: parse(field.type, value) }, field.name);
      return { operator: OPERATOR_LABELS[condition.operator], values: condition.values.map(label) };
    }
    default:
      return { operator: OPERATOR_LABELS[condition.operator], values: [] };
  }
}

function parse(type: string, text: string): unknown {
  return type === 'integer' || type === 'number' ? Number(text) : text;
}
