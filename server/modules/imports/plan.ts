/**
 * What an import does to each row of its file, worked out in batches with one lookup statement per batch: create a
 * record, update the record its unique key matches, leave it unchanged, or refuse the row with the reason on each of
 * its cells. The dry run reports it; the apply writes it, in the same transaction that worked it out.
 */
import type { FieldModel, JsonSchema } from '../../../contract/description.ts';
import type { Queryable, Row } from '../../db/database.ts';
import { keyInUse } from '../../http/errorHandler.ts';
import { writeSchema } from '../../http/requestSchemas.ts';
import { validateBody } from '../../http/validation.ts';
import type { SessionUser } from '../auth/session.ts';
import type { ResourceContext } from '../resources/resourceContext.ts';
import { cellValue, relationIds, relationValue, type NamedRecords } from './cellValues.ts';
import { matchKey } from './importFields.ts';
import type { ParsedFile } from './parseFile.ts';

export const IMPORT_BATCH = 1000;

export type Outcome = 'create' | 'update' | 'unchanged' | 'error';

export interface RowPlan {
  /** The row's number in the file, counting the heading row as 1, as a spreadsheet shows it. */
  line: number;
  outcome: Outcome;
  /** The row as a request body (fields of empty cells left out: an update keeps what the record has). */
  body: Record<string, unknown>;
  /** By field name (`_` for the row as a whole): the message a form would show. */
  errors: Record<string, string>;
  /** The matched record, for an update or an unchanged row. */
  existing: Row | null;
  /** The fields an update changes. */
  changed: string[];
}

/** The mapped file: which field each column fills (by column index). */
export type ColumnFields = ReadonlyArray<FieldModel | null>;

const schemas = new WeakMap<object, { create: JsonSchema; update: JsonSchema }>();

function writeSchemas(resourceContext: ResourceContext) {
  let known = schemas.get(resourceContext.resource);
  if (!known) {
    known = {
      create: writeSchema(resourceContext.resource.entity.createSchema),
      update: writeSchema(resourceContext.resource.entity.updateSchema),
    };
    schemas.set(resourceContext.resource, known);
  }
  return known;
}

/** The plan of every row, a batch at a time, with an await between batches so other requests go on. */
export async function* planRows(
  db: Queryable,
  resourceContext: ResourceContext,
  file: ParsedFile,
  columns: ColumnFields,
  user: SessionUser | null,
): AsyncGenerator<RowPlan[]> {
  const seen = new Map<string, number>();
  for (let start = 0; start < file.rows.length; start += IMPORT_BATCH) {
    yield await planBatch(
      db,
      resourceContext,
      file.rows.slice(start, start + IMPORT_BATCH),
      start,
      columns,
      user,
      seen,
    );
    await new Promise((resolve) => setImmediate(resolve));
  }
}

