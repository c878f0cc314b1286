import type { AuditActor } from '../audit/record.ts';
import { isDatabaseError, PG, type Queryable, type Row } from '../../db/database.ts';
import { SqlParams, type Scope } from '../../db/sqlParams.ts';
import { uniqueValueTaken } from '../../http/errorHandler.ts';
import { conflict, HttpError, notFound } from '../../http/errors.ts';
import type { ExpectedVersion } from '../../http/recordVersion.ts';
import { type EntityResource } from '../../registry.ts';
import { quoted } from '../../../codegen/sqlNames.ts';
import { missingRelation, optionLabelField } from './relations.ts';
import { versionCondition } from './sql.ts';

/** A table whose rows go with a record of this resource when it is deleted (a foreign key ON DELETE CASCADE). */
type Cascade = {
  table: string;
  column: string;
};

/**
 * Sign-in state that goes with a deleted user is never kept: a restored user signs in again and enrols a second factor
 * again, so no session, e-mailed link, second-factor secret, recovery code, passkey or API token of before the delete
 * works again; their sign-in history goes too (the audit log keeps every sign-in and refusal).
 */
const SIGN_IN_TABLES: ReadonlySet<string> = new Set([
  'sessions',
  'refresh_tokens',
  'email_links',
  'sign_ins',
  'mfa_tokens',
  'user_totp',
  'user_recovery_codes',
  'user_passkeys',
  'webauthn_challenges',
  'api_tokens',
]);

/** A deleted record as the trash keeps it. */
export type TrashedRecord = {
  id: number;
  label: string | null;
  deleted_at: string;
  deleted_by: number | null;
  deleted_by_email: string | null;
  record: Row;
};

/**
 * A resource's deletes and its trash (docs/api.md, "Audit log, history and trash"). With soft delete the record's row,
 * whole (secrets too: a restore puts back exactly what was there), and the rows its delete cascades to are stored
 * in `trash` by the delete statement itself; the label is the one the resource's options show (`optionLabelField`).
 * A caller with a scope sees and restores only the deleted records the scope holds, judged on the stored row.
 */
export class ResourceTrash {
  private readonly table: string;
  private cascades: Promise<Cascade[]> | null = null;

  constructor(readonly resource: EntityResource) {
    this.table = quoted(resource.entity.table);
  }

  /**
   * Deletes the records (within the scope, at the expected version) in one statement and answers their rows as
   * they were, by id. The cascaded rows are read in that statement's snapshot, so they are the rows its cascade removes.
   */
  async remove(
    tx: Queryable,
    ids: readonly number[],
    scope: Scope | null,
    expected: ExpectedVersion,
    actor: AuditActor,
  ): Promise<Map<number, Row>> {
    const params = new SqlParams();
    const conditions = [`t.id = ANY(${params.add(ids)}::bigint[])`, ...versionCondition(params, expected)];
    if (scope) conditions.push(scope(params));
    const gone = `gone AS (DELETE FROM ${this.table} t WHERE ${conditions.join(' AND ')} RETURNING t.*)`;
    let sql = `WITH ${gone} SELECT gone.id, to_jsonb(gone) AS row FROM gone`;
    if (this.resource.entity.softDelete) {
      const cascaded = (await this.cascadesOf(tx)).map(
        ({ table, column }) =>
          `${params.add(table)}::text, (SELECT coalesce(jsonb_agg(to_jsonb(c)), '[]'::jsonb) FROM ${quoted(table)} c WHERE c.${quoted(column)} = gone.id)`,
      );
      sql = `WITH ${gone}, kept AS (
          INSERT INTO trash (module, record_id, stored_row, cascaded_rows, label, deleted_by, deleted_by_email)
          SELECT ${params.add(this.resource.key)}, gone.id, to_jsonb(gone), jsonb_build_object(${cascaded.join(', ')}),
                 gone.${quoted(optionLabelField(this.resource))}::text, ${params.add(actor.userId)}::bigint, ${params.add(actor.email)}::text FROM gone
          ON CONFLICT (module, record_id) DO UPDATE SET stored_row = excluded.stored_row, cascaded_rows = excluded.cascaded_rows,
            label = excluded.label, deleted_at = now(), deleted_by = excluded.deleted_by, deleted_by_email = excluded.deleted_by_email)
        SELECT gone.id, to_jsonb(gone) AS row FROM gone`;
    }
    const rows = await tx.query<{ id: number; row: Row }>(sql, params.values);
    return new Map(rows.map(({ id, row }) => [Number(id), row]));
  }

  /** A page of the deleted records, newest first, and how many there are. */
  async list(
    db: Queryable,
    scope: Scope | null,
    page: number,
    pageSize: number,
  ): Promise<{ rows: TrashedRecord[]; total: number }> {
    const params = new SqlParams();
    const where = this.where(params, scope);
    const [counted] = await db.query<{ total: number }>(
      `SELECT count(*) AS total FROM trash x WHERE ${where}`,
      params.values,
    );
    const rows = await db.query<TrashedRecord>(
      `SELECT x.record_id AS id, x.label, x.deleted_at, x.deleted_by, x.deleted_by_email, x.stored_row AS record FROM trash x
        WHERE ${where} ORDER BY x.deleted_at DESC, x.record_id DESC LIMIT ${params.add(pageSize)} OFFSET ${params.add((page - 1) * pageSize)}`,
      params.values,
    );
    return { rows, total: Number(counted?.total ?? 0) };
  }

