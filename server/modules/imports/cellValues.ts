/**
 * A file row's cells as a request body: text made the field's type (an enum's label or code, a relation's label or
 * id, yes/no for a boolean), so the same schema and messages as a form judge it. What cannot be made the type stays
 * text, and the schema says why.
 */
import type { FieldModel } from '../../../contract/description.ts';
import type { Queryable } from '../../db/database.ts';
import { resource as resourceByKey } from '../../registry.ts';
import { relatedByLabel, relatedIds } from '../resources/relations.ts';

const TRUE = new Set(['true', 'yes', 'y', '1']);
const FALSE = new Set(['false', 'no', 'n', '0']);
const NUMBER = /^-?\d+(?:\.\d+)?(?:e[+-]?\d+)?$/i;

export function cellValue(field: FieldModel, text: string): unknown {
  switch (field.type) {
    case 'boolean': {
      const lower = text.toLowerCase();
      return TRUE.has(lower) ? true : FALSE.has(lower) ? false : text;
    }
    case 'integer':
    case 'number':
      return NUMBER.test(text.replace(/,/g, '')) ? Number(text.replace(/,/g, '')) : text;
    default: {
      if (!field.enumLabels) return text;
      const lower = text.toLowerCase();
      const code = Object.entries(field.enumLabels).find(
        ([value, label]) => value.toLowerCase() === lower || label.toLowerCase() === lower,
      )?.[0];
      return code ?? text;
    }
  }
}

/** A relation's records a batch names: by lower-cased label, and the numbers that are ids of a record. */
export interface NamedRecords {
  byLabel: ReadonlyMap<string, number>;
  ids: ReadonlySet<number>;
}

const ID = /^\d+$/;

/**
 * The related records a batch's cells name, in two statements: lower-cased label -> id, and which numbers are ids. A
 * label two records share is left out, so it is reported as not found rather than matched to either.
 */
export async function relationIds(db: Queryable, field: FieldModel, cells: ReadonlySet<string>): Promise<NamedRecords> {
  const target = field.relation ? resourceByKey(field.relation.resource)?.entity : null;
  if (!field.relation || !target || cells.size === 0) return { byLabel: new Map(), ids: new Set() };
  const labels = [...cells].map((cell) => cell.toLowerCase());
  const numbers = [...cells].filter((cell) => ID.test(cell) && Number.isSafeInteger(Number(cell))).map(Number);
  return {
    byLabel: await relatedByLabel(db, field.relation, labels),
    ids: await relatedIds(db, field.relation, numbers),
  };
}

/**
 * A relation cell's id: the record its label names (a label made of digits, such as an HS chapter "09", is a label
 * first), else the record whose id it is; undefined when neither exists, which the dry run reports on the cell.
 */
export function relationValue(text: string, named: NamedRecords): number | undefined {
  const labelled = named.byLabel.get(text.toLowerCase());
  if (labelled !== undefined) return labelled;
  return ID.test(text) && named.ids.has(Number(text)) ? Number(text) : undefined;
}
