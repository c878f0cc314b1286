import type { Queryable, Row } from '../../db/database.ts';
import { SqlParams, type Scope } from '../../db/sqlParams.ts';
import type { ExpectedVersion } from '../../http/recordVersion.ts';
import { quoted, type EntityResource, type RegistryField } from '../../registry.ts';
import { EMPTY_SUFFIX, FROM_SUFFIX, splitValues, TO_SUFFIX } from '../../../contract/listFilters.ts';
import { listFilters } from './schemas.ts';

/** The column that carries a list's total on each row of its page; never a manifest field name (they are lower snake case without a leading underscore). */
const TOTAL_KEY = '__total';
const TOTAL = quoted(TOTAL_KEY);

export interface ListQuery {
  page: number;
  pageSize: number;
  sort: string;
  order: 'asc' | 'desc';
  q: string | undefined;
  filters: Record<string, unknown>;
}

export function versionCondition(params: SqlParams, expected: ExpectedVersion): string[] {
  return expected === 'any' ? [] : [`t.version = ANY(${params.add(expected.versions)}::int[])`];
}

/** Reads a resource's table: the columns it returns, relation labels, search, filters and sort, all in SQL. */
export class ResourceTable {
  readonly table: string;
  private readonly columns: string;
  private readonly relations: RegistryField[];

  constructor(readonly resource: EntityResource) {
    this.table = quoted(resource.entity.table);
    const returned = resource.entity.fields.filter((field) => !field.writeOnly);
    const verified = resource.actions.includes('verify')
      ? [`(SELECT v.verified_at FROM verifications v WHERE v.module = '${resource.key}' AND v.record_id = t.id) AS verified_at`]
      : [];
    this.columns = [...returned.map((field) => `t.${quoted(field.name)}`), ...verified].join(', ');
    this.relations = returned.filter((field) => field.relation !== null);
  }

  /**
   * A page and the total in one statement. A search counts with a window over the rows it matched anyway (the
   * trigram index narrows them first); without one, the count is a separate scan inside the same statement, so
   * the page itself still comes straight off the sort index. `knownTotal`, the total of the same search and filters
   * at the same data version, leaves the count out: paging through a view counts its matches once.
   */
  async list(db: Queryable, query: ListQuery, scope: Scope | null, knownTotal?: number): Promise<{ rows: Row[]; total: number }> {
    const params = new SqlParams();
    const where = this.where(params, query, scope);
    const direction = query.order === 'desc' ? 'DESC' : 'ASC';
    const orderBy = `${quoted(query.sort)} ${direction}, id ${direction}`;
    const windowed = query.q !== undefined && this.resource.searchSql !== null;
    const countSql = windowed ? 'count(*) OVER ()' : `(SELECT count(*) FROM ${this.table} t ${where})`;
    const totalColumn = knownTotal === undefined ? `, ${countSql} AS ${TOTAL}` : '';
    const limit = params.add(query.pageSize);
    const offset = params.add((query.page - 1) * query.pageSize);
    const pageSql = `SELECT p.*${this.labelColumns()} FROM (
        SELECT ${this.columns}${totalColumn} FROM ${this.table} t ${where} ORDER BY t.${orderBy} LIMIT ${limit} OFFSET ${offset}
      ) p ${this.labelJoins('p')} ORDER BY p.${orderBy}`;
    const rows = await db.query(pageSql, params.values);
    if (knownTotal !== undefined) return { rows, total: knownTotal };
    if (rows.length > 0) {
      const total = Number(rows[0]![TOTAL_KEY]);
      for (const row of rows) delete row[TOTAL_KEY];
      return { rows, total };
    }
    if (query.page === 1) return { rows, total: 0 };
    // Past the last page the window has no row to ride on: count on its own (rare: a stale page link).
    const countParams = new SqlParams();
    const [counted] = await db.query<{ total: number }>(`SELECT count(*) AS total FROM ${this.table} t ${this.where(countParams, query, scope)}`, countParams.values);
    return { rows, total: counted?.total ?? 0 };
  }

