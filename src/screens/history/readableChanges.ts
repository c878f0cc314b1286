import type { FieldChange, FieldChanges, HistoryEntryAnswer } from '../../../contract/audit.ts';
import type { FieldDescription } from '../../generated/types.ts';
import { formatValue, type Row } from '../shared/formatValue.ts';
import { humanize } from '../shared/humanize.ts';

/** One changed field as a person reads it: its title, and the value before and after (a secret only "changed"). */
export interface ReadableChange {
  field: string;
  title: string;
  /** null for a secret: only that it changed is known. */
  before: string | null;
  after: string | null;
}

const LABEL_SUFFIX = '_label';

/**
 * An entry's changes in the manifest's words: field titles, enum labels, relation labels (the labels the change
 * recorded, else the related records' labels the answer carries), dates, money and percentages, yes/no. A relation's
 * label recorded beside its id is no field of its own: it reads under the relation's title. A number whose unit
 * follows a sibling (a voucher's discount by its type) takes the sibling's value from the same side of the change.
 */
export function readableChanges(
  changes: FieldChanges,
  fields: readonly FieldDescription[] = [],
  labels: HistoryEntryAnswer['labels'] = {},
): ReadableChange[] {
  const fieldOf = (name: string) => fields.find((candidate) => candidate.name === name);
  const side = (which: 'before' | 'after'): Row =>
    Object.fromEntries(
      Object.entries(changes).flatMap(([name, change]) => ('changed' in change ? [] : [[name, change[which]]])),
    );
  const before = side('before');
  const after = side('after');
  const labelOf = (name: string, which: 'before' | 'after') => {
    const recorded = changes[`${name}${LABEL_SUFFIX}`];
    return recorded && !('changed' in recorded) && recorded[which] != null ? recorded[which] : labels[name]?.[which];
  };
  return Object.entries(changes).flatMap(([name, change]): ReadableChange[] => {
    const base = name.endsWith(LABEL_SUFFIX) ? name.slice(0, -LABEL_SUFFIX.length) : null;
    if (base !== null && (base in changes || fieldOf(base)?.relation)) {
      // The relation's own row shows this label; without it, the label reads as the relation's value.
      if (base in changes) return [];
      return [readable(base, fieldOf(base), change, (value) => formatValue(undefined, { [base]: value }, base))];
    }
    const field = fieldOf(name);
    return [
      readable(name, field, change, (value, which) =>
        formatValue(
          field,
          {
            ...(which === 'before' ? before : after),
            [name]: value,
            [`${name}${LABEL_SUFFIX}`]: labelOf(name, which) ?? value,
          },
          name,
        ),
      ),
    ];
  });
}

function readable(
  name: string,
  field: FieldDescription | undefined,
  change: FieldChange,
  format: (value: unknown, which: 'before' | 'after') => string,
): ReadableChange {
  const title = field?.title ?? titleOf(name);
  if ('changed' in change) return { field: name, title, before: null, after: null };
  return { field: name, title, before: format(change.before, 'before'), after: format(change.after, 'after') };
}

/** A name the description does not know, in words: "plan_id" reads "Plan". */
function titleOf(name: string): string {
  return humanize(name.replace(/_id$/, ''));
}
