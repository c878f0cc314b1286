import type { FieldModel } from '../../../contract/description.ts';
import type { Queryable, Row } from '../../db/database.ts';
import { SqlParams } from '../../db/sqlParams.ts';
import { HttpError, forbidden } from '../../http/errors.ts';
import { quoted } from '../../registry.ts';
import { fieldChanges, recordAudit, withoutSecrets, type AuditActor } from '../audit/record.ts';
import type { SessionUser } from '../auth/session.ts';
import type { ResourceEndpoint } from '../resources/endpoint.ts';
import type { RowPlan } from './plan.ts';

/**
 * Writes one batch of planned rows in the caller's transaction: the new records in one statement per set of columns,
 * the updates likewise, each update only at the version the plan read, and an audit entry for each record.
 */
export async function applyBatch(tx: Queryable, endpoint: ResourceEndpoint, plans: readonly RowPlan[], user: SessionUser, actor: AuditActor): Promise<void> {
  const { app, resource, behaviour } = endpoint;
  const creates = plans.filter((plan) => plan.outcome === 'create');
  const updates = plans.filter((plan) => plan.outcome === 'update');
  const created: Row[] = [];
  const prepared: Array<Record<string, unknown>> = [];
  for (const plan of creates) {
    const values = { ...plan.body };
    await behaviour.prepare?.(values, plan.body, { app, tx, user, id: null });
    prepared.push(values);
  }
  for (const group of byColumns(prepared)) created.push(...(await insertRows(tx, endpoint, group)));
  const scope = endpoint.scopeOf(user);
  if (scope && created.length > 0 && !(await endpoint.table.visible(tx, created.map((row) => Number(row.id)), scope))) {
    throw forbidden(resource.key, 'add records outside your assignment');
  }
  const updated: Array<{ before: Row; after: Row }> = [];
  for (const group of byColumns(updates.map((plan) => ({ ...plan.body, __id: plan.existing!.id, __version: plan.existing!.version })))) {
    const rows = await updateRows(tx, endpoint, group);
    if (rows.length !== group.length) throw new HttpError(409, 'Some records changed while the file was imported. Run the dry run again.');
    const before = new Map(updates.map((plan) => [Number(plan.existing!.id), plan.existing!]));
    updated.push(...rows.map((after) => ({ before: before.get(Number(after.id))!, after })));
  }
  const secrets = new Set(resource.entity.writeOnly);
  const snapshot = (row: Row) => (resource.entity.history ? withoutSecrets(row, secrets) : null);
  await recordAudit(tx, actor, [
    ...created.map((row) => ({ module: resource.key, recordId: Number(row.id), action: 'import' as const, changes: fieldChanges(null, row, secrets), snapshot: snapshot(row), details: { created: true } })),
    ...updated.map(({ before, after }) => ({ module: resource.key, recordId: Number(after.id), action: 'import' as const, changes: fieldChanges(withoutScopeFlag(before), after, secrets), snapshot: snapshot(after) })),
  ]);
}

function withoutScopeFlag(row: Row): Row {
  const { __in_scope: _flag, ...record } = row;
  return record;
}

/** Rows grouped by the columns they set, so each group is one statement. */
function byColumns(rows: ReadonlyArray<Record<string, unknown>>): Array<Array<Record<string, unknown>>> {
  const groups = new Map<string, Array<Record<string, unknown>>>();
  for (const row of rows) {
    const key = Object.keys(row).sort().join(',');
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  return [...groups.values()];
}

function columnTypes(endpoint: ResourceEndpoint, names: readonly string[]): string {
  const fields = new Map<string, FieldModel>(endpoint.resource.entity.fields.map((field) => [field.name, field]));
  return names.map((name) => `${quoted(name)} ${name === '__id' ? 'bigint' : name === '__version' ? 'integer' : fields.get(name)!.sqlType}`).join(', ');
}

async function insertRows(tx: Queryable, endpoint: ResourceEndpoint, rows: ReadonlyArray<Record<string, unknown>>): Promise<Row[]> {
  const names = Object.keys(rows[0]!);
  const table = quoted(endpoint.resource.entity.table);
  const list = names.map(quoted).join(', ');
  return tx.query(`INSERT INTO ${table} (${list}) SELECT ${list} FROM jsonb_to_recordset($1::jsonb) AS v(${columnTypes(endpoint, names)}) RETURNING *`, [JSON.stringify(rows)]);
}

async function updateRows(tx: Queryable, endpoint: ResourceEndpoint, rows: ReadonlyArray<Record<string, unknown>>): Promise<Row[]> {
  const names = Object.keys(rows[0]!);
  const assigned = names.filter((name) => name !== '__id' && name !== '__version');
  const params = new SqlParams();
  const source = params.add(JSON.stringify(rows));
  return tx.query(
    `UPDATE ${quoted(endpoint.resource.entity.table)} t SET ${assigned.map((name) => `${quoted(name)} = v.${quoted(name)}`).join(', ')}, updated_at = now()
       FROM jsonb_to_recordset(${source}::jsonb) AS v(${columnTypes(endpoint, names)})
      WHERE t.id = v.__id AND t.version = v.__version
      RETURNING t.*`,
    params.values,
  );
}
