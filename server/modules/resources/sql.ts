import type { Queryable, Row } from '../../db/database.ts';
import { SqlParams, type Scope } from '../../db/sqlParams.ts';
import type { ExpectedVersion } from '../../http/recordVersion.ts';
import { quoted } from '../../../codegen/sqlNames.ts';
import { listConditions, type ListQuery } from './listSql.ts';
import { ResourceTableReads } from './tableReads.ts';

export interface ChangeOptions {
  scope: Scope | null;
  expected: ExpectedVersion;
  /** The list's search and filters the records must still match (a change of all matching records). */
  matching?: Pick<ListQuery, 'q' | 'filters'>;
  skipUnchanged?: boolean;
}

/** Rows grouped by the columns they set, so each group is one statement. */
function byColumns<T extends Record<string, unknown>>(rows: readonly T[]): T[][] {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const key = Object.keys(row).sort().join(',');
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  return [...groups.values()];
}

/** A value as a statement's parameter: a JSON field's array or object as its JSON text (not a PostgreSQL array). */
function columnParameter(value: unknown): unknown {
  return typeof value === 'object' && value !== null && !(value instanceof Date) ? JSON.stringify(value) : value;
}

export function versionCondition(params: SqlParams, expected: ExpectedVersion): string[] {
  return expected === 'any' ? [] : [`t.version = ANY(${params.add(expected.versions)}::int[])`];
}

/**
 * A resource's table: the statements that write its records, on top of its reads (tableReads.ts). The record
 * operations (recordOperations.ts) are their one caller for writes, so every change takes the same path.
 */
export class ResourceTable extends ResourceTableReads {
  /**
   * Gives the records `ids` the same values, each as it stands within the scope (and still matching the list's search
   * and filters, when `matching` is given), and answers each changed record's row before and after, in one statement.
   * The write is conditional on the version the caller read, in the statement itself: of two concurrent writers, the
   * second waits for the first's row lock, then finds the version moved on and changes nothing. The version itself
   * moves on in the table's trigger (made by the manifest's migrations), whatever the statement. `skipUnchanged`
   * leaves alone the records that already hold the values, so their entries say what changed.
   */
  async change(
    db: Queryable,
    ids: readonly number[],
    values: Record<string, unknown>,
    options: ChangeOptions,
  ): Promise<Array<{ id: number; before: Row; after: Row }>> {
    const params = new SqlParams();
    const conditions = [`t.id = ANY(${params.add(ids)}::bigint[])`, ...versionCondition(params, options.expected)];
    conditions.push(
      ...(options.matching
        ? listConditions(this.resource, params, options.matching, options.scope)
        : options.scope
          ? [options.scope(params)]
          : []),
    );
    const assigned = Object.keys(values).map(
      (name) => [quoted(name), params.add(columnParameter(values[name]))] as const,
    );
    const differs = assigned.map(([column, value]) => `t.${column} IS DISTINCT FROM ${value}`);
    const unchanged = options.skipUnchanged && differs.length > 0 ? ` AND (${differs.join(' OR ')})` : '';
    const rows = await db.query<{ id: number; before: Row; after: Row }>(
      `WITH before AS (SELECT t.id, to_jsonb(t) AS row FROM ${this.table} t WHERE ${conditions.join(' AND ')} FOR UPDATE OF t)
       UPDATE ${this.table} t SET ${[...assigned.map(([column, value]) => `${column} = ${value}`), 'updated_at = now()'].join(', ')}
         FROM before WHERE t.id = before.id${unchanged}
       RETURNING t.id, before.row AS before, to_jsonb(t) AS after`,
      params.values,
    );
    return rows.map((row) => ({ ...row, id: Number(row.id) }));
  }

  /** New records, one statement per set of columns, answered whole in the order given. */
  async insertMany(db: Queryable, rows: ReadonlyArray<Record<string, unknown>>): Promise<Row[]> {
    const inserted: Row[] = [];
    for (const group of byColumns(rows)) {
      const list = Object.keys(group[0]!).map(quoted).join(', ');
      // The table's own row type reads the values, so columns a behaviour adds (a password's hash) need no declaration.
      const sql = list
        ? `INSERT INTO ${this.table} (${list}) SELECT ${list} FROM jsonb_populate_recordset(NULL::${this.table}, $1::jsonb) WITH ORDINALITY AS v
             ORDER BY v.ordinality RETURNING to_jsonb(${this.table}) AS row`
        : `INSERT INTO ${this.table} SELECT FROM jsonb_array_elements($1::jsonb) RETURNING to_jsonb(${this.table}) AS row`;
      const created = await db.query<{ row: Row }>(sql, [JSON.stringify(group)]);
      inserted.push(...created.map(({ row }) => row));
    }
    return inserted;
  }

  /**
   * Each record its own values, at the version given with it and within the scope, one statement per set of columns;
   * answers the rows changed. A record the scope does not hold, or at another version, is left out of the answer.
   */
  async updateEach(
    db: Queryable,
    changes: ReadonlyArray<{ id: number; version: number; values: Record<string, unknown> }>,
    scope: Scope | null,
  ): Promise<Row[]> {
    const updated: Row[] = [];
    for (const group of byColumns(changes.map(({ id, version, values }) => ({ ...values, id, version })))) {
      const assigned = Object.keys(group[0]!).filter((name) => name !== 'id' && name !== 'version');
      const params = new SqlParams();
      const source = params.add(JSON.stringify(group));
      const conditions = ['t.id = v.id', 't.version = v.version', ...(scope ? [scope(params)] : [])];
      const rows = await db.query<{ row: Row }>(
        `UPDATE ${this.table} t SET ${[...assigned.map((name) => `${quoted(name)} = v.${quoted(name)}`), 'updated_at = now()'].join(', ')}
           FROM jsonb_populate_recordset(NULL::${this.table}, ${source}::jsonb) v
          WHERE ${conditions.join(' AND ')}
          RETURNING to_jsonb(t) AS row`,
        params.values,
      );
      updated.push(...rows.map(({ row }) => row));
    }
    return updated;
  }
}