  /** Rows in batches for the CSV export, in list order, with at most `limit` rows in all. */
  async *batches(db: Queryable, query: Omit<ListQuery, 'page' | 'pageSize'>, scope: Scope | null, batchSize: number, limit: number): AsyncGenerator<Row[]> {
    for (let offset = 0; offset < limit; offset += batchSize) {
      const params = new SqlParams();
      const where = this.where(params, { ...query, page: 1, pageSize: batchSize }, scope);
      const direction = query.order === 'desc' ? 'DESC' : 'ASC';
      const orderBy = `${quoted(query.sort)} ${direction}, id ${direction}`;
      const rows = await db.query(
        `SELECT p.*${this.labelColumns()} FROM (
           SELECT ${this.columns} FROM ${this.table} t ${where} ORDER BY t.${orderBy} LIMIT ${params.add(batchSize)} OFFSET ${params.add(offset)}
         ) p ${this.labelJoins('p')} ORDER BY p.${orderBy}`,
        params.values,
      );
      if (rows.length > 0) yield rows;
      if (rows.length < batchSize) return;
    }
  }

  async get(db: Queryable, id: number, scope: Scope | null): Promise<Row | undefined> {
    const params = new SqlParams();
    const conditions = [`t.id = ${params.add(id)}`];
    if (scope) conditions.push(scope(params));
    const [row] = await db.query(
      `SELECT p.*${this.labelColumns()} FROM (SELECT ${this.columns} FROM ${this.table} t WHERE ${conditions.join(' AND ')}) p ${this.labelJoins('p')}`,
      params.values,
    );
    return row;
  }

  /** True when the record exists and lies within the scope. */
  async visible(db: Queryable, ids: readonly number[], scope: Scope | null): Promise<boolean> {
    const params = new SqlParams();
    const conditions = [`t.id = ANY(${params.add(ids)}::bigint[])`];
    if (scope) conditions.push(scope(params));
    const [row] = await db.query<{ count: number }>(`SELECT count(*) AS count FROM ${this.table} t WHERE ${conditions.join(' AND ')}`, params.values);
    return row?.count === ids.length;
  }

  async insert(db: Queryable, values: Record<string, unknown>): Promise<number> {
    const params = new SqlParams();
    const names = Object.keys(values);
    const placeholders = names.map((name) => params.add(values[name]));
    const sql = names.length
      ? `INSERT INTO ${this.table} (${names.map(quoted).join(', ')}) VALUES (${placeholders.join(', ')}) RETURNING id`
      : `INSERT INTO ${this.table} DEFAULT VALUES RETURNING id`;
    const [row] = await db.query<{ id: number }>(sql, params.values);
    return row!.id;
  }

  /**
   * The write is conditional on the version the caller read, in the statement itself: of two concurrent writers, the
   * second waits for the first's row lock, then finds the version moved on and changes nothing. The version itself
   * moves on in the table's trigger (made by the manifest's migrations), whatever the statement.
   */
  async update(db: Queryable, id: number, values: Record<string, unknown>, scope: Scope | null, expected: ExpectedVersion): Promise<boolean> {
    const params = new SqlParams();
    const assignments = Object.keys(values).map((name) => `${quoted(name)} = ${params.add(values[name])}`);
    assignments.push('updated_at = now()');
    const conditions = [`t.id = ${params.add(id)}`, ...versionCondition(params, expected)];
    if (scope) conditions.push(scope(params));
    const rows = await db.query(`UPDATE ${this.table} t SET ${assignments.join(', ')} WHERE ${conditions.join(' AND ')} RETURNING t.id`, params.values);
    return rows.length === 1;
  }

  /** `expected` for one record's change; bulk changes (ids in the body) apply to whatever version each record is at. */
  async setActive(db: Queryable, ids: readonly number[], isActive: boolean, scope: Scope | null, expected: ExpectedVersion = 'any'): Promise<number> {
    const params = new SqlParams();
    const conditions = [`t.id = ANY(${params.add(ids)}::bigint[])`, ...versionCondition(params, expected)];
    if (scope) conditions.push(scope(params));
    const rows = await db.query(
      `UPDATE ${this.table} t SET is_active = ${params.add(isActive)}, updated_at = now() WHERE ${conditions.join(' AND ')} RETURNING t.id`,
      params.values,
    );
    return rows.length;
  }

