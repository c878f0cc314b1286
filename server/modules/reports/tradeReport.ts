// The uploaded-data report's SQL: a page of trade records by keyset on (shipment_date, id), how many match (from the
// uploads' own counts, or the planner's estimate), and every matching record for an export. The partitions it reads
// are made by the import (server/modules/uploads/tradePartitions.ts, migration 017).
import type { Database, Queryable, Row } from '../../db/database.ts';
import { SqlParams } from '../../db/sqlParams.ts';
import { validationError } from '../../http/errors.ts';
import { MODULE, entityResource } from '../../registry.ts';
import { quoted } from '../../../codegen/sqlNames.ts';
import { TRADE_RECORD_COLUMNS } from '../uploads/tradeColumns.ts';
import { TRADE_SEARCH } from '../uploads/tradePartitions.ts';

const SELECTED = TRADE_RECORD_COLUMNS.join(', ');
const NEWEST_FIRST = 'shipment_date DESC, id DESC';
const OLDEST_FIRST = 'shipment_date ASC, id ASC';
/** An upload's own table of records, attached to its month once published: its records are its rows_accepted. */
const UPLOAD_TABLE = '^trade_records_upload_([0-9]+)$';
/**
 * Records in the default partitions (written before uploads had tables, or by anything but an import) have no upload
 * count: they are counted, up to this size of those tables, past which the planner's estimate stands in for them.
 */
const COUNTED_DEFAULT_BYTES = 64 * 1024 * 1024;
/**
 * A text search runs in a trigram index per table of records, so within a month it reads a few indexes; over every
 * month one statement may read them all, and is stopped after this long (PostgreSQL; PGlite has no timer for it).
 */
export const SEARCH_TIMEOUT_MILLISECONDS = 5_000;
export const SEARCH_TOO_LONG =
  'This search takes too long over every record: choose a period, a country or an upload to narrow it.';

export interface TradeFilter {
  country_id?: number;
  trade_direction?: 'import' | 'export';
  period?: string;
  upload_id?: number;
  q?: string;
}

/** A record's place in the report's order: newest shipment first, then highest id. */
export interface Position {
  shipmentDate: string;
  id: number;
}

export interface PageRequest {
  size: number;
  /** The page after this record (Next); without it or `before`, the first page. */
  after?: Position;
  /** The page before this record (Previous). */
  before?: Position;
}

export interface TradePage {
  rows: Row[];
  /** The last record's position when more records follow, else null. */
  next: Position | null;
  /** The first record's position when records come before the page, else null. */
  previous: Position | null;
}

export interface TradeTotal {
  total: number;
  estimated: boolean;
}

/** One page of matching records; searches are bounded by SEARCH_TIMEOUT_MILLISECONDS. */
export async function tradeReportPage(db: Database, filter: TradeFilter, request: PageRequest): Promise<TradePage> {
  return boundedSearch(db, filter, async (reader) => {
    const backwards = request.before !== undefined;
    const params = new SqlParams();
    const { source, conditions } = await recordsOf(reader, params, filter);
    const from = request.before ?? request.after;
    if (from)
      conditions.push(
        `(shipment_date, id) ${backwards ? '>' : '<'} (${params.add(from.shipmentDate)}::date, ${params.add(from.id)}::bigint)`,
      );
    const rows = source
      ? await reader.query(
          `SELECT ${SELECTED} FROM ${source} ${where(conditions)} ORDER BY ${backwards ? OLDEST_FIRST : NEWEST_FIRST} LIMIT ${params.add(request.size + 1)}`,
          params.values,
        )
      : [];
    const more = rows.length > request.size;
    const page = rows.slice(0, request.size);
    if (backwards) page.reverse();
    const first = page[0];
    const last = page[page.length - 1];
    return {
      rows: page,
      next: last && (backwards || more) ? positionOf(last) : null,
      previous: first && (backwards ? more : request.after !== undefined) ? positionOf(first) : null,
    };
  });
}

/**
 * How many records match. Without a text search, exact: the matching published uploads' rows_accepted, plus the other
 * tables' records counted (or estimated when those tables are large). With one, the planner's estimate.
 */
