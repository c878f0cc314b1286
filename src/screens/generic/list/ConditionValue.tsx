import { DATE_PRESETS } from '../../../../contract/listFilters.ts';
import { useRelationLabel } from '../../../forms/useRelationOptions.ts';
import { DateRangeInput } from '../../shared/DateRangeInput.tsx';
import { valueOptions, type Condition } from './filterConditions.ts';
import type { ListFilter } from './listFilters.ts';
import { SelectFilter, TextFilter } from './FilterControls.tsx';
import { RelationFilter } from './RelationFilter.tsx';

export interface ConditionValueProps {
  filter: ListFilter;
  condition: Condition;
  onChange: (condition: Condition) => void;
}

const PERIODS = Object.entries(DATE_PRESETS).map(([value, label]) => ({ value, label }));

/** The value a condition takes, with the list's filter controls: labelled by the field, as they were beside the list. */
export function ConditionValue({ filter, condition, onChange }: ConditionValueProps) {
  const { field } = filter;
  const label = field.title;
  const [first = '', second = ''] = condition.values;
  const set = (values: string[]) => onChange({ ...condition, values });
  const one = (value: string) => set(value === '' ? [] : [value]);
  switch (condition.operator) {
    case 'empty':
    case 'not-empty':
      return null;
    case 'period':
      return <SelectFilter label={label} value={first} allLabel="Choose a period" options={PERIODS} onChange={one} />;
    case 'between':
      return (
        <DateRangeInput
          label={label}
          value={{ from: first, to: second }}
          onChange={(range) => set([range.from, range.to])}
        />
      );
    case 'any':
      if (filter.kind === 'relation')
        return <RelationValues filter={filter} values={condition.values} onChange={set} />;
      return (
        <fieldset className="filter-values">
          <legend>{label}</legend>
          {valueOptions(filter).map((option) => (
            <label key={option.value}>
              <input
                type="checkbox"
                checked={condition.values.includes(option.value)}
                onChange={(event) => {
                  const chosen = new Set(condition.values);
                  if (event.target.checked) chosen.add(option.value);
                  else chosen.delete(option.value);
                  set(
                    valueOptions(filter)
                      .map((each) => each.value)
                      .filter((value) => chosen.has(value)),
                  );
                }}
              />
              {option.label}
            </label>
          ))}
        </fieldset>
      );
    default:
      if (filter.kind === 'relation')
        return (
          <RelationFilter
            label={label}
            api={field.relation?.api ?? ''}
            value={first}
            placeholder="Type to search"
            onChange={one}
          />
        );
      if (filter.kind === 'choice' || filter.kind === 'boolean')
        return (
          <SelectFilter
            label={label}
            value={first}
            allLabel="Choose a value"
            options={valueOptions(filter)}
            onChange={one}
          />
        );
      return <TextFilter label={label} value={first} onChange={one} />;
  }
}

/** Several related records: each one picked is added to those chosen, which can be removed one by one. */
function RelationValues({
  filter,
  values,
  onChange,
}: {
  filter: ListFilter;
  values: string[];
  onChange: (values: string[]) => void;
}) {
  const api = filter.field.relation?.api ?? '';
  return (
    <div className="filter-values">
      <RelationFilter
        label={filter.field.title}
        api={api}
        value=""
        placeholder={values.length > 0 ? 'Type to add another' : 'Type to search'}
        onChange={(id) => id !== '' && !values.includes(id) && onChange([...values, id])}
      />
      {values.length > 0 && (
        <ul className="filter-values__chosen" aria-label={`${filter.field.title}: chosen`}>
          {values.map((id) => (
            <ChosenRecord
              key={id}
              api={api}
              id={id}
              onRemove={() => onChange(values.filter((other) => other !== id))}
            />
          ))}
        </ul>
      )}
    </div>
  );
}

function ChosenRecord({ api, id, onRemove }: { api: string; id: string; onRemove: () => void }) {
  const { label } = useRelationLabel(api, id);
  const text = label ?? `#${id}`;
  return (
    <li>
      {text}{' '}
      <button type="button" className="link-button" aria-label={`Remove ${text}`} onClick={onRemove}>
        Remove
      </button>
    </li>
  );
}
