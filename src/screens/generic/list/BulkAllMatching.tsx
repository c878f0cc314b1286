import { useId, useState } from 'react';
import { RelationPicker } from '../../../forms/RelationPicker.tsx';
import type { FieldDescription, ResourceDescription } from '../../../generated/types.ts';
import { http, isApiError } from '../../../http/index.ts';
import { toastSuccess } from '../../../shell/index.ts';
import { ConfirmDialog } from '../../shared/ConfirmDialog.tsx';
import { enumLabel } from '../../shared/formatValue.ts';
import type { ResourceAccess } from '../../shared/useResourceAccess.ts';

export interface BulkAllMatchingProps {
  resource: ResourceDescription;
  access: Pick<ResourceAccess, 'edit' | 'delete' | 'ACTIVE_INACTIVE'>;
  /** How many records the list's search and filters match. */
  total: number;
  /** The list's API query: its search and filters pick the records (paging and sort are left out). */
  params: Record<string, string | number>;
  /** Called when a change ran: the list reloads and the selection clears. */
  onDone: () => void;
  /** Called when the count moved since the confirmation: the list reloads, the selection stays, with the new count. */
  onStale: () => void;
  onCancel: () => void;
}

type Change = { kind: 'status'; isActive: boolean } | { kind: 'delete' } | { kind: 'set' };
type BulkResult = { matched: number; changed: number };

const CONFLICT = 409;

/**
 * Everything the list matches, beyond its page: activate, deactivate, delete or set a field on all of them, after a
 * confirmation that states the count; the server applies it by the same search and filters, and checks the count.
 */
export function BulkAllMatching({ resource, access, total, params, onDone, onStale, onCancel }: BulkAllMatchingProps) {
  const [pending, setPending] = useState<Change | null>(null);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [stale, setStale] = useState<string | null>(null);
  const settable = (resource.list?.bulkEdit ?? [])
    .map((name) => resource.entity?.fields.find((field) => field.name === name))
    .filter((field): field is FieldDescription => field !== undefined);
  const [field, setField] = useState<FieldDescription | null>(settable[0] ?? null);
  const [value, setValue] = useState<string>('');
  const plural = resource.label.toLowerCase();
  const count = total.toLocaleString('en');
  const query = Object.fromEntries(
    Object.entries(params).filter(([key]) => !['_page', '_page_size', '_sort', '_order'].includes(key)),
  );

  const run = async (change: Change) => {
    const path = `${resource.api}/bulk/${change.kind}`;
    const body =
      change.kind === 'status'
        ? { is_active: change.isActive, expected_count: total }
        : change.kind === 'set'
          ? { field: field?.name, value: typedValue(field, value), expected_count: total }
          : { expected_count: total };
    setProgress({ done: 0, total });
    setStale(null);
    try {
      const result = await http.postWithProgress<BulkResult>(path, body, {
        params: query,
        shownByCaller: [CONFLICT],
        onProgress: (done, all) => setProgress({ done, total: all }),
      });
      toastSuccess(result.message);
      setPending(null);
      onDone();
    } catch (error) {
      if (isApiError(error) && error.status === CONFLICT) {
        setStale(error.message);
        setPending(null);
        onStale();
      }
    } finally {
      setProgress(null);
    }
  };

  const describe = (change: Change) => {
    if (change.kind === 'delete')
      return {
        title: `Delete ${count} ${plural}?`,
        label: 'Delete all',
        text: `All ${count} ${plural} that match the search and filters will be deleted.`,
      };
    if (change.kind === 'set')
      return {
        title: `Set a field on ${count} ${plural}?`,
        label: 'Set on all',
        text: `The field will be set on all ${count} ${plural} that match the search and filters.`,
      };
    const verb = change.isActive ? 'activate' : 'deactivate';
    return {
      title: `${verb[0]!.toUpperCase()}${verb.slice(1)} ${count} ${plural}?`,
      label: `${verb[0]!.toUpperCase()}${verb.slice(1)} all`,
      text: `All ${count} ${plural} that match the search and filters will be ${verb}d.`,
    };
  };
  const shown = pending ? describe(pending) : null;

  return (
    <>
      <span>
        All <strong>{count}</strong> matching {plural} are selected.
      </span>
      {access.ACTIVE_INACTIVE && (
        <>
          <button type="button" className="button" onClick={() => setPending({ kind: 'status', isActive: true })}>
            Activate all
          </button>
          <button type="button" className="button" onClick={() => setPending({ kind: 'status', isActive: false })}>
            Deactivate all
          </button>
        </>
      )}
      {access.edit && settable.length > 0 && (
        <button type="button" className="button" onClick={() => setPending({ kind: 'set' })}>
          Set a field on all
        </button>
      )}
      {access.delete && (
        <button type="button" className="button button--danger" onClick={() => setPending({ kind: 'delete' })}>
          Delete all
        </button>
      )}
      <button type="button" className="link-button" onClick={onCancel}>
        Clear selection
      </button>
      {stale && (
        <p role="alert" className="bulk-bar__notice">
          {stale}
        </p>
      )}
      {pending && shown && (
        <ConfirmDialog
          title={shown.title}
          confirmLabel={progress ? 'Working…' : shown.label}
          destructive={pending.kind === 'delete' || (pending.kind === 'status' && !pending.isActive)}
          busy={progress !== null || (pending.kind === 'set' && value === '')}
          onConfirm={() => void run(pending)}
          onCancel={() => (progress ? undefined : setPending(null))}
        >
          <p>{shown.text}</p>
          {pending.kind === 'set' && field && (
            <FieldValue
              fields={settable}
              field={field}
              value={value}
              onField={(next) => (setField(next), setValue(''))}
              onValue={setValue}
            />
          )}
          {pending.kind === 'delete' && (
            <p>
              {resource.entity?.softDelete
                ? 'They go to the trash, where they can be restored.'
                : 'This cannot be undone.'}
            </p>
          )}
          {progress && (
            <div role="status" className="export-progress">
              <progress
                className="progress-bar"
                aria-label="Progress of the change"
                max={Math.max(progress.total, 1)}
                value={progress.done}
              />
              <span>
                {progress.done.toLocaleString('en')} of {progress.total.toLocaleString('en')}
              </span>
            </div>
          )}
        </ConfirmDialog>
      )}
    </>
  );
}

