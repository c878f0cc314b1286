import type { Queryable, Row } from '../../db/database.ts';
import { SqlParams, type Scope } from '../../db/sqlParams.ts';
import type { ExpectedVersion } from '../../http/recordVersion.ts';
import { type EntityResource, type RegistryField } from '../../registry.ts';
import { quoted } from '../../../codegen/sqlNames.ts';
import { EMPTY_SUFFIX, FROM_SUFFIX, splitValues, TO_SUFFIX } from '../../../contract/listFilters.ts';
import { listFilters } from './schemas.ts';
import { likeLiteral, searchTerms } from './searchTerms.ts';

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

/** Reads a resource's table: the columns it returns, relation labels, search, filters and sort, all in SQL. */
export class ResourceTable {
  readonly table: string;
  private readonly columns: string;
  private readonly relations: RegistryField[];

  constructor(readonly resource: EntityResource) {
    this.table = quoted(resource.entity.table);
    const returned = resource.entity.fields.filter((field) => !field.writeOnly);
    const verified = resource.actions.includes('verify')
      ? [
          `(SELECT v.verified_at FROM verifications v WHERE v.module = '${resource.key}' AND v.record_id = t.id) AS verified_at`,
        ]
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
  async list(
    db: Queryable,
    query: ListQuery,
    scope: Scope | null,
    knownTotal?: number,
  ): Promise<{ rows: Row[]; total: number }> {
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
    const [counted] = await db.query<{ total: number }>(
      `SELECT count(*) AS total FROM ${this.table} t ${this.where(countParams, query, scope)}`,
      countParams.values,
    );
    return { rows, total: counted?.total ?? 0 };
  }

  /** Rows in batches for the CSV export, in list order, with at most `limit` rows in all. */
  async *batches(
    db: Queryable,
    query: Omit<ListQuery, 'page' | 'pageSize'>,
    scope: Scope | null,
    batchSize: number,
    limit: number,
  ): AsyncGenerator<Row[]> {
    for (let offset = 0; offset < limit; offset += batchSize) {
      const params = new SqlParams();
      const where = this.where(params, query, scope);
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
    const [row] = await db.query<{ count: number }>(
      `SELECT count(*) AS count FROM ${this.table} t WHERE ${conditions.join(' AND ')}`,
      params.values,
    );
    return row?.count === ids.length;
  }

  async insert(db: Queryable, values: Record<string, unknown>): Promise<number> {
    const params = new SqlParams();
    const names = Object.keys(values);
    const placeholders = names.map((name) => params.add(columnParameter(values[name])));
    const sql = names.length
      ? `INSERT INTO ${this.table} (${names.map(quoted).join(', ')}) VALUES (${placeholders.join(', ')}) RETURNING id`
      : `INSERT INTO ${this.table} DEFAULT VALUES RETURNING id`;
    const [row] = await db.query<{ id: number }>(sql, params.values);
    return row!.id;
  }

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
        ? this.conditions(params, options.matching, options.scope)
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

  /** Of records holding these values, the places (in `rows`) of those the scope would not hold. */
  async outsideScope(db: Queryable, rows: readonly Row[], scope: Scope): Promise<number[]> {
    const params = new SqlParams();
    const records = params.add(JSON.stringify(rows));
    const found = await db.query<{ place: number }>(
      `SELECT e.n - 1 AS place FROM jsonb_array_elements(${records}::jsonb) WITH ORDINALITY AS e(value, n),
         LATERAL jsonb_populate_record(NULL::${this.table}, e.value) t WHERE NOT coalesce((${scope(params)}), false) ORDER BY e.n`,
      params.values,
    );
    return found.map((row) => Number(row.place));
  }

  /** The list's condition (search, filters, scope) on alias `t`: what a page shows, an export writes and a bulk change touches. */
  where(params: SqlParams, query: Pick<ListQuery, 'q' | 'filters'>, scope: Scope | null): string {
    const conditions = this.conditions(params, query, scope);
    return conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
  }

  private conditions(params: SqlParams, query: Pick<ListQuery, 'q' | 'filters'>, scope: Scope | null): string[] {
    const conditions: string[] = [];
    if (query.q && this.resource.searchSql) {
      // The same expression the trigram index covers, so the index applies (for each term, ORed).
      const matches = searchTerms(this.resource, query.q).map(
        (term) => `${this.resource.searchSql} LIKE '%' || lower(${params.add(likeLiteral(term))}) || '%'`,
      );
      conditions.push(matches.length === 1 ? matches[0]! : `(${matches.join(' OR ')})`);
    }
    conditions.push(...this.filterConditions(params, query.filters));
    if (scope) conditions.push(scope(params));
    return conditions;
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
        conditions.push(
          values.length === 1
            ? `${column} = ${params.add(values[0])}`
            : `${column} = ANY(${params.add(values)}::${field.sqlType}[])`,
        );
      } else if (value !== undefined) {
        conditions.push(`${column} = ${params.add(value)}`);
      }
      if (kind === 'date') {
        const from = given(`${field.name}${FROM_SUFFIX}`);
        const to = given(`${field.name}${TO_SUFFIX}`);
        const wholeDay = (day: unknown) => field.format === 'date-time' && String(day).length === 10;
        if (from !== undefined) conditions.push(`${column} >= ${params.add(from)}${wholeDay(from) ? '::date' : ''}`);
        if (to !== undefined)
          conditions.push(wholeDay(to) ? `${column} < ${params.add(to)}::date + 1` : `${column} <= ${params.add(to)}`);
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
    return this.relations
      .map(
        (field) =>
          `, ${quoted(`r_${field.name}`)}.${quoted(field.relation!.labelField)} AS ${quoted(`${field.name}_label`)}`,
      )
      .join('');
  }

  private labelJoins(alias: string): string {
    return this.relations
      .map(
        (field) =>
          `LEFT JOIN ${quoted(field.relation!.table)} ${quoted(`r_${field.name}`)} ON ${quoted(`r_${field.name}`)}.id = ${alias}.${quoted(field.name)}`,
      )
      .join(' ');
  }
}
