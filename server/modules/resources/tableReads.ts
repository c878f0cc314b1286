import type { Queryable, Row } from '../../db/database.ts';
import { SqlParams, type Scope } from '../../db/sqlParams.ts';
import type { EntityResource, RegistryField } from '../../registry.ts';
import { quoted } from '../../../codegen/sqlNames.ts';
import { labelColumns, labelJoins, listConditions, type ListQuery } from './listSql.ts';
import { optionLabelField } from './relations.ts';

/** The column that carries a list's total on each row of its page; never a manifest field name (they are lower snake case without a leading underscore). */
const TOTAL_KEY = '__total';
const TOTAL = quoted(TOTAL_KEY);

/** How many options one search answers; the console's pickers search as the user types rather than page. */
const OPTIONS_PAGE = 50;

/**
 * The reads of a resource's table (its writes: ResourceTable in sql.ts): the columns it returns, relation labels,
 * search, filters and sort, all in SQL.
 */
export class ResourceTableReads {
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
    const orderBy = this.orderBy(query);
    const windowed = query.q !== undefined && this.resource.searchSql !== null;
    const countSql = windowed ? 'count(*) OVER ()' : `(SELECT count(*) FROM ${this.table} t ${where})`;
    const totalColumn = knownTotal === undefined ? `, ${countSql} AS ${TOTAL}` : '';
    const limit = params.add(query.pageSize);
    const offset = params.add((query.page - 1) * query.pageSize);
    const pageSql = `SELECT p.*${labelColumns(this.relations)} FROM (
        SELECT ${this.columns}${totalColumn} FROM ${this.table} t ${where} ORDER BY t.${orderBy} LIMIT ${limit} OFFSET ${offset}
      ) p ${labelJoins(this.relations, 'p')} ORDER BY p.${orderBy}`;
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

  /**
   * The ids of the list's matches in list order, at most `limit` of them: what a deep page is read from instead of
   * an OFFSET, which reads (and filters) every match before the page.
   */
  async orderedIds(
    db: Queryable,
    query: Omit<ListQuery, 'page' | 'pageSize'>,
    scope: Scope | null,
    limit: number,
  ): Promise<number[]> {
    const params = new SqlParams();
    const where = this.where(params, query, scope);
    const rows = await db.query<{ id: number }>(
      `SELECT t.id FROM ${this.table} t ${where} ORDER BY t.${this.orderBy(query)} LIMIT ${params.add(limit)}`,
      params.values,
    );
    return rows.map((row) => Number(row.id));
  }

