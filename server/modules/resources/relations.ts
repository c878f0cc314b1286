import type { Queryable, Row } from '../../db/database.ts';
import { RESOURCES, resource as resourceByKey, type EntityResource, type RegistryField } from '../../registry.ts';
import { quoted } from '../../../codegen/sqlNames.ts';

/**
 * The first relation field of `values` whose related record no longer exists, and what that record is called (the
 * related resource's singular): a restore names it rather than failing on the foreign key.
 */
export async function missingRelation(
  tx: Queryable,
  resource: EntityResource,
  values: Row,
): Promise<{ field: string; target: string } | null> {
  for (const field of resource.entity.fields) {
    const id = values[field.name];
    if (!field.relation || id === null || id === undefined) continue;
    const [found] = await tx.query(`SELECT 1 AS found FROM ${quoted(field.relation.table)} WHERE id = $1`, [id]);
    if (!found) return { field: field.name, target: resourceByKey(field.relation.resource)?.singular ?? field.title };
  }
  return null;
}

/** The current labels of the related records `ids` of a relation field, by id. */
export async function relationLabels(
  db: Queryable,
  resource: EntityResource,
  fieldName: string,
  ids: readonly number[],
): Promise<Map<number, string | null>> {
  const relation = resource.entity.fields.find((field) => field.name === fieldName)?.relation;
  if (!relation || ids.length === 0) return new Map();
  const rows = await db.query<{ id: number; label: string | null }>(
    `SELECT id, ${quoted(relation.labelField)}::text AS label FROM ${quoted(relation.table)} WHERE id = ANY($1::bigint[])`,
    [ids],
  );
  return new Map(rows.map((row) => [Number(row.id), row.label]));
}

/**
 * The related records of a relation field named by these lower-cased labels, label -> id. A label two records share
 * is left out, so it reads as not found rather than as either of them.
 */
export async function relatedByLabel(
  db: Queryable,
  relation: NonNullable<RegistryField['relation']>,
  labels: readonly string[],
): Promise<Map<string, number>> {
  const label = quoted(relation.labelField);
  const rows = await db.query<{ label: string; id: number }>(
    `SELECT lower(${label}::text) AS label, min(id) AS id FROM ${quoted(relation.table)} WHERE lower(${label}::text) = ANY($1::text[]) GROUP BY 1 HAVING count(*) = 1`,
    [labels],
  );
  return new Map(rows.map((row) => [row.label, Number(row.id)]));
}

/** Which of `ids` are ids of a related record of a relation field. */
export async function relatedIds(
  db: Queryable,
  relation: NonNullable<RegistryField['relation']>,
  ids: readonly number[],
): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db.query<{ id: number }>(`SELECT id FROM ${quoted(relation.table)} WHERE id = ANY($1::bigint[])`, [
    ids,
  ]);
  return new Set(rows.map((row) => Number(row.id)));
}

/** What a record is called in a select, and in the trash: its relations' `labelField`, else its first plain text field. */
export function optionLabelField(resource: EntityResource): string {
  for (const candidate of RESOURCES) {
    const relation = candidate.entity?.fields.find((field) => field.relation?.resource === resource.key)?.relation;
    if (relation) return relation.labelField;
  }
  return (
    resource.entity.fields.find((field) => field.type === 'string' && !field.writeOnly && !field.system)?.name ?? 'id'
  );
}
