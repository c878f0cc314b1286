import { DATE_PRESETS, isDatePreset, splitValues, VALUE_SEPARATOR } from '../../../../contract/listFilters.ts';
import { useRelationLabel } from '../../../forms/useRelationOptions.ts';
import { enumLabel, formatValue } from '../../shared/formatValue.ts';
import { keysOf, type ListFilter } from './listFilters.ts';
import './filterChips.css';

export interface FilterChipsProps {
  filters: readonly ListFilter[];
  values: Record<string, string>;
  search: string;
  onChange: (values: Record<string, string>) => void;
  onClearSearch: () => void;
  onClearAll: () => void;
}

interface Chip {
  key: string;
  label: string;
  /** The values without this one. */
  without: Record<string, string>;
  relation?: { api: string; id: string; title: string };
}

/** Every search and filter value in force, each a button that removes it. */
export function FilterChips({ filters, values, search, onChange, onClearSearch, onClearAll }: FilterChipsProps) {
  const chips = filters.flatMap((filter) => chipsOf(filter, values));
  if (chips.length === 0 && search.trim() === '') return null;
  return (
    <ul className="filter-chips" aria-label="Search and filters in force">
      {search.trim() !== '' && (
        <li>
          <ChipButton text={`Search: ${search.trim()}`} onRemove={onClearSearch} />
        </li>
      )}
      {chips.map((chip) => (
        <li key={chip.key}>{chip.relation ? <RelationChip {...chip.relation} onRemove={() => onChange(chip.without)} /> : <ChipButton text={chip.label} onRemove={() => onChange(chip.without)} />}</li>
      ))}
      <li>
        <button type="button" className="link-button" onClick={onClearAll}>
          Clear all
        </button>
      </li>
    </ul>
  );
}

function ChipButton({ text, onRemove }: { text: string; onRemove: () => void }) {
  return (
    <button type="button" className="filter-chip" aria-label={`Remove ${text}`} onClick={onRemove}>
      <span>{text}</span>
      <span aria-hidden="true"> ×</span>
    </button>
  );
}

function RelationChip({ api, id, title, onRemove }: { api: string; id: string; title: string; onRemove: () => void }) {
  const { label } = useRelationLabel(api, id);
  return <ChipButton text={`${title}: ${label ?? `#${id}`}`} onRemove={onRemove} />;
}

function chipsOf(filter: ListFilter, values: Record<string, string>): Chip[] {
  const keys = keysOf(filter);
  const { field } = filter;
  const title = field.title;
  const without = (patch: Record<string, string>) => ({ ...values, ...patch });
  const chips: Chip[] = [];
  const value = values[keys.value];
  if (value) {
    const parts = filter.multiple ? splitValues(value) : [value];
    for (const part of parts) {
      const rest = parts.filter((other) => other !== part).join(VALUE_SEPARATOR);
      const chip = { key: `${keys.value}=${part}`, without: without({ [keys.value]: rest }) };
      if (filter.kind === 'relation' && field.relation) chips.push({ ...chip, label: '', relation: { api: field.relation.api, id: part, title } });
      else chips.push({ ...chip, label: `${title}: ${filter.kind === 'choice' ? enumLabel(field, part) : formatValue(field, { [field.name]: parse(field.type, part) }, field.name)}` });
    }
  }
  const range = values[keys.range];
  if (range && isDatePreset(range)) chips.push({ key: keys.range, label: `${title}: ${DATE_PRESETS[range].toLowerCase()}`, without: without({ [keys.range]: '' }) });
  if (values[keys.from]) chips.push({ key: keys.from, label: `${title}: from ${values[keys.from]}`, without: without({ [keys.from]: '' }) });
  if (values[keys.to]) chips.push({ key: keys.to, label: `${title}: to ${values[keys.to]}`, without: without({ [keys.to]: '' }) });
  const empty = values[keys.empty];
  if (empty === 'true' || empty === 'false') chips.push({ key: keys.empty, label: `${title}: ${empty === 'true' ? 'is empty' : 'is not empty'}`, without: without({ [keys.empty]: '' }) });
  return chips;
}

function parse(type: string, text: string): unknown {
  if (type === 'boolean') return text === 'true';
  if (type === 'integer' || type === 'number') return Number(text);
  return text;
}
