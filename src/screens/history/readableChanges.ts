import type { FieldChanges, HistoryEntryAnswer } from '../../../contract/audit.ts';
import type { FieldDescription } from '../../generated/types.ts';
import { formatValue } from '../shared/formatValue.ts';
import { humanize } from '../shared/humanize.ts';

/** One changed field as a person reads it: its title, and the value before and after (a secret only "changed"). */
export interface ReadableChange {
  field: string;
  title: string;
  /** null for a secret: only that it changed is known. */
  before: string | null;
  after: string | null;
}

/**
 * An entry's changes in the manifest's words: field titles, enum labels, relation labels (the related records'
 * labels the answer carries), dates formatted, yes/no; fields the description does not know in plain words.
 */
export function readableChanges(changes: FieldChanges, fields: readonly FieldDescription[] = [], labels: HistoryEntryAnswer['labels'] = {}): ReadableChange[] {
  return Object.entries(changes).map(([name, change]) => {
    const field = fields.find((candidate) => candidate.name === name);
    const title = field?.title ?? humanize(name);
    if ('changed' in change) return { field: name, title, before: null, after: null };
    const side = (value: unknown, label: string | null | undefined) => formatValue(field, { [name]: value, [`${name}_label`]: label ?? value }, name);
    return { field: name, title, before: side(change.before, labels[name]?.before), after: side(change.after, labels[name]?.after) };
  });
}