  async remove(db: Queryable, ids: readonly number[], scope: Scope | null, expected: ExpectedVersion = 'any'): Promise<number> {
    const params = new SqlParams();
    const conditions = [`t.id = ANY(${params.add(ids)}::bigint[])`, ...versionCondition(params, expected)];
    if (scope) conditions.push(scope(params));
    const rows = await db.query(`DELETE FROM ${this.table} t WHERE ${conditions.join(' AND ')} RETURNING t.id`, params.values);
    return rows.length;
  }

  /** The list's condition (search, filters, scope) on alias `t`: what a page shows, an export writes and a bulk change touches. */
  where(params: SqlParams, query: ListQuery, scope: Scope | null): string {
    const conditions: string[] = [];
    if (query.q && this.resource.searchSql) {
      // The same expression the trigram index covers, so the index applies; LIKE wildcards in the input are literal.
      const needle = query.q.replace(/[\\%_]/g, (character) => `\\${character}`);
      conditions.push(`${this.resource.searchSql} LIKE '%' || lower(${params.add(needle)}) || '%'`);
    }
    conditions.push(...this.filterConditions(params, query.filters));
    if (scope) conditions.push(scope(params));
    return conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
  }

  /**
   * The manifest's filters as conditions (schemas.ts `listQuerySchema` judged the values): several values as one
   * `= ANY` of the column's own type, so the column's index applies; a day as the end of a date-time range covers it
   * all; `_empty` as IS NULL (or an empty text).
   */
  private filterConditions(params: SqlParams, filters: ListQuery['filters']): string[] {
    const conditions: string[] = [];
    const given = (key: string) => (filters[key] === undefined || filters[key] === '' ? undefined : filters[key]);
    for (const { field, kind, multiple } of listFilters(this.resource)) {
      const column = `t.${quoted(field.name)}`;
      const value = given(field.name);
      if (value !== undefined && multiple) {
        const values = splitValues(String(value));
        conditions.push(values.length === 1 ? `${column} = ${params.add(values[0])}` : `${column} = ANY(${params.add(values)}::${field.sqlType}[])`);
      } else if (value !== undefined) {
        conditions.push(`${column} = ${params.add(value)}`);
      }
      if (kind === 'date') {
        const from = given(`${field.name}${FROM_SUFFIX}`);
        const to = given(`${field.name}${TO_SUFFIX}`);
        const wholeDay = (day: unknown) => field.format === 'date-time' && String(day).length === 10;
        if (from !== undefined) conditions.push(`${column} >= ${params.add(from)}${wholeDay(from) ? '::date' : ''}`);
        if (to !== undefined) conditions.push(wholeDay(to) ? `${column} < ${params.add(to)}::date + 1` : `${column} <= ${params.add(to)}`);
      }
      const empty = given(`${field.name}${EMPTY_SUFFIX}`);
      if (empty !== undefined) {
        const isEmpty = field.type === 'string' ? `(${column} IS NULL OR ${column} = '')` : `${column} IS NULL`;
        conditions.push(empty === true || empty === 'true' ? isEmpty : `NOT ${isEmpty}`);
      }
    }
    return conditions;
  }

  private labelColumns(): string {
    return this.relations.map((field) => `, ${quoted(`r_${field.name}`)}.${quoted(field.relation!.labelField)} AS ${quoted(`${field.name}_label`)}`).join('');
  }

  private labelJoins(alias: string): string {
    return this.relations
      .map((field) => `LEFT JOIN ${quoted(field.relation!.table)} ${quoted(`r_${field.name}`)} ON ${quoted(`r_${field.name}`)}.id = ${alias}.${quoted(field.name)}`)
      .join(' ');
  }
}