function typedValue(field: FieldDescription | null, text: string): unknown {
  if (!field) return text;
  if (field.type === 'integer' || field.type === 'number' || field.relation) return Number(text);
  if (field.type === 'boolean') return text === 'true';
  return text;
}

function FieldValue({
  fields,
  field,
  value,
  onField,
  onValue,
}: {
  fields: FieldDescription[];
  field: FieldDescription;
  value: string;
  onField: (field: FieldDescription) => void;
  onValue: (value: string) => void;
}) {
  const fieldId = useId();
  const valueId = useId();
  const options =
    field.type === 'boolean'
      ? [
          { value: 'true', label: 'Yes' },
          { value: 'false', label: 'No' },
        ]
      : field.enum
        ? field.enum.map((option) => ({ value: String(option), label: enumLabel(field, option) }))
        : null;
  return (
    <div className="bulk-set">
      <div className="form-field">
        <label htmlFor={fieldId}>Field</label>
        <select
          id={fieldId}
          value={field.name}
          onChange={(event) => onField(fields.find((candidate) => candidate.name === event.target.value)!)}
        >
          {fields.map((candidate) => (
            <option key={candidate.name} value={candidate.name}>
              {candidate.title}
            </option>
          ))}
        </select>
      </div>
      <div className="form-field">
        <label htmlFor={valueId}>New value</label>
        {field.relation ? (
          <RelationPicker
            id={valueId}
            api={field.relation.api}
            label={field.title}
            value={value === '' ? null : value}
            placeholder="Type to search"
            onChange={(option) => onValue(option ? String(option.value) : '')}
          />
        ) : options ? (
          <select id={valueId} value={value} onChange={(event) => onValue(event.target.value)}>
            <option value="">Choose…</option>
            {options.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        ) : (
          <input
            id={valueId}
            type={field.type === 'integer' || field.type === 'number' ? 'number' : 'text'}
            value={value}
            onChange={(event) => onValue(event.target.value)}
          />
        )}
      </div>
    </div>
  );
}