export async function tradeReportTotal(db: Queryable, filter: TradeFilter): Promise<TradeTotal> {
  const tables = await tablesOf(db, filter);
  if (hasSearch(filter)) {
    const params = new SqlParams();
    const { source, conditions } = await recordsOf(db, params, filter, tables);
    return {
      total: source ? await estimate(db, `SELECT 1 FROM ${source} ${where(conditions)}`, params) : 0,
      estimated: true,
    };
  }
  const uploads = tables.uploads.reduce((total, table) => total + table.rows, 0);
  if (tables.others.length === 0) return { total: uploads, estimated: false };
  const params = new SqlParams();
  const others = otherRecords(params, filter, tables.others);
  if (tables.others.reduce((bytes, table) => bytes + table.bytes, 0) > COUNTED_DEFAULT_BYTES) {
    return { total: uploads + (await estimate(db, `SELECT 1 FROM (${others}) AS t`, params)), estimated: true };
  }
  const [counted] = await db.query<{ total: number }>(`SELECT count(*) AS total FROM (${others}) AS t`, params.values);
  return { total: uploads + Number(counted?.total ?? 0), estimated: false };
}

interface TradeTables {
  /** Published uploads' own tables the filter takes in whole (their upload's country, direction and period match). */
  uploads: Array<{ name: string; rows: number }>;
  /** The default partitions (of the filter's month, when it has one), whose records are each checked. */
  others: Array<{ name: string; bytes: number }>;
}

/**
 * The tables of records the filter may take in, from the catalogue and the uploads' records: a country or direction is
 * no column any partition is by, but each upload's table holds one country, direction and month.
 */
async function tablesOf(db: Queryable, filter: TradeFilter): Promise<TradeTables> {
  const uploads = entityResource(MODULE.dataUploadLogs);
  const params = new SqlParams();
  const matches: string[] = [];
  if (filter.country_id !== undefined) matches.push(`u.country_id = ${params.add(filter.country_id)}`);
  if (filter.trade_direction !== undefined) matches.push(`u.trade_direction = ${params.add(filter.trade_direction)}`);
  if (filter.period !== undefined) matches.push(`u.period = ${params.add(filter.period)}`);
  if (filter.upload_id !== undefined) matches.push(`u.id = ${params.add(filter.upload_id)}`);
  const month =
    filter.period === undefined
      ? 'true'
      : `(m.relname = 'trade_records' OR pg_get_expr(m.relpartbound, m.oid) = format('FOR VALUES IN (%L)', ${params.add(filter.period)}::text))`;
  const rows = await db.query<{ name: string; rows: number | null; bytes: number }>(
    `SELECT c.oid::regclass::text AS name, u.rows_accepted AS rows, c.relpages::bigint * 8192 AS bytes
       FROM pg_partition_tree('trade_records') t JOIN pg_class c ON c.oid = t.relid JOIN pg_class m ON m.oid = t.parentrelid
       ${uploads ? `LEFT JOIN ${quoted(uploads.entity.table)} u ON u.id = substring(c.relname from '${UPLOAD_TABLE}')::bigint` : 'LEFT JOIN (SELECT NULL::bigint AS id, NULL::bigint AS rows_accepted) u ON false'}
      WHERE t.isleaf AND CASE WHEN u.id IS NULL THEN ${month} ELSE ${matches.length ? matches.join(' AND ') : 'true'} END
      ORDER BY c.relname`,
    params.values,
  );
  return {
    uploads: rows.filter((row) => row.rows !== null).map((row) => ({ name: row.name, rows: Number(row.rows) })),
    others: rows.filter((row) => row.rows === null).map((row) => ({ name: row.name, bytes: Number(row.bytes) })),
  };
}

/**
 * Where the filter's records are read from. By country or direction: the matching uploads' tables and the other
 * tables, as one UNION ALL the planner merges by each table's newest-first index (a Merge Append); the partitioned
 * table's (country, direction, date) index would give no order for a country alone. Otherwise trade_records itself,
 * whose month and upload partitions the planner prunes. Null when no table can hold a match.
 */
async function recordsOf(
  db: Queryable,
  params: SqlParams,
  filter: TradeFilter,
  known?: TradeTables,
): Promise<{ source: string | null; conditions: string[] }> {
  const search = hasSearch(filter) ? [searchCondition(params, filter.q!)] : [];
  if (filter.country_id === undefined && filter.trade_direction === undefined) {
    return { source: 'trade_records', conditions: [...filterConditions(params, filter), ...search] };
  }
  const tables = known ?? (await tablesOf(db, filter));
  const selects = [
    ...tables.uploads.map((table) => `SELECT ${SELECTED} FROM ${table.name}`),
    ...(tables.others.length ? [otherRecords(params, filter, tables.others)] : []),
  ];
  return { source: selects.length ? `(${selects.join(' UNION ALL ')}) AS t` : null, conditions: search };
}