async function planBatch(
  db: Queryable,
  resourceContext: ResourceContext,
  rows: string[][],
  start: number,
  columns: ColumnFields,
  user: SessionUser | null,
  seen: Map<string, number>,
): Promise<RowPlan[]> {
  const { resource } = resourceContext;
  const { create, update } = writeSchemas(resourceContext);
  const key = matchKey(resource);
  const labels = new Map<FieldModel, Set<string>>();
  columns.forEach((field, column) => {
    if (!field?.relation) return;
    const named = labels.get(field) ?? new Set<string>();
    for (const row of rows) if (row[column]) named.add(row[column]!);
    labels.set(field, named);
  });
  const ids = new Map<FieldModel, NamedRecords>();
  for (const [field, named] of labels) ids.set(field, await relationIds(db, field, named));

  const plans: RowPlan[] = rows.map((row, offset) => {
    const plan: RowPlan = {
      line: start + offset + 2,
      outcome: 'create',
      body: {},
      errors: {},
      existing: null,
      changed: [],
    };
    columns.forEach((field, column) => {
      const text = row[column] ?? '';
      if (!field || text === '') return;
      if (field.relation) {
        const id = relationValue(text, ids.get(field)!);
        if (id === undefined) plan.errors[field.name] = `No ${field.title} is named "${text}".`;
        else plan.body[field.name] = id;
      } else {
        plan.body[field.name] = cellValue(field, text);
      }
    });
    const keyErrors = validateBody(create, plan.body);
    for (const name of key) if (keyErrors?.[name]) plan.errors[name] = keyErrors[name]!;
    return plan;
  });

  const existing = await matchedRecords(
    db,
    resourceContext,
    plans.filter((plan) => Object.keys(plan.errors).length === 0),
    key,
    user,
  );
  for (const plan of plans) {
    if (Object.keys(plan.errors).length > 0) {
      plan.outcome = 'error';
      continue;
    }
    const keyText = keyOf(plan.body, key);
    const first = seen.get(keyText);
    if (first !== undefined) {
      plan.outcome = 'error';
      plan.errors[key.at(-1)!] = `The same as row ${first} of the file.`;
      continue;
    }
    seen.set(keyText, plan.line);
    const record = existing.get(keyText) ?? null;
    if (record && record.__in_scope !== true) {
      plan.outcome = 'error';
      plan.errors = keyInUse(resource.entity, key);
      continue;
    }
    const errors = record
      ? validateBody(update, { ...writableOf(record, resource.entity.fields), ...plan.body })
      : validateBody(create, plan.body);
    if (errors) {
      plan.outcome = 'error';
      plan.errors = errors;
      continue;
    }
    if (!record) continue;
    plan.existing = record;
    plan.changed = Object.keys(plan.body).filter((name) => !sameValue(record[name], plan.body[name]));
    plan.outcome = plan.changed.length > 0 ? 'update' : 'unchanged';
  }
  await refuseMovesOutOfScope(db, resourceContext, plans, user);
  return plans;
}

/**
 * An update that would take its record out of the caller's scope (a subscriber given another executive) is refused on
 * its row, as a single edit would be refused; a new record is judged when it is written, once its behaviour has
 * prepared it (an executive's new subscriber is assigned to them).
 */
async function refuseMovesOutOfScope(
  db: Queryable,
  resourceContext: ResourceContext,
  plans: RowPlan[],
  user: SessionUser | null,
): Promise<void> {
  const scope = resourceContext.scopeOf(user);
  const updates = plans.filter((plan) => plan.outcome === 'update');
  if (!scope || updates.length === 0) return;
  const outside = await resourceContext.table.outsideScope(
    db,
    updates.map((plan) => ({ ...plan.existing, ...plan.body })),
    scope,
  );
  for (const index of outside) {
    updates[index]!.outcome = 'error';
    updates[index]!.errors = { _: 'This row would move the record outside your assignment.' };
  }
}

function keyOf(body: Record<string, unknown>, key: readonly string[]): string {
  return key.map((name) => String(body[name])).join('\u0001');
}

/** The records the batch's keys name, each with whether the caller's scope holds it, by key. */
async function matchedRecords(
  db: Queryable,
  resourceContext: ResourceContext,
  plans: RowPlan[],
  key: readonly string[],
  user: SessionUser | null,
): Promise<Map<string, Row>> {
  if (plans.length === 0) return new Map();
  const bodies = plans.map((plan) => plan.body);
  const rows = await resourceContext.table.byKey(db, key, bodies, resourceContext.scopeOf(user));
  return new Map(rows.map((row) => [keyOf(row, key), row]));
}

/** What an update body holds besides the file's cells: the record's stored values of the fields a form edits. */
function writableOf(record: Row, fields: readonly FieldModel[]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of fields) {
    if (field.system || field.readOnly || field.writeOnly) continue;
    const value = record[field.name];
    if (value !== null && value !== undefined) body[field.name] = value;
  }
  return body;
}

function sameValue(stored: unknown, given: unknown): boolean {
  if (stored === null || stored === undefined) return given === null || given === undefined;
  if (typeof given === 'number') return Number(stored) === given;
  return JSON.stringify(stored) === JSON.stringify(given);
}
