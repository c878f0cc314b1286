/**
 * A file row's cells as a request body: text made the field's type (an enum's label or code, a relation's label or
 * id, yes/no for a boolean), so the same schema and messages as a form judge it. What cannot be made the type stays
 * text, and the schema says why.
 */
import type { FieldModel } from '../../../contract/description.ts';
import type { Queryable } from '../../db/database.ts';
import { quoted, resource as resourceByKey } from '../../registry.ts';

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
      const code = Object.entries(field.enumLabels).find(([value, label]) => value.toLowerCase() === lower || label.toLowerCase() === lower)?.[0];
      return code ?? text;
    }
  }
}

/**
 * The ids of a relation's labels that a batch names, looked up in one statement: lower-cased label -> id. A label two
 * records share is left out, so it is reported as not found rather than matched to either.
 */
export async function relationIds(db: Queryable, field: FieldModel, labels: ReadonlySet<string>): Promise<Map<string, number>> {
  const target = field.relation ? resourceByKey(field.relation.resource)?.entity : null;
  if (!field.relation || !target || labels.size === 0) return new Map();
  const label = quoted(field.relation.labelField);
  const rows = await db.query<{ label: string; id: number }>(
    `SELECT lower(${label}::text) AS label, min(id) AS id FROM ${quoted(target.table)} WHERE lower(${label}::text) = ANY($1::text[]) GROUP BY 1 HAVING count(*) = 1`,
    [[...labels]],
  );
  return new Map(rows.map((row) => [row.label, Number(row.id)]));
}

/** A relation cell: its id when it is one, its label's id when the batch found it, else the text (a 400 on the field). */
export function relationValue(text: string, ids: ReadonlyMap<string, number>): unknown {
  if (/^\d+$/.test(text)) return Number(text);
  return ids.get(text.toLowerCase()) ?? undefined;
}