/** The records of the other tables the filter takes in, each checked against it. */
function otherRecords(params: SqlParams, filter: TradeFilter, tables: TradeTables['others']): string {
  const conditions = filterConditions(params, filter);
  return tables.map((table) => `SELECT ${SELECTED} FROM ${table.name} ${where(conditions)}`).join(' UNION ALL ');
}

/** Every matching record, newest first, in batches read by keyset, however many there are. */
export async function* tradeReportBatches(
  db: Database,
  filter: TradeFilter,
  from?: Position,
  batchSize = 2_000,
): AsyncGenerator<{ rows: Row[]; last: Position }> {
  let after = from;
  for (;;) {
    const page = await tradeReportPage(db, filter, { size: batchSize, ...(after ? { after } : {}) });
    const last = page.rows[page.rows.length - 1];
    if (!last) return;
    after = positionOf(last);
    yield { rows: page.rows, last: after };
    if (!page.next) return;
  }
}

/** The opaque cursor of a position, as the report's answer gives it: `_after` / `_before` take it back. */
export function encodeCursor(position: Position): string {
  return Buffer.from(`${position.shipmentDate}|${position.id}`).toString('base64url');
}

/** The position a cursor names, or null when it is not one the report gave. */
export function decodeCursor(cursor: string): Position | null {
  const match = /^(\d{4}-\d{2}-\d{2})\|(\d{1,18})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match || Number.isNaN(Date.parse(match[1]!))) return null;
  const id = Number(match[2]);
  return Number.isSafeInteger(id) ? { shipmentDate: match[1]!, id } : null;
}

function positionOf(row: Row): Position {
  const date = row.shipment_date;
  return { shipmentDate: date instanceof Date ? date.toISOString().slice(0, 10) : String(date), id: Number(row.id) };
}

function hasSearch(filter: TradeFilter): boolean {
  return filter.q !== undefined && filter.q.trim() !== '';
}

/** The filter's conditions on a record, but its search (searchCondition). */
function filterConditions(params: SqlParams, filter: TradeFilter): string[] {
  const conditions: string[] = [];
  if (filter.country_id !== undefined) conditions.push(`country_id = ${params.add(filter.country_id)}`);
  if (filter.trade_direction !== undefined) conditions.push(`trade_direction = ${params.add(filter.trade_direction)}`);
  if (filter.period !== undefined) conditions.push(`period = ${params.add(filter.period)}`);
  if (filter.upload_id !== undefined) conditions.push(`upload_id = ${params.add(filter.upload_id)}`);
  return conditions;
}

function searchCondition(params: SqlParams, q: string): string {
  const needle = q.trim().replace(/[\\%_]/g, (character) => `\\${character}`);
  return `${TRADE_SEARCH} LIKE '%' || lower(${params.add(needle)}) || '%'`;
}

function where(conditions: readonly string[]): string {
  return conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
}

/** The planner's estimate of the rows `query` gives: no record is read. */
async function estimate(db: Queryable, query: string, params: SqlParams): Promise<number> {
  const [row] = await db.query<Record<string, unknown>>(`EXPLAIN (FORMAT JSON) ${query}`, params.values);
  const plan = Object.values(row ?? {})[0];
  const parsed = (typeof plan === 'string' ? JSON.parse(plan) : plan) as Array<{ Plan: { 'Plan Rows': number } }>;
  return Math.round(parsed[0]?.Plan['Plan Rows'] ?? 0);
}

/** Runs a search under the statement timeout, answering 400 on `q` when it runs out; anything else as it is. */
async function boundedSearch<T>(db: Database, filter: TradeFilter, run: (reader: Queryable) => Promise<T>): Promise<T> {
  if (!hasSearch(filter) || db.kind !== 'postgres') return againIfReplaced(() => run(db));
  try {
    return await againIfReplaced(() =>
      db.transaction(async (tx) => {
        await tx.exec(`SET LOCAL statement_timeout = ${SEARCH_TIMEOUT_MILLISECONDS}`);
        return run(tx);
      }),
    );
  } catch (error) {
    if ((error as { code?: unknown }).code === '57014') throw validationError({ q: SEARCH_TOO_LONG });
    throw error;
  }
}

/** Runs `read` again, once, when an upload's table it was about to read was dropped (the upload replaced) meanwhile. */
async function againIfReplaced<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if ((error as { code?: unknown }).code !== '42P01') throw error;
    return read();
  }
}
