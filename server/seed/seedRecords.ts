import type { Queryable } from '../db/database.ts';
import { entityResource } from '../registry.ts';
import { quoted } from '../../codegen/sqlNames.ts';

/** A small deterministic generator (mulberry32), so every demo start produces the same data. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Inserts a record of a manifest resource, keeping only the fields the manifest has. Returns its id, or null. */
export async function insertRecord(
  db: Queryable,
  resourceKey: string,
  values: Record<string, unknown>,
): Promise<number | null> {
  const resource = entityResource(resourceKey);
  if (!resource) return null;
  const names = Object.keys(values).filter((name) =>
    resource.entity.fields.some((field) => field.name === name && !field.system),
  );
  const [row] = await db.query<{ id: number }>(
    `INSERT INTO ${quoted(resource.entity.table)} (${names.map(quoted).join(', ')}) VALUES (${names.map((_, index) => `$${index + 1}`).join(', ')}) RETURNING id`,
    names.map((name) => values[name]),
  );
  return row?.id ?? null;
}

/**
 * Many records of one resource in a single statement (one array parameter per column), for bulk seeding. Every row
 * has the keys of the first; text and bigint columns only (what the seeds write).
 */
export async function insertRecords(
  db: Queryable,
  resourceKey: string,
  rows: ReadonlyArray<Record<string, unknown>>,
): Promise<void> {
  const resource = entityResource(resourceKey);
  if (!resource || rows.length === 0) return;
  const fields = Object.keys(rows[0]!).flatMap((name) =>
    resource.entity.fields.filter((field) => field.name === name && !field.system),
  );
  await db.query(
    `INSERT INTO ${quoted(resource.entity.table)} (${fields.map((field) => quoted(field.name)).join(', ')})
     SELECT * FROM unnest(${fields.map((field, index) => `$${index + 1}::${field.sqlType === 'bigint' ? 'bigint' : 'text'}[]`).join(', ')})`,
    fields.map((field) => rows.map((row) => row[field.name] ?? null)),
  );
}
