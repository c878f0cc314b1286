import { AUDIT_ACTIONS } from '../../../../contract/audit.ts';
import { SelectFilter, TextFilter } from '../../generic/list/FilterControls.tsx';
import { RelationFilter } from '../../generic/list/RelationFilter.tsx';
import { DateRangeInput } from '../../shared/DateRangeInput.tsx';
import { AUDIT_MODULES } from './auditModules.ts';
import type { AuditFilterKey, AuditFilters as Filters } from './useAuditFilters.ts';

const MODULE_OPTIONS = AUDIT_MODULES.map(({ module, label }) => ({ value: module, label }));
const ACTION_OPTIONS = Object.entries(AUDIT_ACTIONS)
  .map(([value, label]) => ({ value, label }))
  .sort((a, b) => a.label.localeCompare(b.label));

export interface AuditFiltersProps {
  values: Filters;
  onChange: (values: Filters) => void;
}

/** Who (searched on the server), which module, which action, which record, and between which dates. */
export function AuditFilters({ values, onChange }: AuditFiltersProps) {
  const set = (key: AuditFilterKey) => (value: string) => onChange({ [key]: value });
  return (
    <div className="list-filters" role="group" aria-label="Filters">
      <RelationFilter api="users" label="User" value={values.user_id ?? ''} onChange={set('user_id')} />
      <SelectFilter label="Module" options={MODULE_OPTIONS} value={values.module ?? ''} onChange={set('module')} />
      <SelectFilter label="Action" options={ACTION_OPTIONS} value={values.action ?? ''} onChange={set('action')} />
      <TextFilter label="Record ID" value={values.record_id ?? ''} onChange={set('record_id')} />
      <DateRangeInput
        label="Date"
        value={{ from: values.from ?? '', to: values.to ?? '' }}
        onChange={(range) => onChange({ from: range.from, to: range.to })}
      />
    </div>
  );
}