  /**
   * Puts a deleted record back with its id, then the rows its delete took with it, and takes it out of the trash.
   * Its version moves on from the stored one, so a change made against the record as it was before the delete is
   * refused (412). A value of a unique key taken meanwhile, or a related record gone, is a 409 naming the field.
   */
  async restore(tx: Queryable, id: number, scope: Scope | null): Promise<void> {
    const params = new SqlParams();
    const where = this.where(params, scope, id);
    const [kept] = await tx.query<{ stored_row: Row; cascaded_rows: Record<string, Row[]> }>(
      `SELECT x.stored_row, x.cascaded_rows FROM trash x WHERE ${where} FOR UPDATE OF x`,
      params.values,
    );
    if (!kept) throw notFound(`Deleted ${this.resource.singular.toLowerCase()}`);
    const missing = await missingRelation(tx, this.resource, kept.stored_row);
    if (missing)
      throw conflict(
        `This ${this.resource.singular.toLowerCase()} cannot be restored: the ${missing.target} it names no longer exists.`,
      );
    const row = { ...kept.stored_row, version: Number(kept.stored_row.version ?? 0) + 1 };
    await refusedRestore(async () => {
      await insertRows(tx, this.resource.entity.table, [row], 'jsonb_populate_record');
      for (const [table, rows] of Object.entries(kept.cascaded_rows))
        if (rows.length > 0) await insertRows(tx, table, rows, 'jsonb_populate_recordset');
    });
    await tx.query('DELETE FROM trash WHERE module = $1 AND record_id = $2', [this.resource.key, id]);
  }

  /** Whether the trash holds the record (within the scope). */
  async holds(db: Queryable, id: number, scope: Scope | null): Promise<boolean> {
    const params = new SqlParams();
    const rows = await db.query(`SELECT 1 AS held FROM trash x WHERE ${this.where(params, scope, id)}`, params.values);
    return rows.length === 1;
  }

  /** Deletes a record from the trash for good; false when there is none (the caller may see). */
  async purge(tx: Queryable, id: number, scope: Scope | null): Promise<boolean> {
    const params = new SqlParams();
    const rows = await tx.query(
      `DELETE FROM trash x WHERE ${this.where(params, scope, id)} RETURNING x.record_id`,
      params.values,
    );
    return rows.length === 1;
  }

  /** The trash of this resource (one record of it), within the scope applied to the stored rows. */
  private where(params: SqlParams, scope: Scope | null, id?: number): string {
    const conditions = [`x.module = ${params.add(this.resource.key)}`];
    if (id !== undefined) conditions.push(`x.record_id = ${params.add(id)}`);
    if (scope)
      conditions.push(
        `EXISTS (SELECT 1 FROM jsonb_populate_record(NULL::${this.table}, x.stored_row) t WHERE ${scope(params)})`,
      );
    return conditions.join(' AND ');
  }

  /** Read from the database's own foreign keys (single-column ones), once: whatever the migrations made. */
  private cascadesOf(tx: Queryable): Promise<Cascade[]> {
    this.cascades ??= tx
      .query<Cascade>(
        `SELECT child.relname AS table, a.attname AS column FROM pg_constraint c
           JOIN pg_class child ON child.oid = c.conrelid
           JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
          WHERE c.contype = 'f' AND c.confdeltype = 'c' AND c.confrelid = $1::regclass AND array_length(c.conkey, 1) = 1
          ORDER BY child.relname`,
        [this.table],
      )
      .then((cascades) => cascades.filter((cascade) => !SIGN_IN_TABLES.has(cascade.table)))
      .catch((error: unknown) => {
        this.cascades = null;
        throw error;
      });
    return this.cascades;
  }
}

/** Inserts stored rows back into their table: the columns the table has now, each from the stored value of its name. */
async function insertRows(
  tx: Queryable,
  table: string,
  rows: readonly Row[],
  populate: 'jsonb_populate_record' | 'jsonb_populate_recordset',
): Promise<void> {
  const stored = new Set(rows.flatMap((row) => Object.keys(row)));
  const present = await tx.query<{ name: string }>(
    `SELECT attname AS name FROM pg_attribute WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped`,
    [quoted(table)],
  );
  const columns = present
    .map(({ name }) => name)
    .filter((name) => stored.has(name))
    .map(quoted)
    .join(', ');
  const value = populate === 'jsonb_populate_record' ? rows[0] : rows;
  await tx.query(
    `INSERT INTO ${quoted(table)} (${columns}) SELECT ${columns} FROM ${populate}(NULL::${quoted(table)}, $1::jsonb)`,
    [JSON.stringify(value)],
  );
}

/** A restore the database refuses for a unique value taken meanwhile, or a related record gone: a 409 saying which. */
async function refusedRestore(restore: () => Promise<void>): Promise<void> {
  try {
    await restore();
  } catch (error) {
    if (!isDatabaseError(error)) throw error;
    if (error.code === PG.uniqueViolation) {
      throw new HttpError(
        409,
        'This record cannot be restored: a value of it is now used by another record.',
        uniqueValueTaken(error),
      );
    }
    if (error.code === PG.foreignKeyViolation)
      throw conflict('This record cannot be restored: a record it names no longer exists.');
    throw error;
  }
}