  /** The records `ids` in list order, with the list's conditions applied again: a page read by `orderedIds`. */
  async page(db: Queryable, ids: readonly number[], query: ListQuery, scope: Scope | null): Promise<Row[]> {
    const params = new SqlParams();
    const conditions = [
      `t.id = ANY(${params.add(ids)}::bigint[])`,
      ...listConditions(this.resource, params, query, scope),
    ];
    return db.query(`${this.answeredSql(conditions.join(' AND '))} ORDER BY p.${this.orderBy(query)}`, params.values);
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
      const orderBy = this.orderBy(query);
      const rows = await db.query(
        `SELECT p.*${labelColumns(this.relations)} FROM (
           SELECT ${this.columns} FROM ${this.table} t ${where} ORDER BY t.${orderBy} LIMIT ${params.add(batchSize)} OFFSET ${params.add(offset)}
         ) p ${labelJoins(this.relations, 'p')} ORDER BY p.${orderBy}`,
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
    const [row] = await db.query(this.answeredSql(conditions.join(' AND ')), params.values);
    return row;
  }

  /** Records as the API answers them (with their relations' labels), by id, whatever the scope: what webhooks send. */
  async answeredRows(db: Queryable, ids: readonly number[]): Promise<Map<number, Row>> {
    if (ids.length === 0) return new Map();
    const rows = await db.query(this.answeredSql('t.id = ANY($1::bigint[])'), [ids]);
    return new Map(rows.map((row) => [Number(row.id), row]));
  }

  /** The records `where` picks (over the table as `t`), as answered: the returned columns and the relations' labels. */
  private answeredSql(where: string): string {
    return `SELECT p.*${labelColumns(this.relations)} FROM (SELECT ${this.columns} FROM ${this.table} t WHERE ${where}) p ${labelJoins(this.relations, 'p')}`;
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

  /**
   * The rows of `ids` as they stand in the transaction, whole as JSON (`to_jsonb`: every column, dates read the same
   * on PGlite and PostgreSQL), by id: one statement, whatever the count. What the audit trail compares and keeps.
   */
  async rows(db: Queryable, ids: readonly number[]): Promise<Map<number, Row>> {
    if (ids.length === 0) return new Map();
    const rows = await db.query<{ id: number; row: Row }>(
      `SELECT t.id, to_jsonb(t) AS row FROM ${this.table} t WHERE t.id = ANY($1::bigint[])`,
      [ids],
    );
    return new Map(rows.map(({ id, row }) => [Number(id), row]));
  }

  /** The ids of the records the list shows for this search and these filters, within the scope (and among `among`). */
  async matchingIds(
    db: Queryable,
    query: Pick<ListQuery, 'q' | 'filters'>,
    scope: Scope | null,
    among?: readonly number[],
  ): Promise<number[]> {
    const params = new SqlParams();
    const conditions = listConditions(this.resource, params, query, scope);
    if (among) conditions.push(`t.id = ANY(${params.add(among)}::bigint[])`);
    const rows = await db.query<{ id: number }>(
      `SELECT t.id FROM ${this.table} t ${conditions.length ? `WHERE ${conditions.join(' AND ')}` : ''} ORDER BY t.id`,
      params.values,
    );
    return rows.map((row) => Number(row.id));
  }

  /**
   * Records as `{ value, label }` for the console's pickers: active ones whose label contains `q` (the first
   * OPTIONS_PAGE by label), or the one record `id` whatever its state; within the scope, like every other read.
   */
  async options(
    db: Queryable,
    query: { q?: string; id?: number },
    scope: Scope | null,
  ): Promise<Array<{ value: number; label: string }>> {
    const label = `t.${quoted(optionLabelField(this.resource))}`;
    const params = new SqlParams();
    const conditions: string[] = [];
    if (query.id !== undefined) {
      conditions.push(`t.id = ${params.add(query.id)}`);
    } else {
      conditions.push('t.is_active');
      const needle = (query.q ?? '')
        .trim()
        .toLowerCase()
        .replace(/[\\%_]/g, (character) => `\\${character}`);
      if (needle) conditions.push(`lower(${label}::text) LIKE '%' || ${params.add(needle)} || '%'`);
    }
    if (scope) conditions.push(scope(params));
    return db.query(
      `SELECT t.id AS value, coalesce(${label}::text, t.id::text) AS label FROM ${this.table} t
        WHERE ${conditions.join(' AND ')} ORDER BY ${label}, t.id LIMIT ${OPTIONS_PAGE}`,
      params.values,
    );
  }

  /**
   * The records whose values of the fields `key` are among those of `bodies`, whole, each with `__in_scope`: whether
   * the scope holds it (a scope condition may be NULL, an unassigned subscriber: outside it too). One statement on
   * the key's index.
   */
  async byKey(
    db: Queryable,
    key: readonly string[],
    bodies: ReadonlyArray<Record<string, unknown>>,
    scope: Scope | null,
  ): Promise<Row[]> {
    const params = new SqlParams();
    const arrays = key.map((name) => {
      const field = this.resource.entity.fields.find((candidate) => candidate.name === name)!;
      return `${params.add(bodies.map((body) => body[name]))}::${field.sqlType}[]`;
    });
    const inScope = scope ? `coalesce((${scope(params)}), false)` : 'true';
    return db.query(
      `SELECT t.*, ${inScope} AS __in_scope FROM ${this.table} t WHERE (${key.map((name) => `t.${quoted(name)}`).join(', ')}) IN (SELECT * FROM unnest(${arrays.join(', ')}))`,
      params.values,
    );
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

  /** The list's order, the id breaking ties, for a table or subquery alias in front of it. */
  private orderBy({ sort, order }: Pick<ListQuery, 'sort' | 'order'>): string {
    const direction = order === 'desc' ? 'DESC' : 'ASC';
    return `${quoted(sort)} ${direction}, id ${direction}`;
  }

  /** The list's condition (search, filters, scope) on alias `t`: what a page shows, an export writes and a bulk change touches. */
  private where(params: SqlParams, query: Pick<ListQuery, 'q' | 'filters'>, scope: Scope | null): string {
    const conditions = listConditions(this.resource, params, query, scope);
    return conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
  }
}
